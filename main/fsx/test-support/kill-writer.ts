/**
 * The victim of kill.test.ts: run as `node --import tsx kill-writer.ts '<json job>'`, it
 * writes one kind of file the product keeps, over and over, alternating between two versions,
 * until it is killed. It prints "ready" once the loop starts, so the test's seeded delay
 * counts from the first write and not from process start-up.
 *
 * Every case goes through the product's own entry point (the CLI command, the store, the
 * checkpoint writer), not through the helper directly, so what is tested is what ships. Each
 * case imports only its own modules: start-up is most of what a kill point costs.
 */
import { writeSync } from 'node:fs';

/** What the child is asked to do; the test builds one per case. */
export type KillJob =
  | { case: 'pack'; folders: [string, string]; out: string }
  | { case: 'unpack'; packs: [string, string]; folder: string }
  | { case: 'checkpoint'; source: string; runDir: string; steps: number }
  | { case: 'policy'; folder: string; key: string; dims: number }
  | { case: 'eval'; file: string; padBytes: number };

const job = JSON.parse(process.argv[2]) as KillJob;
const quiet = { out: () => {}, err: (line: string) => process.stderr.write(`${line}\n`) };
let announced = false;
const ready = () => {
  if (announced) return;
  announced = true;
  // Synchronous: the sync cases below never give the event loop a turn to flush stdout.
  writeSync(1, 'ready\n');
};

async function loop(): Promise<never> {
  for (let i = 0; ; i++) {
    const v = i % 2;
    switch (job.case) {
      case 'pack': {
        const { packCommand } = await import('../../cli/commands/pack');
        ready();
        const code = await packCommand.run([job.folders[1 - v], job.out, '--force'], quiet);
        if (code !== 0) throw new Error(`pack exited ${code}`);
        break;
      }
      case 'unpack': {
        const { unpackCommand } = await import('../../cli/commands/unpack');
        ready();
        const code = await unpackCommand.run([job.packs[1 - v], job.folder, '--force'], quiet);
        if (code !== 0) throw new Error(`unpack exited ${code}`);
        break;
      }
      case 'checkpoint': {
        // Steps 1..steps in turn, so both kinds of write happen: a new step, and a step
        // written again over its earlier copy.
        const { readCheckpoint, writeCheckpoint } = await import('../../engine/sim/checkpoint');
        const checkpoint = readCheckpoint(job.source, 0);
        ready();
        for (let k = 0; ; k++) {
          checkpoint.state.step = (k % job.steps) + 1;
          writeCheckpoint(job.runDir, checkpoint);
        }
      }
      case 'policy': {
        const { FilePolicyStore } = await import('../../engine/agent/policyStore');
        const store = new FilePolicyStore(job.folder);
        ready();
        for (let k = store.load(job.key).length; ; k++) {
          store.add(job.key, {
            id: `p${k}`,
            plan: `plan ${k}`,
            embedding: Array.from({ length: job.dims }, (_, d) => ((k + d) % 97) / 97),
            tasks: [],
            condition: [],
            storedAt: `day ${k}`,
          });
        }
      }
      case 'eval': {
        const { writeJsonAtomic } = await import('../../engine/eval/files');
        ready();
        writeJsonAtomic(job.file, { version: v, pad: String(v).repeat(job.padBytes) });
        break;
      }
    }
  }
}

loop().catch((error: unknown) => {
  process.stderr.write(`kill-writer: ${(error as Error).stack ?? String(error)}\n`);
  process.exit(3);
});
