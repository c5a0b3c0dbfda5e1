/**
 * The real llama.cpp server the model-server tests talk to (issue #24): built once, offline,
 * from the llama.cpp tree that PyPI's `llama-cpp-python` sdist vendors, and kept beside the test
 * models (main/models/testing/llama-server.ts). Only the `llama-server` target is built, without
 * curl, OpenSSL or the web UI, so the build needs cmake and a C++ compiler and nothing else.
 *
 * The folder is complete exactly when its stamp (the sdist, its vendored commit and the cmake
 * flags) is in it: the build is copied into a staging sibling, stamped there, and renamed into
 * place, so a killed build never leaves a folder that looks usable. A warm run reads the stamp
 * and runs `llama-server --version` (milliseconds).
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { cp, mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import {
  LLAMA_CPP_PYTHON_VERSION,
  llamaServerBinary,
  llamaServerDir,
} from '../../main/models/testing/llama-server.ts';
import { testModelsDir } from '../../main/models/testing/test-models.ts';
import { moveIntoPlace, sha256File, temporarySibling } from './cache.ts';
import { ProvisionError } from './errors.ts';
import { pipDownload } from './pip.ts';

/** The sdist built, pinned like the model wheels (catalog.ts). */
export const LLAMA_SERVER_SOURCE = {
  requirement: `llama-cpp-python==${LLAMA_CPP_PYTHON_VERSION}`,
  file: `llama_cpp_python-${LLAMA_CPP_PYTHON_VERSION}.tar.gz`,
  sha256: '832db0699007f1be95a7e41ef12e88926b02ba836461e36a36372db2760c1a2e',
  /** The vendored llama.cpp commit; `llama-server --version` names it. */
  commit: '0c1e570',
} as const;

/**
 * cmake configure flags: no network code (offline tests), no UI, and x86-64's AVX2 generation
 * of CPU code rather than this machine's own (`GGML_NATIVE`): on an Intel Xeon whose CPUID
 * lists AMX, a native build ran ggml's AMX kernels and the server died of SIGILL at its first
 * matrix product (`tilezero` in `tinygemm_kernel_amx`, under gdb) — the virtual machine does not
 * grant the AMX tile state. AVX2, FMA and F16C run on every x86-64 CPU of the last ten years.
 */
export const LLAMA_SERVER_CMAKE_FLAGS = [
  '-DLLAMA_CURL=OFF',
  '-DLLAMA_OPENSSL=OFF',
  '-DGGML_NATIVE=OFF',
  '-DGGML_AVX=ON',
  '-DGGML_AVX2=ON',
  '-DGGML_FMA=ON',
  '-DGGML_F16C=ON',
  '-DGGML_BMI2=ON',
  '-DLLAMA_BUILD_TESTS=OFF',
  '-DLLAMA_BUILD_EXAMPLES=OFF',
  '-DLLAMA_BUILD_UI=OFF',
  '-DLLAMA_USE_PREBUILT_UI=OFF',
  '-DCMAKE_BUILD_TYPE=Release',
] as const;

/** Inside the server folder; its presence marks the folder complete. */
export const LLAMA_SERVER_STAMP = '.built.json';

/** The full build output, kept where a failure's one line points. */
export const BUILD_LOG = 'llama-server-build.log';

interface BuildStamp {
  llamaCppPython: string;
  commit: string;
  flags: string[];
  /** `llama-server --version`'s first line. */
  version: string;
  /** 'built' by this script, or 'adopted': a folder found complete but unstamped. */
  origin: 'built' | 'adopted';
  at: string;
}

export type LlamaServerResult = 'cached' | 'adopted' | 'built';

/**
 * Makes sure `llamaServerDir(env)` holds a working llama-server of the pinned source and flags.
 * @throws ProvisionError (one line, naming the command or the log) when it cannot be built.
 */
export async function provisionLlamaServer(
  env: NodeJS.ProcessEnv,
  log: (line: string) => void,
): Promise<LlamaServerResult> {
  const dir = llamaServerDir(env);
  const binary = llamaServerBinary(env);
  const stamp = await readStamp(dir);
  if (stamp && stampMatches(stamp)) {
    const version = await serverVersion(binary);
    if (version?.includes(LLAMA_SERVER_SOURCE.commit)) {
      log(`✓ llama-server: cached (${version}; llama-cpp-python ${stamp.llamaCppPython})`);
      return 'cached';
    }
    log(`↻ llama-server: the stamped build no longer runs \`--version\`; rebuilding`);
  } else if (!stamp && existsSync(binary)) {
    // A folder built by hand before this script existed (the same sdist and flags): trusted
    // when its --version names the pinned commit, so it is not rebuilt for minutes.
    const version = await serverVersion(binary);
    if (version?.includes(LLAMA_SERVER_SOURCE.commit)) {
      await writeStamp(dir, version, 'adopted');
      log(`✓ llama-server: adopted the unstamped build in place (${version})`);
      return 'adopted';
    }
  }
  await buildLlamaServer(env, log);
  return 'built';
}

