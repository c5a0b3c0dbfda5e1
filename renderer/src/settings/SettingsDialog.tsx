/**
 * The settings screen: data folder (checked on save, created and used after a restart), inference
 * threads, GPU on/off, context size, snapshot interval, the default chat and embedding models
 * (chosen from the models in the data folder) and the model servers. Nothing is saved until
 * "Save" (servers' API keys included); a damaged settings.json shows its notice here.
 */
import { useEffect, useId, useState } from 'react';
import type { SettingsState } from '../../../common/api/settings';
import type { LocalModelSummary } from '../../../common/api/studio';
import { studio } from '../api/studio';
import { Dialog } from '../components/Dialog';
import { FormActions } from '../components/FormActions';
import { useStudio } from '../stores/studioStore';
import { applySettingsState, type SettingsSection } from '../servers/serversStore';
import { fromDraft, toDraft, type DraftErrors, type SettingsDraft } from './form';
import { ModelServersSection, type PendingKeys } from './ModelServersSection';
import './settings.css';
import { TextField } from './TextField';

type Loaded = { state: SettingsState; models: LocalModelSummary[]; modelsError: string | null };

export function SettingsDialog({
  onClose,
  section = null,
}: {
  onClose(): void;
  /** The part to scroll to (a form's "Open Settings › Model servers"). */
  section?: SettingsSection | null;
}) {
  const showToast = useStudio((s) => s.showToast);
  const [loaded, setLoaded] = useState<Loaded | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [draft, setDraft] = useState<SettingsDraft | null>(null);
  const [errors, setErrors] = useState<DraftErrors>({});
  const [saveError, setSaveError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const [keys, setKeys] = useState<PendingKeys>({});

  useEffect(() => {
    let live = true;
    void (async () => {
      try {
        const [state, models] = await Promise.all([
          studio.settings.get({}),
          studio.models.local({}).then(
            (r) => ({ list: r.models, error: null }),
            (err: Error) => ({ list: [], error: err.message }),
          ),
        ]);
        if (!live) return;
        // The forms that offer servers follow what Settings holds now.
        applySettingsState(state);
        setLoaded({ state, models: models.list, modelsError: models.error });
        setDraft(toDraft(state.settings));
      } catch (err) {
        if (live) setLoadError((err as Error).message);
      }
    })();
    return () => {
      live = false;
    };
  }, []);

  const edit = (patch: Partial<SettingsDraft>) => {
    setDraft((d) => (d ? { ...d, ...patch } : d));
    setErrors((e) => {
      const next = { ...e };
      for (const k of Object.keys(patch)) delete next[k as keyof SettingsDraft];
      return next;
    });
  };

  const save = async () => {
    if (!draft || !loaded) return;
    const checked = fromDraft(draft);
    if (!checked.ok) {
      setErrors(checked.errors);
      return;
    }
    setSaving(true);
    setSaveError(null);
    try {
      // A new data folder is only checked now; it is created when the studio next starts.
      let state = await studio.settings.set(checked.settings);
      // Keys after the list, so a key is never saved for a server the list refused.
      const failed: string[] = [];
      for (const [serverId, apiKey] of Object.entries(keys)) {
        await studio.servers.setKey({ serverId, apiKey }).catch((err: Error) => {
          const name = checked.settings.modelServers.find((s) => s.id === serverId)?.name;
          failed.push(`${name ?? serverId}: ${err.message}`);
        });
      }
      if (Object.keys(keys).length > 0) state = await studio.settings.get({});
      applySettingsState(state);
      setKeys({});
      if (failed.length > 0) {
        setSaveError(
          `Settings saved, but these API keys were not: ${failed.join('; ')}. Type the key again and Save.`,
        );
        return;
      }
      showToast(
        state.restartRequired
          ? `Settings saved. ${state.dataFolderNotice ?? 'Restart the studio to use the new data folder.'}`
          : 'Settings saved',
      );
      onClose();
    } catch (err) {
      setSaveError((err as Error).message);
    } finally {
      setSaving(false);
    }
  };

  return (
    <Dialog title="Settings" testId="settings-dialog" onClose={onClose}>
      {loadError && (
        <p className="settings__error" role="alert">
          Could not read the settings: {loadError}
        </p>
      )}
      {!loaded || !draft ? (
        !loadError && <p className="muted">Loading…</p>
      ) : (
        <form
          className="settings"
          onSubmit={(e) => {
            e.preventDefault();
            void save();
          }}
        >
          {loaded.state.notice && (
            <p className="settings__notice" role="alert" data-testid="settings-notice">
              {loaded.state.notice} Saving writes a valid file (the old one is kept as
              settings.json.bak).
            </p>
          )}
          <Section title="Data">
            <TextField
              label="Data folder"
              testId="settings-data-folder"
              value={draft.dataFolder}
              placeholder={loaded.state.defaultDataFolder}
              error={errors.dataFolder}
              onChange={(v) => edit({ dataFolder: v })}
              hint={
                <>
                  Models and runs live here. In use now:{' '}
                  <code data-testid="settings-active-folder">{loaded.state.activeDataFolder}</code>.
                  A change takes effect after you restart the studio; the files already there are
                  not moved. Empty = the default folder.
                  {loaded.state.restartRequired && (
                    <strong className="settings__restart"> Restart pending.</strong>
                  )}
                  {loaded.state.dataFolderNotice && (
                    <span data-testid="settings-data-folder-notice">
                      {' '}
                      {loaded.state.dataFolderNotice}
                    </span>
                  )}
                </>
              }
            />
          </Section>
          <Section title="Inference">
            <TextField
              label="Threads"
              testId="settings-threads"
              value={draft.threads}
              inputMode="numeric"
              placeholder={`Automatic (${loaded.state.autoThreads} now)`}
              error={errors.threads}
              onChange={(v) => edit({ threads: v })}
              hint="Never more than the cores free when a run starts; empty = automatic."
            />
            <label className="settings__check">
              <input
                type="checkbox"
                data-testid="settings-gpu"
                checked={draft.gpu}
                onChange={(e) => edit({ gpu: e.target.checked })}
              />
              Use the GPU when one is found (off: CPU only)
            </label>
            <TextField
              label="Context size (tokens)"
              testId="settings-context-size"
              value={draft.contextSize}
              inputMode="numeric"
              placeholder="Automatic (the model's trained context, up to about 15,000 characters, as memory allows)"
              error={errors.contextSize}
              onChange={(v) => edit({ contextSize: v })}
              hint="How much text the language model holds for one request (prompt and answer). Larger towns and longer memories need more; more takes more memory. Applies to the next run you start or open. Empty = automatic."
            />
          </Section>
          <Section title="Runs">
            <TextField
              label="Snapshot every (steps)"
              testId="settings-snapshot-every"
              value={draft.snapshotEverySteps}
              inputMode="numeric"
              error={errors.snapshotEverySteps}
              onChange={(v) => edit({ snapshotEverySteps: v })}
              hint="A snapshot is a point a run can be forked from and resumes from after a crash. Fewer steps between them: more points, more disk. Applies to runs started from now on."
            />
          </Section>
          <Section title="Default models">
            <ModelSelect
              label="Chat model"
              testId="settings-chat-model"
              models={loaded.models.filter((m) => m.kind === 'chat')}
              value={draft.chatModelPath}
              onChange={(v) => edit({ chatModelPath: v })}
            />
            <ModelSelect
              label="Embedding model"
              testId="settings-embedding-model"
              models={loaded.models.filter((m) => m.kind === 'embedding')}
              value={draft.embeddingModelPath}
              onChange={(v) => edit({ embeddingModelPath: v })}
            />
            {loaded.modelsError ? (
              <p className="settings__error">Could not list the models: {loaded.modelsError}</p>
            ) : (
              loaded.models.length === 0 && (
                <p className="field__hint">No models in the data folder yet.</p>
              )
            )}
          </Section>
          <ModelServersSection
            servers={draft.modelServers}
            savedKeys={loaded.state.serversWithKey}
            keys={keys}
            focus={section === 'servers'}
            onChange={(modelServers, nextKeys) => {
              edit({ modelServers });
              setKeys(nextKeys);
            }}
          />
          {errors.modelServers && (
            <p className="settings__error" role="alert">
              Model servers: {errors.modelServers}
            </p>
          )}
          <p className="field__hint">
            Saved in <code data-testid="settings-file">{loaded.state.file}</code>
          </p>
          {saveError && (
            <p className="settings__error" role="alert" data-testid="settings-save-error">
              {saveError}
            </p>
          )}
          <FormActions
            className="settings__actions"
            onCancel={onClose}
            submitTestId="settings-save"
            disabled={saving}
          >
            {saving ? 'Saving…' : 'Save'}
          </FormActions>
        </form>
      )}
    </Dialog>
  );
}

function Section({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <fieldset className="settings__section">
      <legend>{title}</legend>
      {children}
    </fieldset>
  );
}

function ModelSelect(props: {
  label: string;
  testId: string;
  models: LocalModelSummary[];
  value: string;
  onChange(path: string): void;
}) {
  const id = useId();
  // A saved choice whose file has gone stays visible, so the user sees why runs fail.
  const missing = props.value !== '' && !props.models.some((m) => m.path === props.value);
  return (
    <div className="field">
      <label className="field__label" htmlFor={id}>
        {props.label}
      </label>
      <select
        id={id}
        className="settings__select"
        data-testid={props.testId}
        value={props.value}
        onChange={(e) => props.onChange(e.target.value)}
      >
        <option value="">None (choose per run)</option>
        {props.models.map((m) => (
          <option key={m.path} value={m.path}>
            {m.name}
          </option>
        ))}
        {missing && <option value={props.value}>{props.value} (not found)</option>}
      </select>
    </div>
  );
}
