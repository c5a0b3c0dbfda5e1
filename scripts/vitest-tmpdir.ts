/**
 * vitest globalSetup: every test's temporary folders (os.tmpdir(), in the workers and in the
 * processes they spawn) go under one folder made for this run and removed when it ends. Test
 * files make their folders with mkdtemp and most never remove them: one `npm test` left about
 * 200 folders (runs, labs, policy stores: ~200 MB) in /tmp, every run.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export default function setup(): () => void {
  const outer = process.env.TMPDIR;
  const root = mkdtempSync(path.join(os.tmpdir(), 'simulacra-vitest-'));
  process.env.TMPDIR = root;
  return () => {
    if (outer === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = outer;
    rmSync(root, { recursive: true, force: true, maxRetries: 3 });
  };
}