function stampMatches(stamp: BuildStamp): boolean {
  return (
    stamp.llamaCppPython === LLAMA_CPP_PYTHON_VERSION &&
    stamp.commit === LLAMA_SERVER_SOURCE.commit &&
    stamp.flags.join(' ') === LLAMA_SERVER_CMAKE_FLAGS.join(' ')
  );
}

async function readStamp(dir: string): Promise<BuildStamp | null> {
  try {
    return JSON.parse(await readFile(path.join(dir, LLAMA_SERVER_STAMP), 'utf8')) as BuildStamp;
  } catch {
    return null;
  }
}

async function writeStamp(dir: string, version: string, origin: BuildStamp['origin']) {
  const stamp: BuildStamp = {
    llamaCppPython: LLAMA_CPP_PYTHON_VERSION,
    commit: LLAMA_SERVER_SOURCE.commit,
    flags: [...LLAMA_SERVER_CMAKE_FLAGS],
    version,
    origin,
    at: new Date().toISOString(),
  };
  await writeFile(path.join(dir, LLAMA_SERVER_STAMP), `${JSON.stringify(stamp, null, 2)}\n`);
}

/** `llama-server --version`'s first line ("version: 0.5.0-dev (build 1, commit 0c1e570)"), or null. */
async function serverVersion(binary: string): Promise<string | null> {
  if (!existsSync(binary)) return null;
  // The .so files sit beside the binary; its RUNPATH finds them, LD_LIBRARY_PATH is a fallback.
  const env = { ...process.env, LD_LIBRARY_PATH: path.dirname(binary) };
  const result = await run(binary, ['--version'], { env });
  if (result === 'not-found' || result.code !== 0) return null;
  return /^version: .*$/m.exec(result.output)?.[0] ?? null;
}

/** Downloads the sdist, builds the target, stamps and moves the folder into place. */
async function buildLlamaServer(env: NodeJS.ProcessEnv, log: (line: string) => void) {
  await requireTool('cmake', env);
  if (!(await hasTool('c++', env)) && !(await hasTool('g++', env))) {
    throw new ProvisionError(
      'no C++ compiler on PATH (tried c++, g++): llama-server is built from source. Install one ' +
        '(Debian: apt-get install -y cmake g++) and run `npm run models:test` again.',
    );
  }
  const jobs = await idleCores();
  log(
    `↓ llama-server: not built; building it from ${LLAMA_SERVER_SOURCE.requirement}'s vendored ` +
      `llama.cpp (${LLAMA_SERVER_SOURCE.commit}) with ${jobs} job(s), once (4–35 min on 2 cores by machine; later ` +
      'runs take seconds)…',
  );
  const dir = llamaServerDir(env);
  const work = await mkdtemp(path.join(os.tmpdir(), 'simulacra-llama-server-'));
  const staged = temporarySibling(dir, 'staging');
  const buildLog = path.join(testModelsDir(env), BUILD_LOG);
  await mkdir(path.dirname(buildLog), { recursive: true });
  await writeFile(buildLog, ''); // this build's output only
  try {
    let started = performance.now();
    await pipDownload(LLAMA_SERVER_SOURCE.requirement, work, env, 'sdist');
    const sdist = path.join(work, LLAMA_SERVER_SOURCE.file);
    if (!existsSync(sdist)) {
      const wrote = (await readdir(work)).join(', ') || 'nothing';
      throw new ProvisionError(
        `\`pip download ${LLAMA_SERVER_SOURCE.requirement}\` wrote ${wrote}, expected ${LLAMA_SERVER_SOURCE.file}.`,
      );
    }
    const actual = await sha256File(sdist);
    if (actual !== LLAMA_SERVER_SOURCE.sha256) {
      throw new ProvisionError(
        `sha256 mismatch: ${LLAMA_SERVER_SOURCE.file} (from pip download) is ${actual}, pinned ${LLAMA_SERVER_SOURCE.sha256}.`,
      );
    }
    log(`  ${LLAMA_SERVER_SOURCE.file}: downloaded in ${since(started)}, sha256 matches its pin`);

    await step('tar', ['xzf', sdist, '-C', work], { cwd: work, env }, buildLog);
    const source = path.join(
      work,
      `llama_cpp_python-${LLAMA_CPP_PYTHON_VERSION}`,
      'vendor',
      'llama.cpp',
    );
    started = performance.now();
    await step(
      'cmake',
      ['-B', 'build', ...LLAMA_SERVER_CMAKE_FLAGS],
      { cwd: source, env },
      buildLog,
    );
    log(`  configured in ${since(started)}; compiling (progress every 10%)…`);
    started = performance.now();
    let lastDecile = 0;
    await step(
      'cmake',
      ['--build', 'build', '--target', 'llama-server', `-j${jobs}`],
      { cwd: source, env },
      buildLog,
      (line) => {
        const percent = /^\[\s*(\d+)%\]/.exec(line)?.[1];
        const decile = percent ? Math.floor(Number(percent) / 10) : 0;
        if (decile > lastDecile) {
          lastDecile = decile;
          log(`  ${percent}% after ${since(started)}`);
        }
      },
    );
    log(`  compiled in ${since(started)}`);

    await cp(path.join(source, 'build', 'bin'), staged, {
      recursive: true,
      verbatimSymlinks: true,
    });
    const version = await serverVersion(path.join(staged, 'llama-server'));
    if (!version) {
      throw new ProvisionError(
        `the llama-server just built does not run \`--version\` (${path.join(staged, 'llama-server')}); see ${buildLog}.`,
      );
    }
    await writeStamp(staged, version, 'built');
    await mkdir(path.dirname(dir), { recursive: true });
    await moveIntoPlace(staged, dir);
    log(`✓ llama-server: in place (${version}) → ${dir}`);
  } finally {
    await rm(work, { recursive: true, force: true });
    await rm(staged, { recursive: true, force: true });
  }
}

