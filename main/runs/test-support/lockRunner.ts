/**
 * Child process for the live.lock race test (runFolder.test.ts): takes the lock of a run folder
 * as a second studio or `simulacra run --resume` would, prints `got` or `refused <message>`, and
 * stays alive (holding the lock it got) until killed.
 *
 *   node --import tsx lockRunner.ts <run-dir>
 */
import { acquireLock } from '../runFolder';

const [dir] = process.argv.slice(2);
try {
  acquireLock(dir, process.pid);
  process.stdout.write('got\n');
} catch (error) {
  process.stdout.write(`refused ${(error as Error).message}\n`);
}
setInterval(() => {}, 1000);
