#!/usr/bin/env node
/**
 * `npm test`'s Electron security lint: Doyensec's electronegativity over the main-process and
 * preload sources (main/, preload/), offline.
 *
 * - Every finding must be justified in scripts/electron-security-allowlist.json (check id, file,
 *   and a reason a reviewer can check); anything else fails. An allowlist entry that matches no
 *   finding fails too, so the list cannot go stale and hide a future finding.
 * - A file the linter cannot parse fails: an unparsed file is an unchecked file.
 * - No network: electronegativity fetches translations on start and Electron's release list in
 *   one check. Sockets and DNS are blocked in this process before it loads, the release check
 *   is left out (the Electron version is pinned in package.json and moves by review), and the
 *   blocked attempts are counted in the summary line.
 *
 * Exit 0 when every finding is justified, 1 otherwise.
 * Usage: node scripts/electron-security.mjs [--root <repo>]
 */
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import dns from 'node:dns';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';

// `--root <dir>` scans another tree laid out like this one (the script's own tests use it).
const rootFlag = process.argv.indexOf('--root');
const root = path.resolve(
  rootFlag > 0 ? process.argv[rootFlag + 1] : path.join(import.meta.dirname, '..'),
);
const ALLOWLIST = 'scripts/electron-security-allowlist.json';
const SCANNED = ['main', 'preload'];
/** Needs the network (Electron's release list); the pinned version is reviewed instead. */
const EXCLUDED_CHECKS = ['AvailableSecurityFixesGlobalCheck'];

// 1. Block the network before electronegativity (and its `got`) is loaded.
const blocked = [];
const refuse = (what) => {
  blocked.push(what);
  return new Error(`electron-security: network access blocked (${what})`);
};
net.Socket.prototype.connect = function connect(...args) {
  const target = typeof args[0] === 'object' ? (args[0].host ?? args[0].path) : args[1];
  throw refuse(`connect ${target ?? '?'}`);
};
dns.lookup = (host, _opts, cb) => {
  const callback = typeof _opts === 'function' ? _opts : cb;
  process.nextTick(() => callback(refuse(`dns ${host}`)));
};

// Its own notice for the blocked translation download; the summary line counts it instead.
const log = console.log;
console.log = (...args) => {
  if (!String(args[0]).startsWith('Could not retrieve updated translations')) log(...args);
};

// 2. Load the allowlist and check its shape.
function readAllowlist() {
  const file = path.join(root, ALLOWLIST);
  let entries;
  try {
    entries = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new Error(`${ALLOWLIST}: not readable JSON (${error.message})`);
  }
  if (!Array.isArray(entries)) throw new Error(`${ALLOWLIST}: expected an array of entries`);
  entries.forEach((e, i) => {
    for (const key of ['check', 'file', 'reason']) {
      if (typeof e?.[key] !== 'string' || e[key].trim() === '') {
        throw new Error(`${ALLOWLIST}: entry ${i}: "${key}" must be a non-empty string`);
      }
    }
    if (e.reason.trim().length < 30) {
      throw new Error(`${ALLOWLIST}: entry ${i} (${e.check}): the reason is too short to review`);
    }
  });
  return entries;
}

// 3. Scan a copy of main/ and preload/ together (global checks need both sides at once).
async function scan() {
  const require = createRequire(import.meta.url);
  const run = require('@doyensec/electronegativity/dist/runner.js');
  const electron = JSON.parse(
    readFileSync(path.join(root, 'package.json'), 'utf8'),
  ).devDependencies.electron.replace(/^[\^~]/, '');
  const dir = mkdtempSync(path.join(tmpdir(), 'electron-security-'));
  try {
    for (const sub of SCANNED)
      cpSync(path.join(root, sub), path.join(dir, sub), { recursive: true });
    // Its translations are picked by LANG; the bundled English ones need no download.
    process.env.LANG = 'en-US';
    const result = await run({
      input: dir,
      isRelative: true,
      electronVersionOverride: electron,
      excludeFromScan: EXCLUDED_CHECKS,
    });
    return { ...result, electron };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const where = (issue) =>
  issue.file === 'N/A' ? 'N/A' : `${issue.file}:${issue.location.line}:${issue.location.column}`;

async function main() {
  const allowlist = readAllowlist();
  const { issues, errors, atomicChecks, globalChecks, electron } = await scan();
  const used = new Set();
  const unjustified = [];
  for (const issue of issues) {
    const i = allowlist.findIndex((e) => e.check === issue.id && e.file === issue.file);
    if (i === -1) unjustified.push(issue);
    else used.add(i);
  }
  const stale = allowlist.filter((_, i) => !used.has(i));

  for (const issue of issues) {
    const ok = !unjustified.includes(issue);
    console.log(
      `  ${ok ? 'justified ' : 'FINDING   '} ${issue.id} ${where(issue)} ` +
        `(${issue.severity.name}/${issue.confidence.name})${ok ? '' : `: ${issue.description}`}`,
    );
  }
  for (const e of stale) {
    console.log(`  STALE      ${ALLOWLIST}: ${e.check} ${e.file} matches no finding; remove it`);
  }
  for (const e of errors) {
    console.log(`  UNPARSED   ${e.file ?? '?'}: ${e.message ?? e.error ?? JSON.stringify(e)}`);
  }
  const failed = unjustified.length + stale.length + errors.length;
  console.log(
    `electronegativity (Electron ${electron}, ${atomicChecks} atomic + ${globalChecks} global ` +
      `checks over ${SCANNED.join('/, ')}/): ${issues.length} findings, ` +
      `${issues.length - unjustified.length} justified in ${ALLOWLIST}, ` +
      `${unjustified.length} unjustified, ${stale.length} stale, ${errors.length} unparsed; ` +
      `${blocked.length} network attempts blocked` +
      (failed ? ' — FAILED' : ' — ok'),
  );
  process.exit(failed ? 1 : 0);
}

main().catch((error) => {
  console.error(`electron-security: ${error.message}`);
  process.exit(1);
});
