/**
 * The Electron security lint (scripts/electron-security.mjs) on a small tree of its own: an
 * insecure window fails it, each finding can be justified in the allowlist, an entry that no
 * longer matches fails, a reason too short to review is refused, and no network is used.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';

const script = path.resolve(import.meta.dirname, 'electron-security.mjs');
let root: string;

const insecureWindow = `import { BrowserWindow } from 'electron';
export const win = new BrowserWindow({
  webPreferences: { nodeIntegration: true, contextIsolation: false, sandbox: false },
});
`;

function lint(allowlist: unknown[]) {
  writeFileSync(
    path.join(root, 'scripts/electron-security-allowlist.json'),
    JSON.stringify(allowlist),
  );
  const r = spawnSync(process.execPath, [script, '--root', root], { encoding: 'utf8' });
  return { code: r.status, out: r.stdout + r.stderr };
}

beforeAll(() => {
  root = mkdtempSync(path.join(os.tmpdir(), 'electron-security-'));
  mkdirSync(path.join(root, 'main/app'), { recursive: true });
  mkdirSync(path.join(root, 'preload'), { recursive: true });
  mkdirSync(path.join(root, 'scripts'), { recursive: true });
  writeFileSync(
    path.join(root, 'package.json'),
    JSON.stringify({ devDependencies: { electron: '45.4.1' } }),
  );
  writeFileSync(path.join(root, 'main/app/index.ts'), insecureWindow);
  writeFileSync(path.join(root, 'preload/index.ts'), 'export {};\n');
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

const reason = 'a reason long enough for a reviewer to check it against the code';

let first: ReturnType<typeof lint>;

it('fails on an insecure window and names each finding', { timeout: 60_000 }, () => {
  first = lint([]);
  const { code, out } = first;
  expect(code).toBe(1);
  for (const id of ['CONTEXT_ISOLATION_JS_CHECK', 'SANDBOX_JS_CHECK']) {
    expect(out).toMatch(new RegExp(`FINDING +${id} main/app/index.ts:\\d+:\\d+`));
  }
  // Whole-app checks: no navigation limits anywhere.
  expect(out).toMatch(/FINDING +LIMIT_NAVIGATION_GLOBAL_CHECK N\/A/);
  expect(out).toMatch(/\d+ unjustified.*network attempts blocked — FAILED/);
});

it(
  'passes when every finding is justified, and fails on a stale entry',
  { timeout: 60_000 },
  () => {
    const ids = [...first.out.matchAll(/FINDING +(\w+) (\S+)/g)].map(([, check, where]) => ({
      check,
      file: where.replace(/:\d+:\d+$/, ''),
      reason,
    }));
    const unique = ids.filter((e, i) => ids.findIndex((x) => x.check === e.check) === i);
    const ok = lint(unique);
    expect(ok.out).toMatch(/0 unjustified, 0 stale, 0 unparsed; \d+ network attempts blocked — ok/);
    expect(ok.code).toBe(0);

    const stale = lint([
      ...unique,
      { check: 'OPEN_EXTERNAL_JS_CHECK', file: 'main/app/index.ts', reason },
    ]);
    expect(stale.code).toBe(1);
    expect(stale.out).toMatch(
      /STALE .*OPEN_EXTERNAL_JS_CHECK main\/app\/index.ts matches no finding/,
    );
  },
);

it('refuses an allowlist entry without a reviewable reason', { timeout: 60_000 }, () => {
  const { code, out } = lint([
    { check: 'SANDBOX_JS_CHECK', file: 'main/app/index.ts', reason: 'ok' },
  ]);
  expect(code).toBe(1);
  expect(out).toMatch(/entry 0 \(SANDBOX_JS_CHECK\): the reason is too short to review/);
});
