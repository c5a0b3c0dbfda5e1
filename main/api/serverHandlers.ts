/**
 * `servers.test` and `servers.setKey` (issue #24): Settings › Model servers asks what answers at
 * an address (kind, models, slots, context) and saves API keys. The key used for a test is the
 * one typed in the form, else the one saved for that server; neither ever comes back.
 */
import type { Handlers } from '../../common/api/contract';
import { ApiError } from '../../common/api/protocol';
import { serversMethods } from '../../common/api/servers';
import { ModelError } from '../models/errors';
import { probeServer, type ServerConnection } from '../models/server';
import type { ServerKeyStore } from './serverKeys';

/** How long "Test connection" waits for a server before saying it does not answer. */
export const SERVER_TEST_TIMEOUT_MS = 20_000;

export interface ServerHandlerOptions {
  keys: ServerKeyStore;
  /** Injected for tests. */
  fetch?: typeof fetch;
  /** Stands in for {@link probeServer} (tests). */
  probe?: typeof probeServer;
}

export function createServerHandlers(
  opts: ServerHandlerOptions,
): Handlers<{ methods: typeof serversMethods; events: Record<never, never> }> {
  const probe = opts.probe ?? probeServer;
  return {
    'servers.test': async ({ baseUrl, apiKey, serverId }) => {
      const key = apiKey ?? (serverId !== undefined ? await opts.keys.get(serverId) : undefined);
      const conn: ServerConnection = {
        baseUrl,
        ...(key !== undefined ? { apiKey: key } : {}),
        ...(opts.fetch ? { fetch: opts.fetch } : {}),
      };
      try {
        return await probe(conn, AbortSignal.timeout(SERVER_TEST_TIMEOUT_MS));
      } catch (error) {
        throw new ApiError({
          code: 'rejected',
          name: (error as Error).name,
          message: testFailure(baseUrl, error),
        });
      }
    },
    'servers.setKey': async ({ serverId, apiKey }) => {
      try {
        await opts.keys.set(serverId, apiKey);
      } catch (error) {
        throw new ApiError({
          code: 'rejected',
          message: `apiKey: ${(error as Error).message}`,
          issues: [{ path: 'apiKey', message: (error as Error).message }],
        });
      }
      return { hasKey: apiKey !== null };
    },
  };
}

/** The probe's own message names the address and what to do; a bare failure gets both added. */
function testFailure(baseUrl: string, error: unknown): string {
  if (error instanceof ModelError) return error.message;
  const e = error as Error;
  if (e.name === 'TimeoutError' || e.name === 'AbortError')
    return (
      `${baseUrl} did not answer within ${SERVER_TEST_TIMEOUT_MS / 1000} s: check that the ` +
      'server is running and that the address (host, port, /v1) is right.'
    );
  return (
    `could not test ${baseUrl} (${e.message}): check that the server is running and that the ` +
    'address (host, port, /v1) is right.'
  );
}
