/**
 * Electron's side of process isolation: a utilityProcess as a ProcessPort. Same channel as
 * web mode's forked Node child (main/proc/node.ts), so the simulation service cannot tell them
 * apart.
 */
import { utilityProcess } from 'electron';
import type { ProcessExit, ProcessPort } from '../proc/channel';

/** Starts `entry` (a built JS file) in a utility process. */
export function forkUtilityProcess(
  entry: string,
  opts: { maxOldSpaceMiB?: number; env?: NodeJS.ProcessEnv } = {},
): ProcessPort {
  const child = utilityProcess.fork(entry, [], {
    serviceName: 'Simulacra simulation',
    stdio: 'inherit',
    execArgv: opts.maxOldSpaceMiB ? [`--max-old-space-size=${opts.maxOldSpaceMiB}`] : [],
    ...(opts.env ? { env: opts.env } : {}),
  });
  let exit: ProcessExit | null = null;
  const exitListeners: Array<(e: ProcessExit) => void> = [];
  child.once('exit', (code) => {
    // utilityProcess reports only a code; a crash or kill shows as a non-zero code.
    exit = { code, signal: null };
    exitListeners.forEach((l) => l(exit!));
  });
  return {
    get pid() {
      return child.pid;
    },
    postMessage: (message) => child.postMessage(message),
    onMessage: (listener) => child.on('message', listener),
    onExit(listener) {
      if (exit) listener(exit);
      else exitListeners.push(listener);
    },
    kill: () => void child.kill(),
  };
}
