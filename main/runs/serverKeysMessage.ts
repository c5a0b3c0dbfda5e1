/**
 * How the simulation process learns the model servers' API keys: main decrypts them (safeStorage
 * works only in main) and the broker sends the whole `{serverId: key}` map with one internal
 * call, before the first call it forwards to a fresh process and again after a key changes.
 * The method is served beside the sim contract but is not in it, so the window (whose calls the
 * broker forwards by the contract's names only) can never call it, and nothing answers a key back.
 * The simulation process keeps the map in memory only.
 */
import { z } from 'zod';
import type { Contract } from '../../common/api/contract';
import { serverIdSchema } from '../../common/api/servers';
import { simContract } from '../../common/api/studio';

export const SET_SERVER_KEYS = 'internal.setServerKeys';

export const internalMethods = {
  [SET_SERVER_KEYS]: {
    input: z.object({ keys: z.record(serverIdSchema, z.string().min(1).max(4096)) }),
    output: z.object({}),
  },
} as const;

/** What the simulation process serves to its parent: the sim contract and the internal call. */
export const simProcessContract = {
  methods: { ...simContract.methods, ...internalMethods },
  events: simContract.events,
} satisfies Contract;
export type SimProcessContract = typeof simProcessContract;

/** The keys as the simulation process holds them: replaced whole by each message. */
export class ServerKeyRing {
  private keys: Readonly<Record<string, string>> = {};

  /** The key for `serverId`, if main sent one. */
  get(serverId: string): string | undefined {
    return Object.hasOwn(this.keys, serverId) ? this.keys[serverId] : undefined;
  }

  replace(keys: Record<string, string>): void {
    this.keys = { ...keys };
  }
}
