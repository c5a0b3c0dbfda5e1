/**
 * The serving side of a contract, transport-neutral: validates every input at the edge, runs
 * the handler, validates its output, and turns any failure into an error shape. Electron IPC
 * and the WebSocket host both call `dispatch`; neither knows any method by name.
 */
import type { Contract, Handlers, MethodSpec } from '../../common/api/contract';
import { ApiError, type CallResult } from '../../common/api/protocol';
import { ScenarioError, formatPath } from '../../common/scenario/errors';

/** A served contract: call `dispatch` for requests, `emit` to broadcast events. */
export interface ServedApi {
  dispatch(method: string, input: unknown): Promise<CallResult>;
  emit(event: string, payload: unknown): void;
  /** Registers a sink for emitted events (one per connected transport); returns unsubscribe. */
  onEvent(sink: (event: string, payload: unknown) => void): () => void;
}

/** Serves `handlers` under `contract`. */
export function serveApi<C extends Contract>(contract: C, handlers: Handlers<C>): ServedApi {
  const sinks = new Set<(event: string, payload: unknown) => void>();
  const methods = contract.methods as Record<string, MethodSpec>;
  const table = handlers as Record<string, (input: unknown) => Promise<unknown>>;
  return {
    async dispatch(method, input) {
      const spec = Object.hasOwn(methods, method) ? methods[method] : undefined;
      if (!spec) {
        return {
          ok: false,
          error: {
            code: 'unknown-method',
            name: 'ApiError',
            message: `unknown method "${method}"`,
          },
        };
      }
      const parsed = spec.input.safeParse(input);
      if (!parsed.success) {
        const issues = parsed.error.issues.map((i) => ({
          path: formatPath(i.path),
          message: i.message,
        }));
        return {
          ok: false,
          error: {
            code: 'invalid-input',
            name: 'ApiError',
            message: `${method}: ${issues.map((i) => (i.path ? `${i.path}: ${i.message}` : i.message)).join('; ')}`,
            issues,
          },
        };
      }
      try {
        const output = await table[method](parsed.data);
        const checked = spec.output.safeParse(output);
        if (!checked.success) {
          return {
            ok: false,
            error: {
              code: 'invalid-output',
              name: 'ApiError',
              message: `${method} answered outside its schema at ${formatPath(checked.error.issues[0]?.path ?? [])}`,
            },
          };
        }
        return { ok: true, output: checked.data };
      } catch (err) {
        return { ok: false, error: toErrorShape(err) };
      }
    },
    emit(event, payload) {
      const schema = (contract.events as Record<string, { parse(v: unknown): unknown }>)[event];
      if (!schema) throw new Error(`unknown event "${event}"`);
      const checked = schema.parse(payload);
      for (const sink of sinks) sink(event, checked);
    },
    onEvent(sink) {
      sinks.add(sink);
      return () => sinks.delete(sink);
    },
  };
}

/** Converts anything thrown by a handler into the wire error shape, keeping issues and file. */
export function toErrorShape(err: unknown): ApiErrorShapeOut {
  if (err instanceof ApiError) return err.toShape();
  if (err instanceof ScenarioError) {
    return {
      code: 'rejected',
      name: err.name,
      message: err.message,
      file: err.file,
      issues: err.issues,
    };
  }
  const e = err instanceof Error ? err : new Error(String(err));
  return { code: 'internal', name: e.name, message: e.message };
}
type ApiErrorShapeOut = Extract<CallResult, { ok: false }>['error'];
