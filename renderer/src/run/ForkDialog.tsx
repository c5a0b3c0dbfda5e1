/**
 * "Fork at step N": a new run that continues from a snapshot of this one, under a name and with
 * the language model, cost-layer switches and small-model guards the user picks (the parent's to
 * begin with). Forking one moment twice, the layer on and then off, is Affordable Generative
 * Agents' comparison from that moment; forking it onto a server's model compares models. The
 * embeddings stay the parent's: its memories were embedded with them.
 */
import { useEffect, useState } from 'react';
import { Dialog } from '../components/Dialog';
import { FormActions } from '../components/FormActions';
import { LabelledField } from '../components/LabelledField';
import { ALL_GUARDS_ON, GUARD_IDS, type Guards } from '../../../common/runs/guards';
import { CostLayerFields, type CostLayerSwitches } from './CostLayerFields';
import { GuardFields } from './GuardFields';
import { useRun, useRunStore } from './RunProvider';
import type { ServerModelChoice } from '../../../common/api/servers';
import { ServerModelPicker, SourceRadio, type ModelSource } from '../servers/ServerModelPicker';
import { useDescribeModel } from '../servers/serversStore';

export function ForkDialog({
  at,
  exact,
  frameStep,
  onClose,
}: {
  /** The snapshot step the fork starts from. */
  at: number;
  /** Whether that is the step shown (else the last snapshot before it). */
  exact: boolean;
  frameStep: number;
  onClose(): void;
}) {
  const store = useRunStore();
  const summary = useRun((s) => s.summary);
  const pending = useRun((s) => s.pending);
  const parentLayer = summary?.conditions.costLayer;
  const [name, setName] = useState('');
  const [costLayer, setCostLayer] = useState<CostLayerSwitches>({
    lifestylePolicy: parentLayer?.lifestylePolicy ?? false,
    socialMemory: parentLayer?.socialMemory ?? false,
    mindWandering: parentLayer?.mindWandering ?? false,
  });
  const changed =
    !!parentLayer &&
    (Object.keys(costLayer) as (keyof CostLayerSwitches)[]).some(
      (k) => costLayer[k] !== parentLayer[k],
    );
  // The parent's guards (all on for a run stored before guards could be switched off).
  const parentGuards = summary?.conditions.guards ?? ALL_GUARDS_ON;
  const [guards, setGuards] = useState<Guards>(parentGuards);
  const guardsChanged = GUARD_IDS.some((id) => guards[id] !== parentGuards[id]);
  const describe = useDescribeModel();
  const localChats = useRun((s) => s.models.local).filter((m) => m.kind === 'chat');
  const modelsLoaded = useRun((s) => s.models.loaded);
  const [modelSource, setModelSource] = useState<ModelSource | 'parent'>('parent');
  const [chatPath, setChatPath] = useState('');
  const [chatServer, setChatServer] = useState<ServerModelChoice | null>(null);
  useEffect(() => {
    if (modelSource === 'file' && !modelsLoaded) void store.getState().loadModels();
  }, [modelSource, modelsLoaded, store]);
  useEffect(() => {
    if (!chatPath && localChats[0]) setChatPath(localChats[0].path);
  }, [chatPath, localChats]);
  const modelReady =
    modelSource === 'parent' || (modelSource === 'file' ? !!chatPath : !!chatServer?.model);
  const submit = async () => {
    const ok = await store.getState().fork(frameStep, {
      name: name.trim() || undefined,
      ...(modelSource === 'file' ? { chatModelPath: chatPath } : {}),
      ...(modelSource === 'server' && chatServer ? { chatServer } : {}),
      ...(changed ? { costLayer } : {}),
      ...(guardsChanged ? { guards } : {}),
    });
    if (ok) onClose();
  };

  return (
    <Dialog title={`Fork at step ${at}`} testId="fork-dialog" onClose={onClose}>
      <form
        className="start-run"
        onSubmit={(e) => {
          e.preventDefault();
          if (!pending && modelReady) void submit();
        }}
      >
        <p className="field__hint" data-testid="fork-from">
          A new run continues from{' '}
          {exact ? `step ${at}` : `the last snapshot before step ${frameStep} (step ${at})`}
          {summary ? ` of “${summary.name}”` : ''}: the same residents, memories and plans. This run
          stays as it is.
        </p>
        <p className="field__hint" data-testid="fork-exactness">
          The fork&apos;s steps are new: on llama.cpp they may differ from how this run went on, as
          the model&apos;s cache state differs. Only replaying a log is exact.
        </p>
        <LabelledField label="Name">
          <input
            data-testid="fork-name"
            placeholder={summary ? `${summary.name} (fork at step ${at})` : ''}
            value={name}
            maxLength={200}
            onChange={(e) => setName(e.target.value)}
          />
        </LabelledField>
        <div className="start-run__model">
          <span className="field__label">Language model</span>
          <div className="fork__models" role="radiogroup" aria-label="The fork's language model">
            <SourceRadio
              testId="fork-model-parent"
              checked={modelSource === 'parent'}
              onSelect={() => setModelSource('parent')}
            >
              As this run:{' '}
              <span data-testid="fork-parent-model">
                {summary ? describe(summary.models.chat) : '–'}
              </span>
            </SourceRadio>
            <SourceRadio
              testId="fork-source-file"
              checked={modelSource === 'file'}
              onSelect={() => setModelSource('file')}
            >
              A file on this computer
            </SourceRadio>
            <SourceRadio
              testId="fork-source-server"
              checked={modelSource === 'server'}
              onSelect={() => setModelSource('server')}
            >
              A model on a server
            </SourceRadio>
          </div>
          {modelSource === 'file' &&
            (!modelsLoaded ? (
              <p className="muted">Looking for models…</p>
            ) : localChats.length === 0 ? (
              <p className="muted">
                No language model on this computer yet: add one from the start dialog (“+ New run”),
                or fork onto a server’s model.
              </p>
            ) : (
              <select
                className="select"
                aria-label="Language model file"
                data-testid="fork-chat-model"
                value={chatPath}
                onChange={(e) => setChatPath(e.target.value)}
              >
                {localChats.map((m) => (
                  <option key={m.path} value={m.path}>
                    {m.name}
                  </option>
                ))}
              </select>
            ))}
          {modelSource === 'server' && (
            <ServerModelPicker
              value={chatServer}
              onChange={setChatServer}
              testIdPrefix="fork-chat"
              purpose="chat"
            />
          )}
          <span className="field__hint">
            Embeddings stay this run’s
            {summary ? ` (${describe(summary.models.embedding)})` : ''}: its memories were embedded
            with them.
          </span>
        </div>
        <CostLayerFields
          value={costLayer}
          onChange={setCostLayer}
          testIdPrefix="fork"
          hint={
            changed
              ? 'The fork runs with these switches; this run keeps its own.'
              : 'As this run has them. Fork twice, the layer on and off, to compare their cost from this moment.'
          }
        />
        <GuardFields
          value={guards}
          onChange={setGuards}
          testIdPrefix="fork"
          hint={
            guardsChanged
              ? 'The fork runs with these guards; this run keeps its own.'
              : 'As this run has them.'
          }
        />
        <FormActions
          className="dialog__actions"
          onCancel={onClose}
          submitTestId="fork-submit"
          disabled={!!pending || !modelReady}
        >
          {pending ?? 'Fork'}
        </FormActions>
      </form>
    </Dialog>
  );
}
