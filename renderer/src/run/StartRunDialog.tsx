/**
 * Starting a run of the open town: the chat and embedding models (what is on disk, the
 * recommended download with progress, a file the user already has, or a model on one of
 * Settings' model servers), the start time, the speed, and the conditions (cost layer switches,
 * ablation, small-model guards).
 */
import { useEffect, useMemo, useState, type ReactNode } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { ABLATIONS, runConditionsSchema, type Ablation } from '../../../common/runs/conditions';
import { ALL_GUARDS_ON, type Guards } from '../../../common/runs/guards';
import type { ServerModelChoice } from '../../../common/api/servers';
import { studio } from '../api/studio';
import { Dialog } from '../components/Dialog';
import { FormActions } from '../components/FormActions';
import { LabelledField } from '../components/LabelledField';
import { useStudio } from '../stores/studioStore';
import {
  ModelSourceSwitch,
  ServerModelPicker,
  type ModelSource,
} from '../servers/ServerModelPicker';
import { CostLayerFields, type CostLayerSwitches } from './CostLayerFields';
import { GuardFields } from './GuardFields';
import { useRun, useRunStore } from './RunProvider';
import type { CatalogModel, LocalModel } from './runState';
import { baseName, bytes } from './format';

const ABLATION_LABELS: Record<Ablation, string> = {
  full: 'Full architecture',
  'no-reflection': 'No reflection',
  'no-reflection-planning': 'No reflection, no planning',
  'no-observation-reflection-planning': 'No observation, reflection or planning',
};

const PLAY_SPEEDS = [
  { value: 'paused', label: 'Start paused' },
  { value: '1', label: 'Play at 1 step/s' },
  { value: '5', label: 'Play at 5 steps/s' },
  { value: '0', label: 'Play as fast as possible' },
];

/** "2023-02-13T07:00:00" → "2023-02-13T07:00" (what a datetime-local input takes). */
function toLocalInput(startTime: string): string {
  return startTime.slice(0, 16);
}