/**
 * Cores idle right now (a shared machine), at least one: CPU time sampled over one second.
 * Not the 1-minute load average: the provisioner runs right after `npm install` and its own
 * MiniLM conversion, whose load the average still carries, so on a quiet 2-core CI machine it
 * read 1.5 and the build ran on one job (33 min instead of about half that).
 */
export async function idleCores(sampleMs = 1000): Promise<number> {
  const idleAndTotal = () =>
    os
      .cpus()
      .reduce(
        ([idle, total], { times }) => [
          idle + times.idle,
          total + times.user + times.nice + times.sys + times.irq + times.idle,
        ],
        [0, 0],
      );
  const [idle0, total0] = idleAndTotal();
  await new Promise((resolve) => setTimeout(resolve, sampleMs));
  const [idle1, total1] = idleAndTotal();
  const cores = os.availableParallelism();
  const idleShare = total1 > total0 ? (idle1 - idle0) / (total1 - total0) : 1;
  return Math.max(1, Math.min(cores, Math.floor(idleShare * cores + 0.5)));
}

async function requireTool(tool: string, env: NodeJS.ProcessEnv): Promise<void> {
  if (await hasTool(tool, env)) return;
  throw new ProvisionError(
    `${tool} not found on PATH: llama-server is built from source. Install it (Debian: ` +
      'apt-get install -y cmake g++) and run `npm run models:test` again.',
  );
}

async function hasTool(tool: string, env: NodeJS.ProcessEnv): Promise<boolean> {
  const result = await run(tool, ['--version'], { env });
  return result !== 'not-found' && result.code === 0;
}

/**
 * One build command, its output appended to `buildLog`.
 * @throws ProvisionError naming the command, its first error line and the log.
 */
async function step(
  command: string,
  args: string[],
  options: { cwd: string; env: NodeJS.ProcessEnv },
  buildLog: string,
  onLine?: (line: string) => void,
): Promise<void> {
  const shown = `${command} ${args.join(' ')}`;
  const result = await run(command, args, options, onLine);
  const output = result === 'not-found' ? 'not found on PATH\n' : result.output;
  await writeFile(buildLog, `$ ${shown}  (in ${options.cwd})\n${output}\n`, { flag: 'a' });
  if (result === 'not-found') throw new ProvisionError(`\`${command}\` not found on PATH.`);
  if (result.code === 0) return;
  const lines = result.output.split('\n');
  const cause =
    lines.find((line) => /\berror\b|Error:|CMake Error/.test(line))?.trim() ??
    lines.filter((line) => line.trim()).pop() ??
    '';
  throw new ProvisionError(
    `\`${shown}\` failed (exit ${result.code}): ${cause.slice(0, 300)} (full output: ${buildLog}).`,
  );
}

function run(
  command: string,
  args: string[],
  options: { cwd?: string; env: NodeJS.ProcessEnv },
  onLine?: (line: string) => void,
): Promise<'not-found' | { code: number; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { ...options, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    let pending = '';
    const take = (chunk: Buffer) => {
      const text = chunk.toString();
      output += text;
      if (!onLine) return;
      pending += text;
      const lines = pending.split('\n');
      pending = lines.pop() ?? '';
      for (const line of lines) onLine(line);
    };
    child.stdout.on('data', take);
    child.stderr.on('data', take);
    child.once('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') resolve('not-found');
      else reject(new ProvisionError(`\`${command}\` could not start: ${error.message}`));
    });
    child.once('close', (code) => resolve({ code: code ?? 1, output }));
  });
}

function since(started: number): string {
  const seconds = (performance.now() - started) / 1000;
  return seconds >= 60
    ? `${Math.floor(seconds / 60)} min ${Math.round(seconds % 60)} s`
    : `${seconds.toFixed(1)} s`;
}
