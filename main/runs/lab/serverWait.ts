/**
 * An experiment whose model server went away (issue #24), as a run's does (../serverWatch.ts):
 * when it stops for a reason other than a cancel, its servers are asked whether they answer; the
 * first that does not becomes the experiment's message (what happened and what to do), and the
 * Lab waits for it with a ServerWatch and starts the experiment again when it answers — which
 * resumes it (finished cells are skipped, the unfinished cell resumes from its last snapshot).
 *
 * The wait does not hold the Lab's job slot: the experiment is listed as incomplete with the
 * message, and the person may start another experiment or a run meanwhile (which ends the wait).
 */
import type { ModelServer } from '../../../common/api/servers';
import { firstGone, type RunServers } from '../serverWatch';
import { serversOf, type ServerGoneError } from '../serverModels';
import type { LabFile } from './labFile';

/** The servers an experiment's models use (its own two and its conditions' chat models), each once. */
export function experimentServers(lab: LabFile, servers: RunServers): ModelServer[] {
  const out: ModelServer[] = [];
  const refs = [lab.models, ...lab.conditions.map((c) => ({ ...lab.models, chat: c.model ?? '' }))];
  for (const models of refs) {
    for (const server of serversOf(models, servers.access)) {
      if (!out.some((s) => s.id === server.id)) out.push(server);
    }
  }
  return out;
}

/** The first of the experiment's servers that does not answer now; else null. */
export function goneServerOf(lab: LabFile, servers: RunServers): Promise<ServerGoneError | null> {
  return firstGone(experimentServers(lab, servers), servers);
}

/** The experiment's message while it waits. */
export function waitingMessage(gone: ServerGoneError): string {
  return (
    `waiting: ${gone.message} — Start the server at ${gone.server.baseUrl}, or change its ` +
    'address in Settings › Model servers; the experiment resumes by itself when the server answers'
  );
}

/** The experiment's message once the wait ended without a resume (`why`: what ended it). */
export function waitEndedMessage(gone: ServerGoneError, why: string): string {
  return (
    `stopped: ${gone.message}, and the Lab stopped waiting for it (${why}) — ` +
    `start the server at ${gone.server.baseUrl}, then start the experiment again to resume it`
  );
}
