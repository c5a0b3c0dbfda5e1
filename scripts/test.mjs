#!/usr/bin/env node
/**
 * `npm test`: typecheck → lint → format → Electron security lint (scripts/electron-security.mjs)
 * → unit (vitest) → e2e (Playwright, web mode in Chromium).
 * Every stage runs even when an earlier one fails, so one run shows everything that is wrong.
 * The last line is `N passed, N failed`, summing unit and e2e tests (CI reads it).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';

// Not test-results/: Playwright empties that folder when it starts.
const results = 'test-report';
mkdirSync(results, { recursive: true });
const env = { ...process.env, ELECTRON_SKIP_BINARY_DOWNLOAD: '1' };

function run(title, cmd, args, extraEnv = {}) {
  console.log(`\n━━ ${title} ━━ ${cmd} ${args.join(' ')}`);
  const r = spawnSync(cmd, args, { stdio: 'inherit', env: { ...env, ...extraEnv } });
  return r.status === 0;
}

function readJson(file) {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return null;
  }
}

const stages = [];
stages.push(['typecheck', run('typecheck', 'npx', ['tsc', '--noEmit', '-p', 'tsconfig.json'])]);
stages.push(['lint', run('lint', 'npx', ['eslint', '.'])]);
stages.push(['format', run('format', 'npx', ['prettier', '--check', '.'])]);
stages.push([
  'electron security',
  run('electron security lint (electronegativity, offline)', 'node', [
    'scripts/electron-security.mjs',
  ]),
]);

const unitJson = `${results}/unit.json`;
rmSync(unitJson, { force: true });
stages.push([
  'unit',
  run('unit tests', 'npx', [
    'vitest',
    'run',
    '--reporter=default',
    '--reporter=json',
    `--outputFile=${unitJson}`,
  ]),
]);
const unit = readJson(unitJson);
let passed = unit?.numPassedTests ?? 0;
let failed = unit ? unit.numFailedTests : 1;

const e2eJson = `${results}/e2e.json`;
rmSync(e2eJson, { force: true });
stages.push([
  'e2e',
  run('e2e (web mode, Chromium)', 'npx', ['playwright', 'test', '--reporter=list,json'], {
    PLAYWRIGHT_JSON_OUTPUT_NAME: e2eJson,
  }),
]);
const e2e = existsSync(e2eJson) ? readJson(e2eJson) : null;
if (e2e?.stats) {
  passed += e2e.stats.expected ?? 0;
  failed += (e2e.stats.unexpected ?? 0) + (e2e.stats.flaky ?? 0);
} else {
  failed += 1; // the e2e run did not even report: count it as a failure, never as a pass
}

const broken = stages.filter(([, ok]) => !ok).map(([name]) => name);
console.log(`\nstages: ${stages.map(([n, ok]) => `${n} ${ok ? 'ok' : 'FAILED'}`).join(', ')}`);
if (e2e?.stats?.skipped)
  console.log(`(${e2e.stats.skipped} e2e tests skipped; see their reasons above)`);
console.log(`${passed} passed, ${failed} failed`);
process.exit(broken.length === 0 && failed === 0 ? 0 : 1);
