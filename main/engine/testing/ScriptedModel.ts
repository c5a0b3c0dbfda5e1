/**
 * Test doubles for engine tests (never a product path, ARCHITECTURE §6): a scripted language
 * model that answers each cognitive function with canned, schema-valid JSON, and a
 * bag-of-words hashing embedder. Both are deterministic.
 */
import type {
  CompletionRequest,
  CompletionResult,
  Embedder,
  JsonSchema,
  LanguageModel,
} from '../../models/types';

/** A canned answer: a value, or a function of the request and the n-th call of its function. */
export type Script = Record<string, (request: CompletionRequest<unknown>, n: number) => unknown>;

/**
 * The simplest value a JSON schema (the subset prompts/jsonSchema.ts emits) accepts: the first
 * enum value, a string of filler words at its minimum length, false, the minimum number of items.
 */
export function exampleFor(schema: JsonSchema): unknown {
  const s = schema as Record<string, unknown>;
  if (Array.isArray(s.enum)) return s.enum[0];
  switch (s.type) {
    case 'string': {
      const min = (s.minLength as number | undefined) ?? 0;
      const max = (s.maxLength as number | undefined) ?? 40;
      return 'fine '
        .repeat(Math.ceil(Math.max(min, 4) / 5))
        .slice(0, Math.max(min, Math.min(4, max)));
    }
    case 'boolean':
      return false;
    case 'array':
      if (Array.isArray(s.prefixItems)) return (s.prefixItems as JsonSchema[]).map(exampleFor);
      return Array.from({ length: (s.minItems as number | undefined) ?? 0 }, () =>
        exampleFor(s.items as JsonSchema),
      );
    case 'object':
      return Object.fromEntries(
        Object.entries(s.properties as Record<string, JsonSchema>).map(([k, v]) => [
          k,
          exampleFor(v),
        ]),
      );
    default:
      throw new Error(`exampleFor: unsupported schema ${JSON.stringify(schema)}`);
  }
}

/** The enum values a request's schema offers for field `key` (e.g. the action's locations). */
export function enumOf(request: CompletionRequest<unknown>, key: string): unknown[] {
  const field = fieldSchema(request.schema ?? {}, key);
  if (!field) throw new Error(`enumOf: the ${request.fn} schema has no field "${key}"`);
  return (field.enum as unknown[] | undefined) ?? [];
}

/**
 * The schema of the first field named `key`, depth first: an object's property, or a tuple's
 * item described by that name (prompts/jsonSchema.ts `tuple`).
 */
export function fieldSchema(schema: JsonSchema, key: string): Record<string, unknown> | undefined {
  const s = schema as Record<string, unknown>;
  const properties = (s.properties ?? {}) as Record<string, JsonSchema>;
  if (properties[key]) return properties[key] as Record<string, unknown>;
  const prefix = (s.prefixItems ?? []) as JsonSchema[];
  const described = prefix.find((item) => item.description === key);
  if (described) return described as Record<string, unknown>;
  const children = [...Object.values(properties), ...prefix, ...(s.items ? [s.items] : [])];
  for (const child of children) {
    const found = fieldSchema(child as JsonSchema, key);
    if (found) return found;
  }
  return undefined;
}

/** `answer` as a model writes it for `request` (its validator's `write`, when it has one). */
function writeAnswer(request: CompletionRequest<unknown>, answer: unknown): unknown {
  return request.validator?.write ? request.validator.write(answer) : answer;
}

/**
 * A language model that answers from a script keyed by function name, falling back to
 * {@link exampleFor}. Every answer goes through the request's validator, so a canned answer
 * that breaks the schema fails the test. `calls` keeps every request.
 */
export class ScriptedModel implements LanguageModel {
  readonly id = 'scripted';
  readonly calls: CompletionRequest<unknown>[] = [];
  private readonly counts = new Map<string, number>();

  constructor(private readonly script: Script = {}) {}

  /** Requests of one function, in call order. */
  callsOf(fn: string): CompletionRequest<unknown>[] {
    return this.calls.filter((c) => c.fn === fn);
  }

  async complete<T = unknown>(request: CompletionRequest<T>): Promise<CompletionResult<T>> {
    this.calls.push(request as CompletionRequest<unknown>);
    const n = this.counts.get(request.fn) ?? 0;
    this.counts.set(request.fn, n + 1);
    // A scripted answer is in the caller's terms; the fallback is already as a model writes it.
    const scripted = this.script[request.fn];
    const answer = scripted
      ? writeAnswer(request, scripted(request as CompletionRequest<unknown>, n))
      : exampleFor(request.schema ?? { type: 'string' });
    const json = request.validator ? request.validator.parse(answer) : (answer as T);
    const text = JSON.stringify(answer);
    const promptChars = request.messages.reduce((sum, m) => sum + m.content.length, 0);
    return {
      text,
      json,
      usage: {
        promptTokens: Math.ceil(promptChars / 4),
        cachedTokens: 0,
        completionTokens: Math.ceil(text.length / 4),
      },
      ms: 0,
      finishReason: 'stop',
    };
  }

  async dispose(): Promise<void> {}
}

/**
 * A deterministic embedder: each lower-cased word adds 1 to a hashed dimension, plus a constant
 * last dimension so no vector is zero; vectors are scaled to unit length. Texts sharing words
 * are more similar, which is all retrieval tests need.
 */
export class HashEmbedder implements Embedder {
  readonly id = 'hash-embedder';
  embedCalls = 0;

  constructor(readonly dimensions = 32) {}

  async embed(texts: string[]): Promise<Float32Array[]> {
    this.embedCalls++;
    return texts.map((text) => {
      const v = new Float32Array(this.dimensions);
      v[this.dimensions - 1] = 0.5;
      for (const word of text
        .toLowerCase()
        .split(/[^a-z0-9']+/)
        .filter(Boolean)) {
        let h = 2166136261;
        for (let i = 0; i < word.length; i++) h = Math.imul(h ^ word.charCodeAt(i), 16777619);
        v[(h >>> 0) % (this.dimensions - 1)] += 1;
      }
      const norm = Math.hypot(...v);
      return v.map((x) => x / norm);
    });
  }

  async dispose(): Promise<void> {}
}
