/**
 * Adding or editing one model server in Settings: name, address, API key (typed, never shown
 * back), the context / timeout / parallel fallbacks, and "Test connection", which shows what
 * answers there (kind, version, models, slots, context) or the server's refusal word for word.
 * "Add server" / "Update server" puts it in the list; Settings' Save writes the list and keys.
 */
import { useRef, useState, type KeyboardEvent } from 'react';
import {
  SERVER_KIND_LABELS,
  type ModelServer,
  type ServerProbe,
} from '../../../common/api/servers';
import { studio } from '../api/studio';
import {
  baseUrlRefusal,
  fromServerDraft,
  normalizeBaseUrl,
  probeFacts,
  type ServerDraft,
  type ServerDraftErrors,
} from '../servers/serverForm';
import { TextField } from './TextField';

type Test =
  | { state: 'idle' }
  | { state: 'testing'; baseUrl: string }
  | { state: 'ok'; probe: ServerProbe; baseUrl: string }
  | { state: 'error'; message: string; baseUrl: string };

/** The key change Save makes: a new key, null to forget the saved one, undefined for none. */
export type KeyChange = string | null | undefined;

export function ServerEditor({
  initial,
  servers,
  hasSavedKey,
  onApply,
  onCancel,
}: {
  initial: ServerDraft;
  servers: readonly ModelServer[];
  /** Whether this server has a key saved (or to be saved on Save). */
  hasSavedKey: boolean;
  onApply(server: ModelServer, key: KeyChange): void;
  onCancel(): void;
}) {
  const [draft, setDraft] = useState(initial);
  const [errors, setErrors] = useState<ServerDraftErrors>({});
  const [test, setTest] = useState<Test>({ state: 'idle' });
  const asked = useRef(0);
  const adding = initial.id === null;
  const keptKey = hasSavedKey && !draft.removeKey && draft.apiKey === '';

  const edit = (patch: Partial<ServerDraft>) => {
    setDraft((d) => ({ ...d, ...patch }));
    setErrors((e) => {
      const next = { ...e };
      for (const k of Object.keys(patch)) delete next[k as keyof ServerDraftErrors];
      return next;
    });
  };

  const runTest = async () => {
    const refusal = baseUrlRefusal(draft.baseUrl);
    if (refusal) {
      setErrors((e) => ({ ...e, baseUrl: refusal }));
      return;
    }
    const baseUrl = normalizeBaseUrl(draft.baseUrl);
    const mine = ++asked.current;
    setTest({ state: 'testing', baseUrl });
    try {
      const probe = await studio.servers.test({
        baseUrl,
        ...(draft.apiKey ? { apiKey: draft.apiKey } : {}),
        // The saved key is tried unless the user is replacing or forgetting it.
        ...(keptKey && draft.id ? { serverId: draft.id } : {}),
      });
      if (mine !== asked.current) return;
      setTest({ state: 'ok', probe, baseUrl });
      setDraft((d) => (normalizeBaseUrl(d.baseUrl) === baseUrl ? { ...d, kind: probe.kind } : d));
    } catch (err) {
      if (mine === asked.current)
        setTest({ state: 'error', message: (err as Error).message, baseUrl });
    }
  };

  const apply = () => {
    const checked = fromServerDraft(draft, servers);
    if (!checked.ok) {
      setErrors(checked.errors);
      return;
    }
    onApply(checked.server, draft.apiKey ? draft.apiKey : draft.removeKey ? null : undefined);
  };

  // Enter in a field adds the server rather than submitting (and closing) all of Settings.
  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key === 'Enter' && (e.target as HTMLElement).tagName === 'INPUT') {
      e.preventDefault();
      apply();
    }
  };

  const shownTest = test.state !== 'idle' && test.baseUrl === normalizeBaseUrl(draft.baseUrl);
  return (
    <div
      className="server-editor"
      data-testid="server-editor"
      role="group"
      aria-label={adding ? 'New model server' : `Edit ${initial.name}`}
      onKeyDown={onKeyDown}
    >
      <div className="server-editor__grid">
        <TextField
          label="Name"
          testId="server-name"
          value={draft.name}
          placeholder="Lab box"
          error={errors.name}
          onChange={(name) => edit({ name })}
          hint="How the start dialog, the Lab and the run library name it."
        />
        <TextField
          label="Address (API root)"
          testId="server-url"
          value={draft.baseUrl}
          placeholder="http://127.0.0.1:8080/v1"
          error={errors.baseUrl}
          onChange={(baseUrl) =>
            // A new address has not been tested: what answered at the old one may not answer here.
            edit({
              baseUrl,
              kind: normalizeBaseUrl(baseUrl) === initial.baseUrl ? initial.kind : null,
            })
          }
          hint="Ends in …/v1. llama-server and vLLM: http://host:8080/v1 (vLLM :8000); Ollama: http://host:11434/v1; LM Studio: http://host:1234/v1."
        />
        <TextField
          label="API key"
          testId="server-key"
          type="password"
          value={draft.apiKey}
          placeholder={
            keptKey ? 'Saved (type to replace)' : draft.removeKey ? 'Removed on Save' : 'None'
          }
          onChange={(apiKey) => edit({ apiKey, removeKey: false })}
          hint={
            <>
              Only for servers that ask for one. Kept apart from settings.json and never shown
              again.
              {hasSavedKey && !draft.removeKey && (
                <>
                  {' '}
                  <button
                    type="button"
                    className="link-button"
                    data-testid="server-key-remove"
                    onClick={() => edit({ apiKey: '', removeKey: true })}
                  >
                    Remove key
                  </button>
                </>
              )}
            </>
          }
        />
        <TextField
          label="Context (tokens per request)"
          testId="server-context"
          value={draft.contextTokens}
          inputMode="numeric"
          placeholder="Automatic"
          error={errors.contextTokens}
          onChange={(contextTokens) => edit({ contextTokens })}
          hint="Automatic: what the server reports (llama-server’s slot, Ollama’s num_ctx), else 4,096. Set it for servers that do not say (LM Studio, hosted APIs)."
        />
        <TextField
          label="Timeout (seconds per request)"
          testId="server-timeout"
          value={draft.timeoutSeconds}
          inputMode="numeric"
          placeholder="Automatic"
          error={errors.timeoutSeconds}
          onChange={(timeoutSeconds) => edit({ timeoutSeconds })}
          hint="Automatic: from the answer’s length and the speed the server has shown."
        />
        <TextField
          label="Parallel requests"
          testId="server-parallel"
          value={draft.parallel}
          inputMode="numeric"
          placeholder="Automatic"
          error={errors.parallel}
          onChange={(parallel) => edit({ parallel })}
          hint="Automatic: the server’s slots where it says (llama-server --parallel), else 1."
        />
      </div>
      {shownTest && <TestResult test={test} />}
      <div className="server-editor__actions">
        <button
          type="button"
          className="button"
          data-testid="server-test"
          disabled={test.state === 'testing'}
          onClick={() => void runTest()}
        >
          {test.state === 'testing' ? 'Testing…' : 'Test connection'}
        </button>
        <span className="server-editor__spacer" />
        <button type="button" className="button" onClick={onCancel}>
          Cancel
        </button>
        <button
          type="button"
          className="button button--primary"
          data-testid="server-apply"
          onClick={apply}
        >
          {adding ? 'Add server' : 'Update server'}
        </button>
      </div>
    </div>
  );
}

function TestResult({ test }: { test: Test }) {
  if (test.state === 'testing')
    return (
      <p className="muted" data-testid="server-test-pending">
        Connecting to {test.baseUrl}…
      </p>
    );
  if (test.state === 'error')
    return (
      <div className="server-test server-test--error" role="alert" data-testid="server-test-error">
        <strong>No answer the studio can use at {test.baseUrl}</strong>
        <p>{test.message}</p>
      </div>
    );
  if (test.state !== 'ok') return null;
  const { probe } = test;
  return (
    <div className="server-test server-test--ok" data-testid="server-test-result">
      <div>
        <strong data-testid="server-test-kind">{SERVER_KIND_LABELS[probe.kind]}</strong>
        {probe.version && <span data-testid="server-test-version"> {probe.version}</span>}
        <span className="muted"> · {probeFacts(probe)}</span>
      </div>
      {probe.models.length > 0 ? (
        <ul className="server-test__models" data-testid="server-test-models">
          {probe.models.map((m) => (
            <li key={m}>{m}</li>
          ))}
        </ul>
      ) : (
        <p className="server-test__none">
          It lists no models at /v1/models: load one on the server, then test again.
        </p>
      )}
    </div>
  );
}
