/**
 * The calling side of a contract over any transport: a typed proxy that validates outputs
 * and event payloads, and rethrows errors as ApiError.
 */
import type { ClientOf, Contract } from './contract';
import { ApiError, type CallResult } from './protocol';

/** What a transport must provide to carry calls and events. */
export interface ClientTransport {
  call(method: string, input: unknown): Promise<CallResult>;
  /** Subscribes to a named event; returns the unsubscribe function. */
  on(event: string, listener: (payload: unknown) => void): () => void;
}

/**
 * Builds the typed client for `contract` over `transport`.
 * @example const studio = createApiClient(studioContract, webSocketTransport(url));
 *          await studio.packs.export({ scenario });
 */
export function createApiClient<C extends Contract>(
  contract: C,
  transport: ClientTransport,
): ClientOf<C> {
  const groups: Record<string, Record<string, unknown>> = {};
  for (const [key, spec] of Object.entries(contract.methods)) {
    const [group, name] = key.split('.') as [string, string];
    (groups[group] ??= {})[name] = async (input: unknown) => {
      const result = await transport.call(key, input ?? {});
      if (!result.ok) throw new ApiError(result.error);
      const parsed = spec.output.safeParse(result.output);
      if (!parsed.success) {
        throw new ApiError({
          code: 'invalid-output',
          message: `${key} answered outside its schema: ${parsed.error.issues[0]?.message ?? ''}`,
        });
      }
      return parsed.data;
    };
  }
  for (const [key, schema] of Object.entries(contract.events)) {
    const [group, name] = key.split('.') as [string, string];
    (groups[group] ??= {})[name] = (listener: (payload: unknown) => void) =>
      transport.on(key, (payload) => {
        const parsed = schema.safeParse(payload);
        // A malformed event is dropped rather than handed to UI code that trusts its type.
        if (parsed.success) listener(parsed.data);
      });
  }
  return groups as ClientOf<C>;
}