export function StartRunDialog({ onClose }: { onClose(): void }) {
  const store = useRunStore();
  const doc = useStudio((s) => s.doc);
  const { models, download, pending, startError } = useRun(
    useShallow((s) => ({
      models: s.models,
      download: s.download,
      pending: s.pending,
      startError: s.startError,
    })),
  );
  useEffect(() => {
    void store.getState().loadModels();
    // A failure from an earlier attempt is not this one's.
    store.setState({ startError: null });
  }, [store]);

  const chats = models.local.filter((m) => m.kind === 'chat');
  const embedders = models.local.filter((m) => m.kind === 'embedding');
  const [chatPath, setChatPath] = useState('');
  const [embedPath, setEmbedPath] = useState('');
  const [chatSource, setChatSource] = useState<ModelSource>('file');
  const [embedSource, setEmbedSource] = useState<ModelSource>('file');
  const [chatServer, setChatServer] = useState<ServerModelChoice | null>(null);
  const [embedServer, setEmbedServer] = useState<ServerModelChoice | null>(null);
  const [name, setName] = useState('');
  const [start, setStart] = useState(doc ? toLocalInput(doc.settings.startTime) : '');
  const [play, setPlay] = useState('paused');
  // The town's own cost-layer switches (scenario settings) are where a new run starts from.
  const [costLayer, setCostLayer] = useState<CostLayerSwitches>({
    lifestylePolicy: doc?.settings.costLayer.lifestylePolicy ?? false,
    socialMemory: doc?.settings.costLayer.socialMemory ?? false,
    mindWandering: doc?.settings.costLayer.mindWandering ?? false,
  });
  const [ablation, setAblation] = useState<Ablation>('full');
  const [guards, setGuards] = useState<Guards>(ALL_GUARDS_ON);
  const [diskPath, setDiskPath] = useState('');

  // Default to the models chosen in Settings when they are on disk, else the first of each kind.
  const [defaults, setDefaults] = useState<{ chat: string | null; embed: string | null }>();
  useEffect(() => {
    studio.settings.get({}).then(
      ({ settings }) =>
        setDefaults({ chat: settings.chatModelPath, embed: settings.embeddingModelPath }),
      () => setDefaults({ chat: null, embed: null }),
    );
  }, []);
  useEffect(() => {
    if (!defaults) return;
    const preferred = (list: LocalModel[], path: string | null) =>
      list.find((m) => m.path === path) ?? list[0];
    if (!chatPath && chats.length) setChatPath(preferred(chats, defaults.chat).path);
    if (!embedPath && embedders.length) setEmbedPath(preferred(embedders, defaults.embed).path);
  }, [chats, embedders, chatPath, embedPath, defaults]);

  const recommended = useMemo(() => {
    const rec = models.recommendation;
    const pick = (kind: 'chat' | 'embedding', id?: string) =>
      models.catalog.find((c) => c.id === id) ?? models.catalog.find((c) => c.kind === kind);
    return {
      chat: pick('chat', rec?.chatId),
      embedding: pick('embedding', rec?.embeddingId),
    };
  }, [models]);

  if (!doc) return null;
  const chatReady = chatSource === 'file' ? !!chatPath : !!chatServer?.model;
  const embedReady = embedSource === 'file' ? !!embedPath : !!embedServer?.model;
  const ready = chatReady && embedReady && !pending;
  const submit = async () => {
    const ok = await store.getState().startRun({
      scenario: doc,
      scenarioId: doc.id,
      name: name.trim() || undefined,
      ...(chatSource === 'server' && chatServer ? { chatServer } : { chatModelPath: chatPath }),
      ...(embedSource === 'server' && embedServer
        ? { embeddingServer: embedServer }
        : { embeddingModelPath: embedPath }),
      startTime: start && start !== toLocalInput(doc.settings.startTime) ? start : undefined,
      conditions: runConditionsSchema.parse({ ablation, costLayer, guards }),
      playAt: play === 'paused' ? null : Number(play),
    });
    if (ok) onClose();
  };

  const pickFromDisk = async () => {
    const model = await store.getState().useModelFromDisk(diskPath);
    if (!model) return;
    // A file picked is what the user wants to run on, even with "a model on a server" chosen.
    if (model.kind === 'chat') {
      setChatPath(model.path);
      setChatSource('file');
    } else {
      setEmbedPath(model.path);
      setEmbedSource('file');
    }
    setDiskPath('');
  };

  return (
    <Dialog title={`Run “${doc.name}”`} testId="start-run-dialog" onClose={onClose}>
      <form
        className="start-run"
        onSubmit={(e) => {
          e.preventDefault();
          if (ready) void submit();
        }}
      >
        <h3 className="start-run__heading">Models</h3>
        <ModelBlock
          label="Language model"
          testIdPrefix="start-chat"
          source={chatSource}
          onSource={setChatSource}
          server={chatServer}
          onServer={setChatServer}
          purpose="chat"
        >
          {!models.loaded ? (
            <p className="muted">Looking for models…</p>
          ) : (
            <ModelSelect
              label="Language model"
              testId="start-chat-model"
              models={chats}
              value={chatPath}
              onChange={setChatPath}
              missing={recommended.chat}
              download={download}
            />
          )}
        </ModelBlock>
        <ModelBlock
          label="Embedding model"
          testIdPrefix="start-embedding"
          source={embedSource}
          onSource={setEmbedSource}
          server={embedServer}
          onServer={setEmbedServer}
          purpose="embedding"
        >
          {models.loaded && (
            <ModelSelect
              label="Embedding model"
              testId="start-embedding-model"
              models={embedders}
              value={embedPath}
              onChange={setEmbedPath}
              missing={recommended.embedding}
              download={download}
            />
          )}
        </ModelBlock>
        {models.loaded && (chatSource === 'file' || embedSource === 'file') && (
          <>
            {models.recommendation && (
              <p className="field__hint">
                Recommended for this computer: {models.recommendation.reason}
              </p>
            )}
            <div className="start-run__disk">
              <input
                className="input"
                placeholder="…or a GGUF file / embedding folder already on disk (full path)"
                aria-label="Model path on disk"
                data-testid="start-model-path"
                value={diskPath}
                onChange={(e) => setDiskPath(e.target.value)}
              />
              <button
                type="button"
                className="button"
                data-testid="start-model-use"
                disabled={!diskPath.trim()}
                onClick={() => void pickFromDisk()}
              >
                Use this file
              </button>
            </div>
            {models.dir && (
              <p className="field__hint">
                Models folder: {models.dir}. A file used from elsewhere is remembered by its path
                and offered here, in the Lab and in Settings from then on.
              </p>
            )}
          </>
        )}

        <h3 className="start-run__heading">Run</h3>
        <div className="start-run__grid">
          <LabelledField label="Name">
            <input
              data-testid="start-name"
              placeholder={`${doc.name} run`}
              value={name}
              maxLength={200}
              onChange={(e) => setName(e.target.value)}
            />
          </LabelledField>
          <LabelledField label="Game start">
            <input
              type="datetime-local"
              data-testid="start-time"
              value={start}
              onChange={(e) => setStart(e.target.value)}
            />
          </LabelledField>
          <LabelledField label="Speed">
            <select
              className="select"
              data-testid="start-speed"
              value={play}
              onChange={(e) => setPlay(e.target.value)}
            >
              {PLAY_SPEEDS.map((s) => (
                <option key={s.value} value={s.value}>
                  {s.label}
                </option>
              ))}
            </select>
          </LabelledField>
          <LabelledField label="Ablation (memories interviews may draw on, Park et al. §6)">
            <select
              className="select"
              data-testid="start-ablation"
              value={ablation}
              onChange={(e) => setAblation(e.target.value as Ablation)}
            >
              {ABLATIONS.map((a) => (
                <option key={a} value={a}>
                  {ABLATION_LABELS[a]}
                </option>
              ))}
            </select>
          </LabelledField>
        </div>
        <CostLayerFields value={costLayer} onChange={setCostLayer} testIdPrefix="start" />
        <GuardFields value={guards} onChange={setGuards} testIdPrefix="start" />
        {startError && (
          <p className="start-run__error" role="alert" data-testid="start-run-error">
            {startError}
          </p>
        )}
        <FormActions
          className="dialog__actions"
          onCancel={onClose}
          submitTestId="start-run-submit"
          disabled={!ready}
        >
          {pending ?? 'Start run'}
        </FormActions>
      </form>
    </Dialog>
  );
}

