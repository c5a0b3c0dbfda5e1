#!/usr/bin/env node
/**
 * `npm run dist` (build installers) and `npm run dist:check` (validate electron-builder.yml and
 * the packaged file list without Electron's binary).
 *
 * dist:check packs an unpacked app with a stand-in executable as the "Electron distribution"
 * (electron-builder's `electronDist`), so nothing is downloaded; then it checks that the app
 * files, templates and native model runtimes are where the app loads them from, and that the
 * platform and GPU backends this target never uses were left out.
 *
 * Electron's fuses: electron-builder.yml must ask for exactly FUSES below. The stand-in carries
 * a fuse wire laid out as in Electron's binary (@electron/fuses' sentinel, version, length, one
 * byte per fuse, at Electron's defaults), so electron-builder's own flipping step runs on it and
 * the packed stand-in's wire is read back. What that cannot show: that a real Electron 45
 * binary's wire has the same layout, and what each fuse does at run time. After `npm run dist`
 * the same read-back runs on the real unpacked app(s) it finds in dist/.
 */
import { spawn, spawnSync } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { createInterface } from 'node:readline';
import { downloadFailure, WAY_FORWARD } from './electron-download.mjs';

const check = process.argv.includes('--check');
const env = { ...process.env, ELECTRON_SKIP_BINARY_DOWNLOAD: '1' };

// electron-builder's own copies of its YAML parser and of @electron/fuses.
const builderRequire = createRequire(createRequire(import.meta.url).resolve('app-builder-lib'));
const fuses = builderRequire('@electron/fuses');
const { SENTINEL, FuseState } = builderRequire('@electron/fuses/dist/constants');

/** The fuses electron-builder.yml must set (`electronFuses`), and nothing else. */
const FUSES = {
  runAsNode: true,
  enableCookieEncryption: true,
  enableNodeOptionsEnvironmentVariable: false,
  enableNodeCliInspectArguments: false,
  enableEmbeddedAsarIntegrityValidation: true,
  onlyLoadAppFromAsar: true,
  grantFileProtocolExtraPrivileges: false,
};
/** The wire, in order: config key, @electron/fuses index, state in Electron's own binary. */
const WIRE = [
  ['runAsNode', fuses.FuseV1Options.RunAsNode, true],
  ['enableCookieEncryption', fuses.FuseV1Options.EnableCookieEncryption, false],
  [
    'enableNodeOptionsEnvironmentVariable',
    fuses.FuseV1Options.EnableNodeOptionsEnvironmentVariable,
    true,
  ],
  ['enableNodeCliInspectArguments', fuses.FuseV1Options.EnableNodeCliInspectArguments, true],
  [
    'enableEmbeddedAsarIntegrityValidation',
    fuses.FuseV1Options.EnableEmbeddedAsarIntegrityValidation,
    false,
  ],
  ['onlyLoadAppFromAsar', fuses.FuseV1Options.OnlyLoadAppFromAsar, false],
  [
    'loadBrowserProcessSpecificV8Snapshot',
    fuses.FuseV1Options.LoadBrowserProcessSpecificV8Snapshot,
    false,
  ],
  ['grantFileProtocolExtraPrivileges', fuses.FuseV1Options.GrantFileProtocolExtraPrivileges, true],
];

/** Problems with electron-builder.yml's `electronFuses` (and the asar they rely on). */
function fuseConfigProblems() {
  const config = builderRequire('js-yaml').load(readFileSync('electron-builder.yml', 'utf8'));
  const asked = config?.electronFuses ?? {};
  const problems = [];
  for (const [key, value] of Object.entries(FUSES)) {
    if (asked[key] !== value)
      problems.push(`electronFuses.${key} must be ${value} (is ${asked[key]})`);
  }
  for (const key of Object.keys(asked)) {
    if (!(key in FUSES)) problems.push(`electronFuses.${key} is not in scripts/dist.mjs FUSES`);
  }
  if (config?.asar === false) problems.push('asar: false would leave onlyLoadAppFromAsar no app');
  return problems;
}

