/**
 * Model servers (issue #24): an OpenAI-compatible server (llama.cpp's llama-server, Ollama,
 * LM Studio, vLLM, or any other) that runs the chat model, or the embeddings, instead of this
 * computer. Settings keeps the list ({@link modelServerSchema}); API keys are kept apart from
 * settings.json (Electron's safeStorage, or an owner-only file in web mode) and never cross back
 * to the window: it only learns whether a server has one.
 *
 * A run names its model by one string (`models.chat` in its record). A file is its path; a model
 * on a server is {@link serverModelRef}: `server:<server id>/<model name>`, so the run library,
 * the Lab and a resume all read one field, and a server whose address changes in Settings is
 * found again by its id.
 */
import { z } from 'zod';

/** What answers at a server's address, as detected by `servers.test`. */
export const serverKindSchema = z.enum(['llama.cpp', 'ollama', 'vllm', 'lmstudio', 'openai']);
export type ServerKind = z.infer<typeof serverKindSchema>;

/** How each kind is named to a person. */
export const SERVER_KIND_LABELS: Record<ServerKind, string> = {
  'llama.cpp': 'llama.cpp server',
  ollama: 'Ollama',
  vllm: 'vLLM',
  lmstudio: 'LM Studio',
  openai: 'OpenAI-compatible',
};

/** A server's id: one safe path segment, chosen by the studio when the server is added. */
export const serverIdSchema = z
  .string()
  .regex(/^[a-z0-9][a-z0-9-]{0,39}$/, 'expected a server id (lower-case letters, digits, -)');

