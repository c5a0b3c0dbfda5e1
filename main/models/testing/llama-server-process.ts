/**
 * Starts and stops the real llama.cpp server (llama-server.ts finds the binary) on a loopback
 * port, for the tests and the bench that need a real model server. Test support only.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import net, { type AddressInfo } from 'node:net';
import path from 'node:path';
import { existsSync } from 'node:fs';
import { findLlamaServer } from './llama-server.ts';
import { PROVISION_COMMAND, realTestModelPaths } from './test-models.ts';

/** Options of {@link startLlamaServer}. */
export interface LlamaServerOptions {
  binary: string;
  /** The GGUF to serve. */
  model: string;
  /** The name `/v1/models` lists the model under (`--alias`); default: the GGUF's path. */
  alias?: string;
  /** Default: a free loopback port (give the old one to start a server again where a run expects it). */
  port?: number;
  /** Parallel slots (`-np`, default 4). */
  slots?: number;
  /** Total context (`-c`, default 8192): each slot gets context / slots. */
  context?: number;
  /** Threads (`-t`, default 1). */
  threads?: number;
  /** How long loading may take (default 60 s). */
  startTimeoutMs?: number;
}

/** A running llama-server. */
export interface LlamaServerProcess {
  /** `http://127.0.0.1:<port>/v1` */
  baseUrl: string;
  port: number;
  /** The model's name in `/v1/models`. */
  model: string;
  /** The command line, for messages and bench lines. */
  args: string[];
  /** The last lines it printed (for a failure's message). */
  log(): string;
  /** Kills it at once (SIGKILL), as a crash would. */
  kill(): Promise<void>;
  /** Starts it again on the same port, after {@link kill} or {@link stop}. */
  restart(): Promise<void>;
  /** Stops it (SIGTERM, then SIGKILL after 5 s). */
  stop(): Promise<void>;
}

/**
 * The binary and SmolLM2 when both are provisioned; else null, after printing loudly which
 * tests skip (`what`) and the command that provisions them.
 */
export function realLlamaServer(what: string): { binary: string; model: string } | null {
  const binary = findLlamaServer();
  const model = realTestModelPaths().llm;
  if (binary && existsSync(model)) return { binary, model };
  const missing = [binary ? null : 'the llama-server binary', existsSync(model) ? null : model]
    .filter(Boolean)
    .join(' and ');
  console.warn(
    `\n*** SKIPPING ${what}: ${missing} not provisioned. Run \`${PROVISION_COMMAND}\` to build ` +
      'llama-server and fetch the test models. ***\n',
  );
  return null;
}

/** A loopback port free right now. */
export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Starts llama-server and resolves once `/health` says the model is loaded. */
export async function startLlamaServer(options: LlamaServerOptions): Promise<LlamaServerProcess> {
  const port = options.port ?? (await freePort());
  const args = [
    '-m',
    options.model,
    '--host',
    '127.0.0.1',
    '--port',
    String(port),
    '-t',
    String(options.threads ?? 1),
    '-c',
    String(options.context ?? 8192),
    '-np',
    String(options.slots ?? 4),
    '--metrics',
    ...(options.alias ? ['--alias', options.alias] : []),
  ];
  const dir = path.dirname(options.binary);
  const lines: string[] = [];
  let child: ChildProcess | null = null;

  const launch = async () => {
    const proc = spawn(options.binary, args, {
      cwd: dir,
      env: {
        ...process.env,
        LD_LIBRARY_PATH: [dir, process.env.LD_LIBRARY_PATH].filter(Boolean).join(':'),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child = proc;
    const keep = (chunk: Buffer) => {
      lines.push(...chunk.toString().split('\n').filter(Boolean));
      lines.splice(0, Math.max(0, lines.length - 40));
    };
    proc.stdout?.on('data', keep);
    proc.stderr?.on('data', keep);
    const exited = new Promise<never>((_, reject) =>
      proc.once('exit', (code, signal) =>
        reject(
          new Error(`llama-server exited (${code ?? signal}) while starting:\n${lines.join('\n')}`),
        ),
      ),
    );
    exited.catch(() => {});
    const deadline = Date.now() + (options.startTimeoutMs ?? 60_000);
    while (Date.now() < deadline) {
      const healthy = await fetch(`http://127.0.0.1:${port}/health`)
        .then((r) => r.ok)
        .catch(() => false);
      if (healthy) return;
      await Promise.race([new Promise((r) => setTimeout(r, 200)), exited]);
    }
    proc.kill('SIGKILL');
    throw new Error(
      `llama-server did not load within ${options.startTimeoutMs ?? 60_000} ms:\n${lines.join('\n')}`,
    );
  };

  const end = async (signal: NodeJS.Signals) => {
    const proc = child;
    child = null;
    if (!proc || proc.exitCode !== null || proc.signalCode !== null) return;
    const gone = new Promise<void>((resolve) => proc.once('exit', () => resolve()));
    proc.kill(signal);
    const timer = setTimeout(() => proc.kill('SIGKILL'), 5000);
    await gone;
    clearTimeout(timer);
  };

  await launch();
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    port,
    model: options.alias ?? options.model,
    args,
    log: () => lines.join('\n'),
    kill: () => end('SIGKILL'),
    restart: launch,
    stop: () => end('SIGTERM'),
  };
}
