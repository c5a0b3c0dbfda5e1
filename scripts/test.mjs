#!/usr/bin/env node
/**
 * `npm test`: typecheck → lint → format → Electron security lint (scripts/electron-security.mjs)
 * → unit (vitest) → e2e (Playwright, web mode in Chromium).
 * Every stage runs even when an earlier one fails, so one run shows everything that is wrong.
 * The last line is `N passed, N failed`, summing unit and e2e tests (CI reads it).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { stripVTControlCharacters } from 'node:util';

// Not test-results/: Playwright empties that folder when it starts.
const results = 'test-report';
mkdirSync(results, { recursive: true });
const env = { ...process.env, ELECTRON_SKIP_BINARY_DOWNLOAD: '1' };

/** [name, ok, seconds]: the closing lines say how long each stage took, so CI shows where time went. */
const stages = [];
/** Runs one stage under its heading (`title`, the stage's name unless given) and records it. */
function stage(name, cmd, args, { title = name, extraEnv = {} } = {}) {
  console.log(`\n━━ ${title} ━━ ${cmd} ${args.join(' ')}`);
  const started = performance.now();
  const r = spawnSync(cmd, args, { stdio: 'inherit', env: { ...env, ...extraEnv } });
  stages.push([name, r.status === 0, Math.round((performance.now() - started) / 1000)]);
}

function readJson(file) {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return null;
  }
}

stage('typecheck', 'npx', ['tsc', '--noEmit', '-p', 'tsconfig.json']);
stage('lint', 'npx', ['eslint', '.']);
stage('format', 'npx', ['prettier', '--check', '.']);
stage('electron security', 'node', ['scripts/electron-security.mjs'], {
  title: 'electron security lint (electronegativity, offline)',
});

const unitJson = `${results}/unit.json`;
rmSync(unitJson, { force: true });
stage(
  'unit',
  'npx',
  ['vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile=${unitJson}`],
  {
    title: 'unit tests',
  },
);
const unit = readJson(unitJson);
let passed = unit?.numPassedTests ?? 0;
let failed = unit ? unit.numFailedTests : 1;

const e2eJson = `${results}/e2e.json`;
rmSync(e2eJson, { force: true });
stage('e2e', 'npx', ['playwright', 'test', '--reporter=list,json'], {
  title: 'e2e (web mode, Chromium)',
  extraEnv: { PLAYWRIGHT_JSON_OUTPUT_NAME: e2eJson },
});
const e2e = existsSync(e2eJson) ? readJson(e2eJson) : null;
if (e2e?.stats) {
  passed += e2e.stats.expected ?? 0;
  failed += (e2e.stats.unexpected ?? 0) + (e2e.stats.flaky ?? 0);
} else {
  failed += 1; // the e2e run did not even report: count it as a failure, never as a pass
}

// CI shows only the end of this output: name each failed test there, with its first error line.
const failures = [];
for (const file of unit?.testResults ?? []) {
  for (const t of file.assertionResults ?? []) {
    if (t.status === 'failed')
      failures.push(
        `unit ${file.name.replace(process.cwd() + '/', '')} › ${t.fullName}: ${firstLine(t.failureMessages)}`,
      );
  }
}
(function walk(suites) {
  for (const s of suites ?? []) {
    for (const spec of s.specs ?? []) {
      for (const t of spec.tests ?? []) {
        if (t.status === 'unexpected' || t.status === 'flaky') {
          const err = t.results?.find((r) => r.error)?.error?.message;
          failures.push(
            `e2e ${spec.file}:${spec.line} › ${spec.title} (${t.status}): ${firstLine([err])}`,
          );
        }
      }
    }
    walk(s.suites);
  }
})(e2e?.suites);

function firstLine(messages) {
  const text = (messages ?? []).find(Boolean) ?? '';
  // Colour codes would garble the CI page; the first line is the assertion that failed.
  const line =
    stripVTControlCharacters(text)
      .split('\n')
      .find((l) => l.trim()) ?? '';
  return line.trim().slice(0, 300);
}

const broken = stages.filter(([, ok]) => !ok).map(([name]) => name);
if (failures.length > 0)
  console.log(`\nfailed tests:\n${failures.map((f) => `  ✗ ${f}`).join('\n')}`);
console.log(
  `\nstages: ${stages.map(([n, ok, s]) => `${n} ${ok ? 'ok' : 'FAILED'} (${s} s)`).join(', ')}`,
);
if (e2e?.stats?.skipped)
  console.log(`(${e2e.stats.skipped} e2e tests skipped; see their reasons above)`);
console.log(`${passed} passed, ${failed} failed`);
process.exit(broken.length === 0 && failed === 0 ? 0 : 1);