/** Problems with the fuse wire of a packed executable (or .app), read back from its bytes. */
async function fuseWireProblems(executable) {
  let wire;
  try {
    wire = await fuses.getCurrentFuseWire(executable);
  } catch (error) {
    return [`${executable}: no fuse wire (${error.message})`];
  }
  const problems = [];
  for (const [key, index, electronDefault] of WIRE) {
    const want = (FUSES[key] ?? electronDefault) ? FuseState.ENABLE : FuseState.DISABLE;
    if (wire[index] !== want) {
      problems.push(
        `${executable}: fuse ${key} is ${wire[index]}, expected ${want} (49 on, 48 off)`,
      );
    }
  }
  return problems;
}

/** The stand-in's wire: the sentinel, version 1, its length, and Electron's default states. */
function standInFuseWire() {
  const states = WIRE.map(([, , on]) => (on ? FuseState.ENABLE : FuseState.DISABLE));
  return Buffer.concat([
    Buffer.from(SENTINEL, 'latin1'),
    Buffer.from([Number(fuses.FuseVersion.V1), states.length, ...states]),
  ]);
}

function run(cmd, args) {
  const r = spawnSync(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'], env, encoding: 'utf8' });
  return { ok: r.status === 0, output: `${r.stdout ?? ''}${r.stderr ?? ''}` };
}

const configProblems = fuseConfigProblems();
if (configProblems.length) {
  for (const p of configProblems) console.error(`dist: electron-builder.yml: ${p}`);
  process.exit(1);
}

const build = run('npx', ['electron-vite', 'build']);
if (!build.ok) {
  console.error(build.output);
  console.error('dist: the app did not build (see above).');
  process.exit(1);
}

if (!check) {
  const started = Date.now();
  const { code, failure } = await electronBuilder(process.argv.slice(2));
  if (code === 0) {
    // The real binaries: read back the fuses electron-builder flipped in each unpacked app.
    const apps = builtApps('dist', started);
    const problems = (await Promise.all(apps.map(fuseWireProblems))).flat();
    for (const p of problems) console.error(`dist: ${p}`);
    if (problems.length) process.exit(1);
    console.log(
      apps.length
        ? `dist: fuses as electron-builder.yml asks in ${apps.join(', ')}`
        : 'dist: no unpacked app in dist/ to read the fuses back from',
    );
  } else {
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

/** The packaged executables (or .app bundles) this run of electron-builder left in `out`. */
function builtApps(out, since) {
  const found = [];
  for (const dir of existsSync(out) ? readdirSync(out) : []) {
    for (const name of ['simulacra-studio', 'Simulacra Studio.exe', 'Simulacra Studio.app']) {
      const app = join(out, dir, name);
      // Another platform's folder from an earlier build is not this build's.
      if (existsSync(app) && statSync(app).mtimeMs >= since - 2000) found.push(app);
    }
  }
  return found;
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
writeFileSync(
  join(fakeDist, 'electron'),
  Buffer.concat([
    Buffer.from('#!/bin/sh\necho "stand-in for dist:check"\nexit 0\n# fuse wire: '),
    standInFuseWire(),
    Buffer.from('\n'),
  ]),
);
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
  const executable = join(outDir, 'linux-unpacked', 'simulacra-studio');
  if (!pack.output.includes('executing @electron/fuses')) {
    problems.push('electron-builder did not run its fuse step (electronFuses)');
  }
  problems.push(...(await fuseWireProblems(executable)));
  const size = run('du', ['-sh', resources]).output.split('\t')[0];
  console.log(`dist:check: linux-unpacked resources ${size} (${files.size} files in app.asar)`);
}
rmSync(outDir, { recursive: true, force: true });
rmSync(fakeDist, { recursive: true, force: true });
if (problems.length) {
  for (const p of problems) console.error(`dist:check: ${p}`);
  process.exit(1);
}
console.log(
  'dist:check: electron-builder.yml, the packaged file list and the fuses flipped in the ' +
    `stand-in executable are valid (${Object.entries(FUSES)
      .map(([k, v]) => `${k} ${v ? 'on' : 'off'}`)
      .join(', ')}).`,
);