/** One model's choice: where it runs (a file or a server), then what is picked there. */
function ModelBlock({
  label,
  testIdPrefix,
  source,
  onSource,
  server,
  onServer,
  purpose,
  children,
}: {
  label: string;
  testIdPrefix: string;
  source: ModelSource;
  onSource(source: ModelSource): void;
  server: ServerModelChoice | null;
  onServer(choice: ServerModelChoice | null): void;
  purpose: 'chat' | 'embedding';
  /** The file picker. */
  children: ReactNode;
}) {
  return (
    <div className="start-run__model" data-testid={`${testIdPrefix}-block`}>
      <span className="field__label">{label}</span>
      <ModelSourceSwitch
        value={source}
        onChange={onSource}
        label={`Where the ${label.toLowerCase()} runs`}
        testIdPrefix={testIdPrefix}
      />
      {source === 'file' ? (
        children
      ) : (
        <ServerModelPicker
          value={server}
          onChange={onServer}
          testIdPrefix={testIdPrefix}
          purpose={purpose}
        />
      )}
    </div>
  );
}

function ModelSelect({
  label,
  testId,
  models,
  value,
  onChange,
  missing,
  download,
}: {
  label: string;
  testId: string;
  models: LocalModel[];
  value: string;
  onChange(path: string): void;
  missing: CatalogModel | undefined;
  download: { modelId: string; receivedBytes: number; totalBytes: number } | null;
}) {
  const store = useRunStore();
  const downloading = download && missing && download.modelId === missing.id;
  return (
    <div className="field">
      {models.length > 0 ? (
        <select
          className="select"
          aria-label={label}
          data-testid={testId}
          value={value}
          onChange={(e) => onChange(e.target.value)}
        >
          {models.map((m) => (
            <option key={m.path} value={m.path}>
              {m.name} ({bytes(m.sizeBytes)}
              {m.architecture ? ` · ${m.architecture}` : ''}
              {m.linked ? ' · picked from disk' : ''})
            </option>
          ))}
        </select>
      ) : (
        <p className="muted" data-testid={`${testId}-none`}>
          No {label.toLowerCase()} on this computer yet.
        </p>
      )}
      {missing && models.length === 0 && !downloading && (
        <button
          type="button"
          className="button"
          data-testid={`${testId}-download`}
          disabled={!!download}
          onClick={async () => {
            const model = await store.getState().downloadModel(missing.id);
            if (model) onChange(model.path);
          }}
        >
          Download {missing.name} ({bytes(missing.sizeBytes)}, {missing.license})
        </button>
      )}
      {downloading && (
        <div className="download" data-testid="model-download-progress">
          <progress
            max={download.totalBytes || 1}
            value={download.totalBytes ? download.receivedBytes : undefined}
          />
          <span className="muted">
            {bytes(download.receivedBytes)} / {bytes(download.totalBytes)}
          </span>
          <button
            type="button"
            className="button button--small"
            onClick={() => void store.getState().cancelDownload()}
          >
            Cancel
          </button>
        </div>
      )}
      {value && models.every((m) => m.path !== value) && (
        <span className="field__hint">{baseName(value)}</span>
      )}
    </div>
  );
}
