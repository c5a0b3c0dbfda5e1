/**
 * "New experiment" for the open town: the conditions grid (ablation rows × cost layer off/on,
 * small-model guards on, paper-exact or both),
 * the chat models compared (the first is the experiment's; each further one repeats the picked
 * cells on it) or one model on a server, the embedding model (a folder or a server's), seeds,
 * game minutes per cell and interview depth.
 */
import { useEffect, useMemo, useState } from 'react';
import { serverModelRef, type ServerModelChoice } from '../../../common/api/servers';
import {
  ModelSourceSwitch,
  ServerModelPicker,
  type ModelSource,
} from '../servers/ServerModelPicker';
import { SMALLEST_EXPERIMENT } from '../../../common/api/lab';
import type { Scenario } from '../../../common/scenario/schema';
import { LabelledField } from '../components/LabelledField';
import { Refusal } from '../components/Refusal';
import { LAB_LIMITS, numberRefusal } from '../components/refusals';
import {
  ABLATION_LABELS,
  GRID_ROWS,
  GUARD_MODE_LABELS,
  GUARD_MODES,
  buildConditions,
  cellKey,
  conditionName,
  type GuardMode,
} from './conditions';
import type { LabState } from './labStore';

export function ExperimentForm({
  doc,
  lab,
}: {
  doc: Scenario;
  lab: Pick<
    LabState,
    'models' | 'modelsDir' | 'modelsLoaded' | 'pending' | 'create' | 'liveRun' | 'experiments'
  >;
}) {
  const chats = useMemo(() => lab.models.filter((m) => m.kind === 'chat'), [lab.models]);
  const embedders = useMemo(() => lab.models.filter((m) => m.kind === 'embedding'), [lab.models]);
  const [picked, setPicked] = useState<Set<string>>(
    () =>
      new Set([
        cellKey({ ablation: 'full', costLayer: false }),
        cellKey({ ablation: 'full', costLayer: true }),
      ]),
  );
  const [chatModels, setChatModels] = useState<string[]>([]);
  const [embedPath, setEmbedPath] = useState('');
  const [chatSource, setChatSource] = useState<ModelSource>('file');
  const [embedSource, setEmbedSource] = useState<ModelSource>('file');
  const [chatServer, setChatServer] = useState<ServerModelChoice | null>(null);
  const [embedServer, setEmbedServer] = useState<ServerModelChoice | null>(null);
  const [name, setName] = useState('');
  // The smallest experiment by default: it ends with its report within minutes.
  const [seeds, setSeeds] = useState<number>(SMALLEST_EXPERIMENT.seeds);
  const [minutes, setMinutes] = useState<number>(SMALLEST_EXPERIMENT.gameMinutes);
  const [battery, setBattery] = useState<number>(SMALLEST_EXPERIMENT.batteryPerCategory);
  const [guardMode, setGuardMode] = useState<GuardMode>('on');

  // Default to the first local models once they are known.
  useEffect(() => {
    if (chatModels.length === 0 && chats[0]) setChatModels([chats[0].path]);
    if (!embedPath && embedders[0]) setEmbedPath(embedders[0].path);
  }, [chats, embedders, chatModels.length, embedPath]);

  // One model job at a time: a live run or a running experiment keeps the button off, saying why.
  const runningExperiment = lab.experiments.find((e) => e.status === 'running');
  const busy = lab.liveRun
    ? {
        text: `Close run “${lab.liveRun.name}” first.`,
        why: `Run “${lab.liveRun.name}” is live; close it first`,
      }
    : runningExperiment
      ? {
          text: `Experiment “${runningExperiment.name}” is running: wait for its report or cancel it.`,
          why: `Experiment “${runningExperiment.name}” is running; one experiment at a time`,
        }
      : null;
  // On a server the experiment runs one model; comparing models is done with local files.
  const onServer = chatSource === 'server';
  const design = buildConditions(
    picked,
    onServer ? (chatServer?.model ? [serverModelRef(chatServer)] : []) : chatModels,
    guardMode,
  );
  const cells = (design?.conditions.length ?? 0) * seeds;
  // Each number refused says why, with its limit, under its field.
  const refused = {
    seeds: numberRefusal('Seeds', seeds, LAB_LIMITS.seeds, true),
    minutes: numberRefusal('Game minutes per cell', minutes, LAB_LIMITS.gameMinutes),
    battery: numberRefusal('Interview questions per category', battery, LAB_LIMITS.battery, true),
  };
  const valid =
    design !== null &&
    (embedSource === 'file' ? embedPath !== '' : !!embedServer?.model) &&
    !refused.seeds &&
    !refused.minutes &&
    !refused.battery &&
    doc.personas.length > 0;

  const toggleCell = (key: string) =>
    setPicked((p) => {
      const next = new Set(p);
      if (next.has(key)) next.delete(key);
      else next.add(key);
      return next;
    });
  const toggleModel = (path: string) =>
    setChatModels((m) => (m.includes(path) ? m.filter((x) => x !== path) : [...m, path]));

  const submit = async () => {
    if (!design || !valid) return;
    await lab.create({
      scenario: doc,
      scenarioId: doc.id,
      name: name.trim() || undefined,
      conditions: design.conditions,
      baseline: design.baseline,
      seeds,
      gameMinutes: minutes,
      ...(onServer && chatServer ? { chatServer } : { chatModelPath: chatModels[0] }),
      ...(embedSource === 'server' && embedServer
        ? { embeddingServer: embedServer }
        : { embeddingModelPath: embedPath }),
      batteryPerCategory: battery,
    });
  };

  return (
    <form
      className="lab-form"
      data-testid="lab-form"
      onSubmit={(e) => {
        e.preventDefault();
        // Enter in a field submits too: refused here as the button is, while a job runs.
        if (!busy) void submit();
      }}
    >
      <h3 className="lab__heading">New experiment on “{doc.name}”</h3>
      <table className="lab-grid" data-testid="lab-grid">
        <thead>
          <tr>
            <th scope="col">Architecture</th>
            <th scope="col">Cost layer off</th>
            <th scope="col">Cost layer on</th>
          </tr>
        </thead>
        <tbody>
          {GRID_ROWS.map((ablation) => (
            <tr key={ablation}>
              <th scope="row">{ABLATION_LABELS[ablation]}</th>
              {[false, true].map((costLayer) => {
                const key = cellKey({ ablation, costLayer });
                const condition = conditionName({ ablation, costLayer });
                return (
                  <td key={key}>
                    <label className="lab-grid__cell">
                      <input
                        type="checkbox"
                        data-testid={`lab-cell-${condition}`}
                        checked={picked.has(key)}
                        onChange={() => toggleCell(key)}
                      />
                      <span className="lab-grid__name">{condition}</span>
                    </label>
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
      <p className="field__hint">
        The cost layer is lifestyle policy, social memory and mind wandering together (Affordable
        Generative Agents). Ratios are taken against{' '}
        <strong data-testid="lab-baseline">{design?.baseline ?? '–'}</strong>.
      </p>
      <LabelledField label="Small-model guards (see the README's guard table)">
        <select
          className="select"
          data-testid="lab-guards"
          value={guardMode}
          onChange={(e) => setGuardMode(e.target.value as GuardMode)}
        >
          {GUARD_MODES.map((m) => (
            <option key={m} value={m}>
              {GUARD_MODE_LABELS[m]}
            </option>
          ))}
        </select>
      </LabelledField>

      <fieldset className="lab-models">
        <legend className="field__label">
          {onServer ? 'Language model' : 'Language models compared'}
        </legend>
        <ModelSourceSwitch
          value={chatSource}
          onChange={setChatSource}
          label="Where the language model runs"
          testIdPrefix="lab-chat"
        />
        {onServer ? (
          <ServerModelPicker
            value={chatServer}
            onChange={setChatServer}
            testIdPrefix="lab-chat"
            purpose="chat"
          />
        ) : !lab.modelsLoaded ? (
          <p className="muted">Looking for models…</p>
        ) : chats.length === 0 ? (
          <p className="muted" data-testid="lab-no-models">
            No language model yet. Add one when you start a run: “+ New run” under “Runs of this
            town”, then download the recommended model, or type the full path of a GGUF file you
            have and press “Use this file” (it is remembered and listed here). Or copy a .gguf file
            into {lab.modelsDir || 'the models folder'}. Or pick “A model on a server”.
          </p>
        ) : (
          chats.map((m) => (
            <label key={m.path} className="lab-models__row">
              <input
                type="checkbox"
                data-testid={`lab-chat-${m.name}`}
                checked={chatModels.includes(m.path)}
                onChange={() => toggleModel(m.path)}
              />
              {m.name}
              {chatModels[0] === m.path && chatModels.length > 1 && (
                <span className="muted"> (the experiment’s model)</span>
              )}
            </label>
          ))
        )}
      </fieldset>
      <fieldset className="lab-models">
        <legend className="field__label">Embedding model</legend>
        <ModelSourceSwitch
          value={embedSource}
          onChange={setEmbedSource}
          label="Where the embedding model runs"
          testIdPrefix="lab-embedding"
        />
        {embedSource === 'server' ? (
          <ServerModelPicker
            value={embedServer}
            onChange={setEmbedServer}
            testIdPrefix="lab-embedding"
            purpose="embedding"
          />
        ) : (
          <select
            className="select"
            aria-label="Embedding model folder"
            data-testid="lab-embedding"
            value={embedPath}
            onChange={(e) => setEmbedPath(e.target.value)}
          >
            {embedders.length === 0 && <option value="">none found</option>}
            {embedders.map((m) => (
              <option key={m.path} value={m.path}>
                {m.name}
              </option>
            ))}
          </select>
        )}
      </fieldset>

      <div className="lab-form__grid">
        <LabelledField label="Name">
          <input
            data-testid="lab-name"
            placeholder={`${doc.name} experiment`}
            value={name}
            maxLength={200}
            onChange={(e) => setName(e.target.value)}
          />
        </LabelledField>
        <LabelledField label="Seeds">
          <input
            type="number"
            min={LAB_LIMITS.seeds.min}
            max={LAB_LIMITS.seeds.max}
            data-testid="lab-seeds"
            aria-invalid={refused.seeds ? true : undefined}
            value={seeds}
            onChange={(e) => setSeeds(Math.round(Number(e.target.value)))}
          />
          <Refusal testId="lab-seeds-error" text={refused.seeds} />
        </LabelledField>
        <LabelledField label="Game minutes per cell">
          <input
            type="number"
            min={LAB_LIMITS.gameMinutes.min}
            max={LAB_LIMITS.gameMinutes.max}
            data-testid="lab-minutes"
            aria-invalid={refused.minutes ? true : undefined}
            value={minutes}
            onChange={(e) => setMinutes(Number(e.target.value))}
          />
          <Refusal testId="lab-minutes-error" text={refused.minutes} />
        </LabelledField>
        <LabelledField label="Interview questions per category">
          <input
            type="number"
            min={LAB_LIMITS.battery.min}
            max={LAB_LIMITS.battery.max}
            data-testid="lab-battery"
            aria-invalid={refused.battery ? true : undefined}
            value={battery}
            onChange={(e) => setBattery(Math.round(Number(e.target.value)))}
          />
          <Refusal testId="lab-battery-error" text={refused.battery} />
        </LabelledField>
      </div>
      {doc.personas.length === 0 && (
        <p className="field__error">This town has no people yet: add someone to experiment on.</p>
      )}
      <div className="lab-form__actions">
        <span className="muted" data-testid="lab-cells">
          {cells} cell{cells === 1 ? '' : 's'} ({design?.conditions.length ?? 0} condition
          {design?.conditions.length === 1 ? '' : 's'} × {seeds} seed{seeds === 1 ? '' : 's'})
        </span>
        {busy && (
          <span className="muted" data-testid="lab-create-blocked">
            {busy.text}
          </span>
        )}
        <button
          type="submit"
          className="button button--primary"
          data-testid="lab-create"
          disabled={!valid || lab.pending === 'create' || busy !== null}
          title={busy?.why}
        >
          {lab.pending === 'create' ? 'Starting…' : 'Run experiment'}
        </button>
      </div>
    </form>
  );
}
