/**
 * Settings › Model servers: the servers runs, forks and experiments may use instead of a local
 * file, each with its address, the kind last detected there and whether a key is saved; Add,
 * Edit, Remove. Changes stay in the Settings draft (keys too) until Settings' Save.
 */
import { useEffect, useRef, useState } from 'react';
import { SERVER_KIND_LABELS, type ModelServer } from '../../../common/api/servers';
import { emptyServerDraft, toServerDraft } from '../servers/serverForm';
import { ServerEditor, type KeyChange } from './ServerEditor';
import '../servers/servers.css';

/** Keys to save (string) or forget (null) on Save, by server id. */
export type PendingKeys = Record<string, string | null>;

export function ModelServersSection({
  servers,
  savedKeys,
  keys,
  onChange,
  focus,
}: {
  servers: ModelServer[];
  /** Ids with a key saved now (state.serversWithKey). */
  savedKeys: readonly string[];
  keys: PendingKeys;
  onChange(servers: ModelServer[], keys: PendingKeys): void;
  /** Opened from a form's "Open Settings › Model servers": scroll here, and add one if none. */
  focus: boolean;
}) {
  // null: no editor; 'new': adding; else the id being edited.
  const [editing, setEditing] = useState<string | null>(
    focus && servers.length === 0 ? 'new' : null,
  );
  const [removing, setRemoving] = useState<string | null>(null);
  const ref = useRef<HTMLFieldSetElement>(null);
  useEffect(() => {
    if (focus) ref.current?.scrollIntoView?.({ block: 'start' });
  }, [focus]);

  const hasKey = (id: string) => (id in keys ? keys[id] !== null : savedKeys.includes(id));
  const apply = (server: ModelServer, key: KeyChange) => {
    const exists = servers.some((s) => s.id === server.id);
    const next = exists
      ? servers.map((s) => (s.id === server.id ? server : s))
      : [...servers, server];
    onChange(next, key === undefined ? keys : { ...keys, [server.id]: key });
    setEditing(null);
  };
  const remove = (id: string) => {
    // Its key goes with it, so a server added later under the same name does not inherit it.
    const nextKeys = { ...keys };
    if (savedKeys.includes(id)) nextKeys[id] = null;
    else delete nextKeys[id];
    onChange(
      servers.filter((s) => s.id !== id),
      nextKeys,
    );
    setRemoving(null);
  };

  return (
    <fieldset className="settings__section" ref={ref} data-testid="settings-servers">
      <legend>Model servers</legend>
      <p className="field__hint servers__intro">
        A server runs the language model (or the embeddings) in another program or on another
        machine: llama.cpp’s llama-server, Ollama, LM Studio, vLLM or any OpenAI-compatible API.
        Runs and experiments can then pick “A model on a server”.
      </p>
      {servers.length === 0 && editing !== 'new' && (
        <p className="muted" data-testid="servers-empty">
          No servers yet. Add one with its address; Test connection shows what answers there.
        </p>
      )}
      {servers.length > 0 && (
        <ul className="servers__list" data-testid="servers-list">
          {servers.map((s) =>
            editing === s.id ? (
              <li key={s.id} className="servers__item servers__item--editing">
                <ServerEditor
                  initial={toServerDraft(s)}
                  servers={servers}
                  hasSavedKey={hasKey(s.id)}
                  onApply={apply}
                  onCancel={() => setEditing(null)}
                />
              </li>
            ) : (
              <li
                key={s.id}
                className="servers__item"
                data-testid="server-item"
                data-server-id={s.id}
              >
                <div className="servers__main">
                  <span className="servers__name">{s.name}</span>
                  <code className="servers__url">{s.baseUrl}</code>
                  <span className="servers__facts">
                    <span data-testid="server-item-kind">
                      {s.kind ? SERVER_KIND_LABELS[s.kind] : 'Not tested yet'}
                    </span>
                    {hasKey(s.id) && <span className="servers__badge">key saved</span>}
                    {s.id in keys && (
                      <span className="servers__pending">
                        key {keys[s.id] === null ? 'removed' : 'saved'} on Save
                      </span>
                    )}
                  </span>
                </div>
                {removing === s.id ? (
                  <div className="servers__confirm" role="alert">
                    <span>
                      Remove {s.name}? Runs made on it keep their records; add a server named “
                      {s.name}” again to open them.
                    </span>
                    <button
                      type="button"
                      className="button button--small button--danger"
                      data-testid="server-remove-confirm"
                      onClick={() => remove(s.id)}
                    >
                      Remove
                    </button>
                    <button
                      type="button"
                      className="button button--small"
                      onClick={() => setRemoving(null)}
                    >
                      Keep
                    </button>
                  </div>
                ) : (
                  <div className="servers__tools">
                    <button
                      type="button"
                      className="button button--small"
                      data-testid="server-edit"
                      disabled={editing !== null}
                      onClick={() => setEditing(s.id)}
                    >
                      Edit
                    </button>
                    <button
                      type="button"
                      className="button button--small"
                      data-testid="server-remove"
                      disabled={editing !== null}
                      onClick={() => setRemoving(s.id)}
                    >
                      Remove
                    </button>
                  </div>
                )}
              </li>
            ),
          )}
        </ul>
      )}
      {editing === 'new' ? (
        <ServerEditor
          initial={emptyServerDraft()}
          servers={servers}
          hasSavedKey={false}
          onApply={apply}
          onCancel={() => setEditing(null)}
        />
      ) : (
        <div>
          <button
            type="button"
            className="button"
            data-testid="server-add"
            disabled={editing !== null || servers.length >= 16}
            title={servers.length >= 16 ? 'Settings keeps at most 16 servers' : undefined}
            onClick={() => setEditing('new')}
          >
            + Add server
          </button>
        </div>
      )}
    </fieldset>
  );
}
