/**
 * "A model on a server": pick one of Settings' model servers, then one of the models it lists at
 * /v1/models (asked when the server is picked, with the wait and any refusal shown in place).
 * With no servers yet it says what a server is for and opens Settings › Model servers. Used by
 * the start-run dialog, the fork dialog and the Lab's experiment form.
 */
import { useEffect, type ReactNode } from 'react';
import {
  SERVER_KIND_LABELS,
  type ModelServer,
  type ServerModelChoice,
} from '../../../common/api/servers';
import { hostOf } from './serverForm';
import { answerFor, askModels, loadServers, openSettings, useServers } from './serversStore';
import './servers.css';

export function ServerModelPicker({
  value,
  onChange,
  testIdPrefix,
  purpose,
}: {
  value: ServerModelChoice | null;
  onChange(choice: ServerModelChoice | null): void;
  /** data-testid prefix: `${prefix}-server`, `${prefix}-server-model`, … */
  testIdPrefix: string;
  /** What the model is for; embeddings say what the server must offer. */
  purpose: 'chat' | 'embedding';
}) {
  const servers = useServers((s) => s.servers);
  const loaded = useServers((s) => s.loaded);
  const error = useServers((s) => s.error);
  const server = servers.find((s) => s.id === value?.serverId);
  const answer = useServers((s) => answerFor(s, server));

  useEffect(() => {
    void loadServers();
  }, []);
  // The first server is picked once the list is known, so one server needs no extra click.
  useEffect(() => {
    if (loaded && !server && servers[0]) onChange({ serverId: servers[0].id, model: '' });
  }, [loaded, server, servers, onChange]);
  useEffect(() => {
    if (server) void askModels(server);
  }, [server]);
  // The server's first model, once it answers, unless one of its models is picked already.
  const models = answer?.state === 'ok' ? answer.probe.models : null;
  useEffect(() => {
    if (!server || !models || models.length === 0) return;
    if (!value?.model || !models.includes(value.model))
      onChange({ serverId: server.id, model: models[0] });
  }, [server, models, value?.model, onChange]);

  if (!loaded) return <p className="muted">Reading Settings…</p>;
  if (error)
    return (
      <p className="server-picker__error" role="alert">
        Could not read the model servers from Settings: {error}
      </p>
    );
  if (servers.length === 0)
    return (
      <div className="server-picker__empty" data-testid={`${testIdPrefix}-no-servers`}>
        <p>
          No model servers yet. A server runs the model on another machine (or in another program):
          llama.cpp’s llama-server, Ollama, LM Studio or vLLM. Add its address in Settings, then
          pick it here.
        </p>
        <button
          type="button"
          className="button"
          data-testid={`${testIdPrefix}-open-settings`}
          onClick={() => openSettings('servers')}
        >
          Open Settings › Model servers
        </button>
      </div>
    );

  return (
    <div className="server-picker">
      <label className="field">
        <span className="field__label">Server</span>
        <select
          className="select"
          data-testid={`${testIdPrefix}-server`}
          value={server?.id ?? ''}
          onChange={(e) => onChange({ serverId: e.target.value, model: '' })}
        >
          {servers.map((s) => (
            <option key={s.id} value={s.id}>
              {serverLabel(s)}
            </option>
          ))}
        </select>
      </label>
      <div className="field">
        <span className="field__label">Model</span>
        {!answer || answer.state === 'loading' ? (
          <p className="muted" data-testid={`${testIdPrefix}-server-loading`}>
            Asking {server?.name} for its models…
          </p>
        ) : answer.state === 'error' ? (
          <div
            className="server-picker__error"
            role="alert"
            data-testid={`${testIdPrefix}-server-error`}
          >
            <p>{answer.message}</p>
            <div className="server-picker__row">
              <button
                type="button"
                className="button button--small"
                onClick={() => server && void askModels(server, true)}
              >
                Try again
              </button>
              <button
                type="button"
                className="button button--small"
                onClick={() => openSettings('servers')}
              >
                Check it in Settings
              </button>
            </div>
          </div>
        ) : answer.probe.models.length === 0 ? (
          <div
            className="server-picker__error"
            role="alert"
            data-testid={`${testIdPrefix}-server-error`}
          >
            <p>
              {server?.name} lists no models at {server?.baseUrl}/models: load a model on the server
              (Ollama: <code>ollama pull</code>; LM Studio: load one), then try again.
            </p>
            <button
              type="button"
              className="button button--small"
              onClick={() => server && void askModels(server, true)}
            >
              Try again
            </button>
          </div>
        ) : (
          <select
            className="select"
            data-testid={`${testIdPrefix}-server-model`}
            value={value?.model ?? ''}
            onChange={(e) => server && onChange({ serverId: server.id, model: e.target.value })}
          >
            {answer.probe.models.map((m) => (
              <option key={m} value={m}>
                {m}
              </option>
            ))}
          </select>
        )}
      </div>
      {purpose === 'embedding' && (
        <p className="field__hint server-picker__wide">
          The server must answer /v1/embeddings (llama-server: start it with --embeddings). Its
          vectors are checked as local ones are: unit length, the same size every time.
        </p>
      )}
    </div>
  );
}

/** "Lab box (127.0.0.1:8080) · llama.cpp server": how a server is offered in a list. */
export function serverLabel(server: ModelServer): string {
  return `${server.name} (${hostOf(server.baseUrl)})${server.kind ? ` · ${SERVER_KIND_LABELS[server.kind]}` : ''}`;
}

export type ModelSource = 'file' | 'server';

/** "A file on this computer" / "A model on a server", above the matching picker. */
export function ModelSourceSwitch({
  value,
  onChange,
  label,
  testIdPrefix,
}: {
  value: ModelSource;
  onChange(source: ModelSource): void;
  label: string;
  testIdPrefix: string;
}) {
  return (
    <div className="segmented model-source" role="radiogroup" aria-label={label}>
      <SourceRadio
        testId={`${testIdPrefix}-source-file`}
        checked={value === 'file'}
        onSelect={() => onChange('file')}
      >
        A file on this computer
      </SourceRadio>
      <SourceRadio
        testId={`${testIdPrefix}-source-server`}
        checked={value === 'server'}
        onSelect={() => onChange('server')}
      >
        A model on a server
      </SourceRadio>
    </div>
  );
}

/** One choice of where a model comes from (the switch above; the fork dialog adds "As this run"). */
export function SourceRadio(props: {
  testId: string;
  checked: boolean;
  onSelect(): void;
  children: ReactNode;
}) {
  return (
    <label className="toggle">
      <input
        type="radio"
        data-testid={props.testId}
        checked={props.checked}
        onChange={props.onSelect}
      />
      {props.children}
    </label>
  );
}