/** The API root, version included (`http://127.0.0.1:8080/v1`). */
export const serverUrlSchema = z
  .string()
  .max(2048)
  .regex(/^https?:\/\/[^\s/?#]+(\/[^\s?#]*)?$/, 'expected an http:// or https:// address');

/** One model server as Settings keeps it. */
export const modelServerSchema = z.object({
  id: serverIdSchema,
  /** Shown in lists ("Lab GPU box"). */
  name: z.string().trim().min(1).max(80),
  baseUrl: serverUrlSchema,
  /** What the last successful `servers.test` found there; null before the first test. */
  kind: serverKindSchema.nullable().default(null),
  /**
   * Tokens a request may hold when the server does not say (Ollama without `num_ctx`, LM Studio,
   * a hosted API); null = what the server reports, else 4096.
   */
  contextTokens: z.number().int().min(256).max(1_048_576).nullable().default(null),
  /** Seconds one request may take; null = from its max tokens and the measured speed. */
  timeoutSeconds: z.number().int().min(5).max(3600).nullable().default(null),
  /** Requests in flight at once; null = the server's slots where it says, else 1. */
  parallel: z.number().int().min(1).max(64).nullable().default(null),
});
export type ModelServer = z.infer<typeof modelServerSchema>;

/** A model on a configured server, as runs and experiments are asked for it. */
export const serverModelChoiceSchema = z.object({
  serverId: serverIdSchema,
  /** The model's name as the server lists it in `/v1/models`. */
  model: z.string().trim().min(1).max(300),
});
export type ServerModelChoice = z.infer<typeof serverModelChoiceSchema>;

/** What `servers.test` found at an address. */
export const serverProbeSchema = z.object({
  kind: serverKindSchema,
  /** The server's own version string, where it gives one. */
  version: z.string().nullable(),
  /** `/v1/models`, in the server's order. */
  models: z.array(z.string()),
  /** Parallel slots (llama.cpp `/props`); null when the server does not say. */
  slots: z.number().int().positive().nullable(),
  /** Tokens per request (a llama.cpp slot, Ollama's `num_ctx`); null when the server does not say. */
  contextTokens: z.number().int().positive().nullable(),
  /** Milliseconds the probe took. */
  ms: z.number(),
});
export type ServerProbe = z.infer<typeof serverProbeSchema>;

const SERVER_REF_PREFIX = 'server:';

/** The one string a run records for a model on a server. */
export function serverModelRef(choice: ServerModelChoice): string {
  return `${SERVER_REF_PREFIX}${choice.serverId}/${choice.model}`;
}

/** The server and model a recorded model string names, or null for a file path. */
export function parseServerModelRef(ref: string): ServerModelChoice | null {
  if (!ref.startsWith(SERVER_REF_PREFIX)) return null;
  const rest = ref.slice(SERVER_REF_PREFIX.length);
  const slash = rest.indexOf('/');
  if (slash <= 0) return null;
  const parsed = serverModelChoiceSchema.safeParse({
    serverId: rest.slice(0, slash),
    model: rest.slice(slash + 1),
  });
  return parsed.success ? parsed.data : null;
}

/**
 * How a recorded model is named to a person: a file by its name, a server model as
 * "model on server name (host)". `servers` is Settings' list; a server since removed is named by
 * its id.
 */
export function describeModelRef(ref: string, servers: readonly ModelServer[]): string {
  const choice = parseServerModelRef(ref);
  if (!choice) return ref.split(/[\\/]/).pop() || ref;
  const server = servers.find((s) => s.id === choice.serverId);
  if (!server) return `${choice.model} on server “${choice.serverId}” (no longer in Settings)`;
  let host = server.baseUrl;
  try {
    host = new URL(server.baseUrl).host;
  } catch {
    // Settings' schema already holds baseUrl to an http(s) address; keep it whole if not.
  }
  return `${choice.model} on ${server.name} (${host})`;
}

export const serversMethods = {
  /**
   * Connects to `baseUrl` and reports what answers there: its kind, models, slots and context.
   * `apiKey` is tried when given, else the key saved for `serverId`. Fails with a message
   * naming the address and what to do (not running, wrong address, key refused).
   */
  'servers.test': {
    input: z.object({
      baseUrl: serverUrlSchema,
      apiKey: z.string().max(4096).optional(),
      serverId: serverIdSchema.optional(),
    }),
    output: serverProbeSchema,
  },
  /** Saves (or, with null, forgets) a server's API key. The key never comes back. */
  'servers.setKey': {
    input: z.object({ serverId: serverIdSchema, apiKey: z.string().min(1).max(4096).nullable() }),
    output: z.object({ hasKey: z.boolean() }),
  },
} as const;

/**
 * The model fields of `runs.create`, `runs.open`, `runs.fork` and `lab.createExperiment`: a file
 * (`chatModelPath`, `embeddingModelPath`) or a model on a server (`chatServer`,
 * `embeddingServer`), never both. Where a method requires a model, {@link requireModels} checks
 * one of each is given.
 */
export const modelChoiceFields = {
  /** A GGUF file (from models.local or models.useFromDisk). */
  chatModelPath: z.string().min(1).max(4096).optional(),
  /** A chat model on a server from Settings' list. */
  chatServer: serverModelChoiceSchema.optional(),
  /** An embedding model folder. */
  embeddingModelPath: z.string().min(1).max(4096).optional(),
  /** An embedding model on a server from Settings' list (`/v1/embeddings`). */
  embeddingServer: serverModelChoiceSchema.optional(),
};

interface ModelChoiceInput {
  chatModelPath?: string | undefined;
  chatServer?: ServerModelChoice | undefined;
  embeddingModelPath?: string | undefined;
  embeddingServer?: ServerModelChoice | undefined;
}

/** Refinement: at most one of file and server per model kind; with `required`, exactly one. */
export function modelChoiceCheck(required: boolean) {
  return (value: ModelChoiceInput, ctx: z.RefinementCtx): void => {
    const pairs = [
      ['chatModelPath', 'chatServer', 'a chat model: a .gguf file or a model on a server'],
      [
        'embeddingModelPath',
        'embeddingServer',
        'an embedding model: a model folder or a model on a server',
      ],
    ] as const;
    for (const [file, server, what] of pairs) {
      const given = (value[file] !== undefined ? 1 : 0) + (value[server] !== undefined ? 1 : 0);
      if (given > 1)
        ctx.addIssue({
          code: 'custom',
          path: [server],
          message: `choose one of ${what}, not both`,
        });
      else if (required && given === 0)
        ctx.addIssue({ code: 'custom', path: [file], message: `choose ${what}` });
    }
  };
}

/** The one model string a run records for a choice (a path, or {@link serverModelRef}). */
export function modelRefOf(path: string | undefined, server: ServerModelChoice | undefined) {
  return server ? serverModelRef(server) : path;
}
