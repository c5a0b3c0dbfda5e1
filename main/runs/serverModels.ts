/**
 * Runs whose model is on a server (issue #24). A run records `server:<id>/<model>`
 * (common/api/servers.ts); the server's address and settings are looked up in Settings' list at
 * each load, so a server moved to another address is found again by its id, and a change in its
 * settings reaches the next run. The key comes from main (serverKeysMessage.ts).
 *
 * Two failures are the person's to fix and are told as such (runFailure.ts gives the remedy):
 * a server no longer in Settings ({@link ServerMissingError}) and a server that stopped answering
 * in the middle of a run ({@link ServerGoneError}; the run resumes by itself when it is back,
 * serverWatch.ts).
 */
import { createHash } from 'node:crypto';
import {
  modelRefOf,
  parseServerModelRef,
  type ModelServer,
  type ServerModelChoice,
} from '../../common/api/servers';
import { loadSettingsSync } from '../api/settings';
import type { ServerConnection } from '../models/server';
import type { Embedder } from '../models/types';

/** What the simulation process knows of the servers now. */
export interface ServerAccess {
  /** Settings' list, read fresh (the person may have changed it since the process started). */
  servers(): readonly ModelServer[];
  /** The key main sent for `serverId`, if any. */
  key(serverId: string): string | undefined;
}

/** Settings' list from `settingsDir` (none without one: the CLI passes its own access). */
export function settingsServerAccess(
  settingsDir: string | undefined,
  key: (serverId: string) => string | undefined,
): ServerAccess {
  return {
    servers: () => (settingsDir ? loadSettingsSync(settingsDir).settings.modelServers : []),
    key,
  };
}

/** A run's two model strings (a file path, or `server:<id>/<model>`). */
export interface RunModels {
  chat: string;
  embedding: string;
}

/**
 * The model strings for a call's model fields (`runs.create`, `open`, `fork`,
 * `lab.createExperiment`); `base` (the run's own) fills what the call leaves out.
 */
export function chosenModels(
  input: {
    chatModelPath?: string | undefined;
    chatServer?: ServerModelChoice | undefined;
    embeddingModelPath?: string | undefined;
    embeddingServer?: ServerModelChoice | undefined;
  },
  base?: RunModels,
): RunModels {
  const chat = modelRefOf(input.chatModelPath, input.chatServer) ?? base?.chat;
  const embedding = modelRefOf(input.embeddingModelPath, input.embeddingServer) ?? base?.embedding;
  // The contract's refinement (modelChoiceCheck) requires both where there is no base.
  if (chat === undefined || embedding === undefined)
    throw new Error('a chat model and an embedding model are required');
  return { chat, embedding };
}

/** A model string names a server that Settings no longer lists. */
export class ServerMissingError extends Error {
  override name = 'ServerMissingError';
  constructor(
    readonly choice: ServerModelChoice,
    what: 'chat' | 'embedding',
  ) {
    super(
      `the ${what} model “${choice.model}” is on the model server “${choice.serverId}”, which is ` +
        'no longer in Settings › Model servers',
    );
  }
}

/** A run's server stopped answering (it was probed after the step failed). */
export class ServerGoneError extends Error {
  override name = 'ServerGoneError';
  constructor(
    readonly server: ModelServer,
    cause: unknown,
  ) {
    super(
      `the model server “${server.name}” at ${server.baseUrl} does not answer (${shortCause(cause)})`,
      { cause },
    );
  }
}

/**
 * The probe's own detail ("ECONNREFUSED", "401: Invalid API Key"): its whole message also says
 * what to do, which the failure's remedy says once already.
 */
function shortCause(cause: unknown): string {
  const message = cause instanceof Error ? cause.message : String(cause);
  const detail = /\(([^()]+)\)/.exec(message)?.[1];
  return detail ?? message.split(': ')[0]!;
}

/** A model on a server, resolved against Settings: what the providers need to reach it. */
export interface ResolvedServerModel {
  server: ModelServer;
  model: string;
  connection: ServerConnection;
}

/**
 * The server model `ref` names, or null for a file path.
 * @throws ServerMissingError when its server is not in Settings any more.
 */
export function resolveServerModel(
  ref: string,
  access: ServerAccess,
  what: 'chat' | 'embedding',
): ResolvedServerModel | null {
  const choice = parseServerModelRef(ref);
  if (!choice) return null;
  const server = access.servers().find((s) => s.id === choice.serverId);
  if (!server) throw new ServerMissingError(choice, what);
  const apiKey = access.key(server.id);
  return {
    server,
    model: choice.model,
    connection: { baseUrl: server.baseUrl, ...(apiKey !== undefined ? { apiKey } : {}) },
  };
}

/**
 * What a loaded server model depends on besides its name: the server's settings and its key
 * (hashed: the cache key never holds it). A change to either loads the model again.
 */
export function serverVariant(resolved: ResolvedServerModel): string {
  const { id, baseUrl, kind, contextTokens, timeoutSeconds, parallel } = resolved.server;
  const key = resolved.connection.apiKey;
  return JSON.stringify({
    id,
    baseUrl,
    kind,
    contextTokens,
    timeoutSeconds,
    parallel,
    key: key === undefined ? null : createHash('sha256').update(key).digest('hex').slice(0, 16),
  });
}

/** The servers `models` (a run's recorded strings) use, each once. */
export function serversOf(
  models: { chat: string; embedding: string },
  access: ServerAccess,
): ModelServer[] {
  const out: ModelServer[] = [];
  for (const ref of [models.chat, models.embedding]) {
    const choice = parseServerModelRef(ref);
    const server = choice && access.servers().find((s) => s.id === choice.serverId);
    if (server && !out.some((s) => s.id === server.id)) out.push(server);
  }
  return out;
}

/** Sentences whose vectors identify what an embedder computes (see {@link withBehaviourFingerprint}). */
const FINGERPRINT_TEXTS = [
  'Isabella is opening the cafe for the morning.',
  'Klaus is getting ready for the day.',
  'the stove is burning',
];

/**
 * A server's embedder has no files to hash, so the cost layer could not calibrate its similarity
 * thresholds (costLayerCalibration.ts keys them by fingerprint). It gets one from what it
 * computes instead: the sha256 of its vectors for three fixed sentences, to 3 decimals. The same
 * model gets the same fingerprint at any address (calibrated once per process, and its lifestyle
 * policies carry over between runs); another model gets another one.
 */
export async function withBehaviourFingerprint(embedder: Embedder): Promise<Embedder> {
  if (embedder.fingerprint !== undefined) return embedder;
  const vectors = await embedder.embed(FINGERPRINT_TEXTS);
  const hash = createHash('sha256');
  for (const v of vectors) hash.update(Array.from(v, (x) => x.toFixed(3)).join(','));
  const fingerprint = `sha256:${hash.digest('hex')}`;
  return {
    id: embedder.id,
    fingerprint,
    dimensions: embedder.dimensions,
    embed: (texts) => embedder.embed(texts),
    dispose: () => embedder.dispose(),
  };
}
