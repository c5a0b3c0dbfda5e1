#!/usr/bin/env node
/**
 * `npm run dist` (build installers) and `npm run dist:check` (validate electron-builder.yml and
 * the packaged file list without Electron's binary).
 *
 * dist:check packs an unpacked app with a stand-in executable as the "Electron distribution"
 * (electron-builder's `electronDist`), so nothing is downloaded; then it checks that the app
 * files, templates and native model runtimes are where the app loads them from, and that the
 * platform and GPU backends this target never uses were left out.
 */
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { createInterface } from 'node:readline';
import { downloadFailure, WAY_FORWARD } from './electron-download.mjs';

const check = process.argv.includes('--check');
const env = { ...process.env, ELECTRON_SKIP_BINARY_DOWNLOAD: '1' };

function run(cmd, args) {
  const r = spawnSync(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'], env, encoding: 'utf8' });
  return { ok: r.status === 0, output: `${r.stdout ?? ''}${r.stderr ?? ''}` };
}

const build = run('npx', ['electron-vite', 'build']);
if (!build.ok) {
  console.error(build.output);
  console.error('dist: the app did not build (see above).');
  process.exit(1);
}

if (!check) {
  const { code, failure } = await electronBuilder(process.argv.slice(2));
  if (code !== 0) {
    const cause = downloadFailure(failure);
    console.error(
      cause
        ? `\ndist: Electron's binary or electron-builder's packaging tools could not be downloaded (${cause}).\n` +
            `Building installers needs internet once (about 100 MB per target); offline, ` +
            `\`npm run dist:check\` validates the packaging.\n${WAY_FORWARD}`
        : `${failure}\ndist: electron-builder failed (see above).`,
    );
  }
  process.exit(code ?? 1);
}

/**
 * electron-builder with its output shown as it goes, up to its error mark (⨯): what follows is
 * a stack trace, kept to tell a failed download (one clear message) from any other failure.
 */
function electronBuilder(args) {
  const child = spawn('npx', ['electron-builder', ...args], {
    stdio: ['inherit', 'pipe', 'pipe'],
    env,
  });
  let failure = '';
  for (const [from, to] of [
    [child.stdout, process.stdout],
    [child.stderr, process.stderr],
  ]) {
    createInterface({ input: from }).on('line', (line) => {
      if (failure || line.includes('⨯')) failure += `${line}\n`;
      else to.write(`${line}\n`);
    });
  }
  return new Promise((done) => child.on('close', (code) => done({ code, failure })));
}

const fakeDist = mkdtempSync(join(tmpdir(), 'simulacra-electron-dist-'));
writeFileSync(join(fakeDist, 'electron'), '#!/bin/sh\necho "stand-in for dist:check"\n');
chmodSync(join(fakeDist, 'electron'), 0o755);
const outDir = mkdtempSync(join(tmpdir(), 'simulacra-dist-check-'));
const pack = run('npx', [
  'electron-builder',
  '--linux',
  'dir',
  `-c.electronDist=${fakeDist}`,
  `-c.directories.output=${outDir}`,
]);
const problems = [];
if (!pack.ok) problems.push(`electron-builder rejected the configuration:\n${pack.output}`);

const resources = join(outDir, 'linux-unpacked', 'resources');
const unpacked = join(resources, 'app.asar.unpacked', 'node_modules');
if (pack.ok) {
  const asar = createRequire(import.meta.url)('@electron/asar');
  const files = new Set(
    asar.listPackage(join(resources, 'app.asar')).map((f) => f.replaceAll('\\', '/')),
  );
  for (const f of [
    '/out/main/index.js',
    '/out/preload/index.cjs',
    '/out/renderer/index.html',
    '/package.json',
  ]) {
    if (!files.has(f)) problems.push(`app.asar lacks ${f}`);
  }
  for (const f of files) {
    if (f.startsWith('/node_modules/')) continue; // dependencies' own files are theirs to ship
    if (/\.(test|bench)\.ts$/.test(f) || /^\/(e2e|renderer|common|main|scripts)\//.test(f)) {
      problems.push(`app.asar ships a source or test file: ${f}`);
    }
  }
  for (const t of readdirSync('templates')) {
    if (!existsSync(join(resources, 'templates', t, 'manifest.json')))
      problems.push(`template ${t} is not in resources/templates`);
  }
  for (const m of ['node-llama-cpp', '@node-llama-cpp/linux-x64', 'onnxruntime-node/bin']) {
    if (!existsSync(join(unpacked, m)))
      problems.push(`native runtime ${m} is not unpacked from the asar`);
  }
  for (const m of ['@node-llama-cpp/linux-x64-cuda', '@node-llama-cpp/linux-x64-cuda-ext']) {
    if (existsSync(join(unpacked, m)))
      problems.push(`${m} should be excluded from the Linux build`);
  }
  const ort = join(unpacked, 'onnxruntime-node', 'bin');
  for (const napi of existsSync(ort) ? readdirSync(ort) : []) {
    for (const os of ['darwin', 'win32']) {
      if (existsSync(join(ort, napi, os)))
        problems.push(`onnxruntime-node ${os} binaries should be excluded on Linux`);
    }
  }
  const size = run('du', ['-sh', resources]).output.split('\t')[0];
  console.log(`dist:check: linux-unpacked resources ${size} (${files.size} files in app.asar)`);
}
rmSync(outDir, { recursive: true, force: true });
rmSync(fakeDist, { recursive: true, force: true });
if (problems.length) {
  for (const p of problems) console.error(`dist:check: ${p}`);
  process.exit(1);
}
console.log('dist:check: electron-builder.yml and the packaged file list are valid.');
