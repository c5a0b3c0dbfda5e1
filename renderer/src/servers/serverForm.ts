/**
 * The model-server editor's draft (Settings › Model servers): what its inputs hold, as text,
 * turned into a {@link ModelServer} with the contract's own rules, and the id a new server gets
 * (a slug of its name, unique in the list). Pure, so the refusals are tested without a window.
 */
import {
  modelServerSchema,
  type ModelServer,
  type ServerKind,
  type ServerProbe,
} from '../../../common/api/servers';

export interface ServerDraft {
  /** The server's id once it is in the list; null while it is being added. */
  id: string | null;
  name: string;
  baseUrl: string;
  /** A key typed now; '' = keep what is saved (or none). Never filled from a saved key. */
  apiKey: string;
  /** The saved key is to be forgotten on Save. */
  removeKey: boolean;
  contextTokens: string;
  timeoutSeconds: string;
  parallel: string;
  /** What the last successful test found at this address; null when untested. */
  kind: ServerKind | null;
}

export type ServerDraftErrors = Partial<
  Record<'name' | 'baseUrl' | 'contextTokens' | 'timeoutSeconds' | 'parallel', string>
>;

const MAX_ID = 40;

/**
 * A new server's id: its name in lower-case letters, digits and "-" ("Lab GPU box" →
 * "lab-gpu-box"), with "-2", "-3", … when the list already has it. Runs record the id, so a
 * server removed and added again under the same name is found by its old runs.
 */
export function serverIdFor(name: string, taken: readonly string[]): string {
  const slug =
    name
      .normalize('NFKD')
      .replace(/[\u0300-\u036f]/g, '')
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, MAX_ID)
      .replace(/-+$/, '') || 'server';
  const used = new Set(taken);
  if (!used.has(slug)) return slug;
  for (let n = 2; ; n++) {
    const suffix = `-${n}`;
    const id = `${slug.slice(0, MAX_ID - suffix.length).replace(/-+$/, '')}${suffix}`;
    if (!used.has(id)) return id;
  }
}

export function emptyServerDraft(): ServerDraft {
  return {
    id: null,
    name: '',
    baseUrl: '',
    apiKey: '',
    removeKey: false,
    contextTokens: '',
    timeoutSeconds: '',
    parallel: '',
    kind: null,
  };
}

export function toServerDraft(server: ModelServer): ServerDraft {
  const text = (n: number | null) => (n === null ? '' : String(n));
  return {
    id: server.id,
    name: server.name,
    baseUrl: server.baseUrl,
    apiKey: '',
    removeKey: false,
    contextTokens: text(server.contextTokens),
    timeoutSeconds: text(server.timeoutSeconds),
    parallel: text(server.parallel),
    kind: server.kind,
  };
}

/** The address as the server is asked at: trimmed, without a trailing "/". */
export function normalizeBaseUrl(text: string): string {
  return text.trim().replace(/\/+$/, '');
}

/** Why an address cannot be a server's API root, with the address it probably means; null if fine. */
export function baseUrlRefusal(text: string): string | null {
  const url = normalizeBaseUrl(text);
  if (url === '') return 'the server’s address, e.g. http://127.0.0.1:8080/v1';
  if (!/^https?:\/\//i.test(url))
    return `start with http:// or https:// (e.g. http://${url.replace(/^[a-z]+:\/*/i, '')})`;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return `${url} is not an address: expected e.g. http://127.0.0.1:8080/v1`;
  }
  if (parsed.search || parsed.hash)
    return 'the API root only, without “?” or “#” (e.g. http://127.0.0.1:8080/v1)';
  // Every kind the studio knows answers OpenAI requests under a path ending in /v1.
  if (parsed.pathname === '/' || parsed.pathname === '')
    return `add the API path: ${url}/v1 (llama-server, Ollama, LM Studio and vLLM all answer there)`;
  return null;
}

function optionalInt(
  text: string,
  min: number,
  max: number,
  what: string,
): { value: number | null; error?: string } {
  if (text.trim() === '') return { value: null };
  const n = Number(text.trim());
  if (!Number.isInteger(n) || n < min || n > max)
    return {
      value: null,
      error: `${what}: a whole number from ${min.toLocaleString('en-US')} to ${max.toLocaleString('en-US')}, or empty for automatic`,
    };
  return { value: n };
}

/**
 * The server the draft describes, to replace its entry in `servers` (or be added), or what is
 * wrong with each field. A new server gets {@link serverIdFor} its name.
 */
export function fromServerDraft(
  draft: ServerDraft,
  servers: readonly ModelServer[],
): { ok: true; server: ModelServer } | { ok: false; errors: ServerDraftErrors } {
  const errors: ServerDraftErrors = {};
  const others = servers.filter((s) => s.id !== draft.id);
  const name = draft.name.trim();
  if (name === '') errors.name = 'a name for the list, e.g. “Lab GPU box”';
  else if (name.length > 80) errors.name = 'at most 80 characters';
  else if (others.some((s) => s.name.trim().toLowerCase() === name.toLowerCase()))
    errors.name = `another server is named “${name}”: pick a name the lists can tell apart`;
  const urlRefusal = baseUrlRefusal(draft.baseUrl);
  if (urlRefusal) errors.baseUrl = urlRefusal;
  const context = optionalInt(draft.contextTokens, 256, 1_048_576, 'Context');
  const timeout = optionalInt(draft.timeoutSeconds, 5, 3600, 'Timeout');
  const parallel = optionalInt(draft.parallel, 1, 64, 'Parallel requests');
  if (context.error) errors.contextTokens = context.error;
  if (timeout.error) errors.timeoutSeconds = timeout.error;
  if (parallel.error) errors.parallel = parallel.error;
  if (Object.keys(errors).length > 0) return { ok: false, errors };
  const id =
    draft.id ??
    serverIdFor(
      name,
      others.map((s) => s.id),
    );
  const parsed = modelServerSchema.safeParse({
    id,
    name,
    baseUrl: normalizeBaseUrl(draft.baseUrl),
    kind: draft.kind,
    contextTokens: context.value,
    timeoutSeconds: timeout.value,
    parallel: parallel.value,
  });
  if (!parsed.success) {
    // The checks above mirror the schema; whatever slips through is still said by its field.
    for (const issue of parsed.error.issues) {
      const key = (issue.path[0] === 'id' ? 'name' : issue.path[0]) as keyof ServerDraftErrors;
      errors[key] ??= issue.message;
    }
    return { ok: false, errors };
  }
  return { ok: true, server: parsed.data };
}

/** "127.0.0.1:8080", the part of an address people recognise; the whole text if unparsable. */
export function hostOf(baseUrl: string): string {
  try {
    return new URL(baseUrl).host;
  } catch {
    return baseUrl;
  }
}

/** What a test found beside the kind: "4 slots · 2,048 tokens a request · answered in 12 ms". */
export function probeFacts(probe: ServerProbe): string {
  const parts = [
    probe.slots === null
      ? 'slots not reported'
      : `${probe.slots} slot${probe.slots === 1 ? '' : 's'}`,
    probe.contextTokens === null
      ? 'context not reported'
      : `${probe.contextTokens.toLocaleString('en-US')} tokens a request`,
    `answered in ${Math.round(probe.ms).toLocaleString('en-US')} ms`,
  ];
  return parts.join(' · ');
}
