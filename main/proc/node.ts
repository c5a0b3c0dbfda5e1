/**
 * Node's side of process isolation (web mode, the CLI and tests): `child_process.fork` as a
 * ProcessPort in the parent, and `process.send` as the ParentPort in the child. Electron uses
 * utilityProcess instead (main/app), with the same channel on top.
 */
import { fork, type ChildProcess } from 'node:child_process';
import type { ParentPort, ProcessExit, ProcessPort } from './channel';

export interface ForkOptions {
  /** Extra Node flags, e.g. `['--import', 'tsx']` to run a TypeScript entry. */
  execArgv?: string[];
  env?: NodeJS.ProcessEnv;
  /** Cap on the child's V8 heap in MiB, so a runaway simulation fails alone. */
  maxOldSpaceMiB?: number;
}

/** Forks `entry` with an IPC channel and wraps it as a ProcessPort. */
export function forkProcess(entry: string, opts: ForkOptions = {}): ProcessPort {
  const execArgv = [...(opts.execArgv ?? [])];
  if (opts.maxOldSpaceMiB) execArgv.push(`--max-old-space-size=${opts.maxOldSpaceMiB}`);
  const child: ChildProcess = fork(entry, [], {
    execArgv,
    env: opts.env ?? process.env,
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    serialization: 'advanced', // structured clone: typed arrays cross without base64
  });
  let exit: ProcessExit | null = null;
  const exitListeners: Array<(e: ProcessExit) => void> = [];
  child.once('exit', (code, signal) => {
    exit = { code, signal };
    exitListeners.forEach((l) => l(exit!));
  });
  child.on('error', () => undefined); // reported through 'exit'
  return {
    get pid() {
      return child.pid;
    },
    postMessage(message) {
      if (child.connected) child.send(message as object);
    },
    onMessage(listener) {
      child.on('message', listener);
    },
    onExit(listener) {
      if (exit) listener(exit);
      else exitListeners.push(listener);
    },
    kill() {
      child.kill('SIGKILL');
    },
  };
}

/** In a forked child: the parent, as a ParentPort. */
export function nodeParentPort(): ParentPort {
  if (!process.send) throw new Error('this process was not forked with an IPC channel');
  return {
    postMessage: (message) => process.send?.(message as object),
    onMessage: (listener) => process.on('message', listener),
  };
}

/** Electron's utility-process global, present only there. */
interface ElectronParentPort {
  postMessage(message: unknown): void;
  on(event: 'message', listener: (e: { data: unknown }) => void): void;
}

/**
 * The parent of this process, whichever way it was started: Electron's `process.parentPort`
 * in a utilityProcess, else Node's IPC channel.
 */
export function parentPortOfThisProcess(): ParentPort {
  const electronPort = (process as { parentPort?: ElectronParentPort }).parentPort;
  if (electronPort) {
    return {
      postMessage: (message) => electronPort.postMessage(message),
      onMessage: (listener) => electronPort.on('message', (e) => listener(e.data)),
    };
  }
  return nodeParentPort();
}
