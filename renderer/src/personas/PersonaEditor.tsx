/**
 * The persona editor: every Generative Agents identity field, the seed with a live preview of
 * the first memories it creates, home / known places / spawn picked from the tree, cognition
 * settings, the sprite, and this person's links in the seeds. Each field validates with the
 * persona schema (plus the tree for addresses) and commits through the document slice, so
 * edits autosave like every other edit.
 */
import { useMemo } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { resolveAddress } from '../../../common/scenario/address';
import { personaSchema, type Persona } from '../../../common/scenario/schema';
import { seedClauses } from '../../../common/scenario/seed';
import { useStudio } from '../stores/studioStore';
import { Field, IntegerField, TextField } from '../components/Field';
import { fieldResult, numberRange } from '../components/fieldMessages';
import { AddressMultiSelect, AddressSelect } from './AddressSelect';
import { SpriteImage, SpritePicker } from './SpritePicker';
import { homeWarning } from './homes';
import {
  COGNITION_DEFAULTS,
  deriveKnownPlaces,
  duplicatePersona,
  fullName,
  placeOptions,
  relationships,
} from './model';
import './personas.css';

const shape = personaSchema.shape;
const weightSchema = shape.retrievalWeights.unwrap().shape.recency;

const TEXT_FIELDS = [
  ['innate', 'Innate traits', 2, 'A few words: "kind, inquisitive, patient".'],
  ['learned', 'Learned traits', 4, 'Who they are, in a short paragraph.'],
  ['currently', 'Currently', 3, 'What they are doing in life right now.'],
  ['lifestyle', 'Lifestyle', 2, 'Sleep and daily rhythm.'],
  ['dailyPlanRequirement', 'Daily plan requirement', 2, 'What every daily plan must contain.'],
] as const;

/** A decimal field for the retrieval weights (the schema allows 0–100). */
function DecimalField(props: {
  label: string;
  value: number;
  onCommit(v: number): void;
  testId: string;
}) {
  return (
    <Field
      label={props.label}
      className="field--narrow"
      testId={props.testId}
      value={props.value}
      inputMode="numeric"
      format={(v) => String(v)}
      parse={(draft) => {
        const text = draft.replace(/\u2212/g, '-');
        if (!/^\s*-?\d+(\.\d+)?\s*$/.test(text))
          return { ok: false, message: `${props.label} must be a number, like 1 or 0.5` };
        return fieldResult(
          props.label,
          weightSchema.safeParse(Number(text)),
          numberRange(weightSchema),
        );
      }}
      onCommit={props.onCommit}
    />
  );
}

export function PersonaEditor({ persona }: { persona: Persona }) {
  const { update, updateDoc, select } = useStudio(
    useShallow((s) => ({
      update: s.updatePersona,
      updateDoc: s.updateDoc,
      select: s.selectPersona,
    })),
  );
  const tree = useStudio((s) => s.doc?.tree);
  const personas = useStudio((s) => s.doc?.personas);
  const set = (patch: Partial<Persona>) => update(persona.id, patch);

  const options = useMemo(() => (tree ? placeOptions(tree) : []), [tree]);
  const arenas = useMemo(() => options.filter((o) => o.kind === 'arena'), [options]);
  const links = useMemo(() => {
    const rows = personas ? relationships(personas) : [];
    const name = (id: string) => personas?.find((p) => p.id === id)?.firstName ?? id;
    return {
      mentions: (rows.find((r) => r.from === persona.id)?.to ?? []).map(name),
      mentionedBy: rows.filter((r) => r.to.includes(persona.id)).map((r) => name(r.from)),
    };
  }, [personas, persona.id]);
  if (!tree || !personas) return null;

  const home = resolveAddress(tree, persona.livingArea);
  const homeError =
    home?.arena && !home.object ? null : 'expected an arena of this town (pick one from the list)';
  const invalidPlaces = new Set(persona.knownPlaces.filter((a) => !resolveAddress(tree, a)));
  const clauses = seedClauses(persona.seed);
  const cognitionIsDefault =
    persona.visionRadius === COGNITION_DEFAULTS.visionRadius &&
    persona.attentionBandwidth === COGNITION_DEFAULTS.attentionBandwidth &&
    persona.retention === COGNITION_DEFAULTS.retention &&
    (['recency', 'relevance', 'importance'] as const).every(
      (k) => persona.retrievalWeights[k] === COGNITION_DEFAULTS.retrievalWeights[k],
    );

  const duplicate = () => {
    const copy = duplicatePersona(persona, personas);
    updateDoc((doc) => {
      const personasNext = doc.personas.slice();
      personasNext.splice(personasNext.findIndex((p) => p.id === persona.id) + 1, 0, copy);
      return { ...doc, personas: personasNext };
    });
    select(copy.id);
  };
  const remove = () => {
    if (!window.confirm(`Delete ${fullName(persona)}? Their seed and settings will be lost.`))
      return;
    select(null);
    updateDoc((doc) => ({ ...doc, personas: doc.personas.filter((p) => p.id !== persona.id) }));
  };

  return (
    <div className="persona-detail persona-editor" data-testid="persona-detail">
      <div className="persona-editor__bar">
        <button
          type="button"
          className="link-button back"
          data-testid="persona-back"
          onClick={() => select(null)}
        >
          ← All people
        </button>
        <span className="persona-editor__actions">
          <button
            type="button"
            className="chip-button"
            data-testid="persona-duplicate"
            onClick={duplicate}
          >
            Duplicate
          </button>
          <button
            type="button"
            className="chip-button chip-button--danger"
            data-testid="persona-delete"
            onClick={remove}
          >
            Delete
          </button>
        </span>
      </div>
      <div className="persona-detail__head">
        <span className="persona-editor__portrait">
          <SpriteImage name={persona.sprite} scale={2} />
        </span>
        <div>
          <div className="persona-detail__name" data-testid="persona-title">
            {fullName(persona)}
          </div>
          <div className="muted mono" title="Persona id (from the name when created)">
            {persona.id}
          </div>
        </div>
      </div>

      <h3 className="persona-editor__h">Identity</h3>
      <div className="field-row">
        <TextField
          label="First name"
          testId="persona-firstName"
          value={persona.firstName}
          schema={shape.firstName}
          onCommit={(firstName) => set({ firstName })}
        />
        <TextField
          label="Last name"
          testId="persona-lastName"
          value={persona.lastName}
          schema={shape.lastName}
          onCommit={(lastName) => set({ lastName })}
        />
        <IntegerField
          label="Age"
          className="field--narrow"
          testId="persona-age"
          value={persona.age}
          schema={shape.age}
          onCommit={(age) => set({ age })}
        />
      </div>
      {TEXT_FIELDS.map(([key, label, rows, placeholder]) => (
        <TextField
          key={key}
          label={label}
          multiline
          rows={rows}
          placeholder={placeholder}
          testId={`persona-${key}`}
          value={persona[key]}
          schema={shape[key]}
          onCommit={(v) => set({ [key]: v })}
        />
      ))}

      <h3 className="persona-editor__h">
        Seed memories{' '}
        <span className="panel__count" data-testid="seed-count">
          {clauses.length}
        </span>
      </h3>
      <TextField
        label="Seed paragraph"
        hideLabel
        multiline
        rows={5}
        testId="persona-seed"
        value={persona.seed}
        schema={shape.seed}
        placeholder="Ada runs the bakery; Ada knows Ben Ash, her neighbour; …"
        onCommit={(seed) => set({ seed })}
        hint="Each semicolon-separated clause becomes one first memory, as previewed below."
      />
      <ol
        className="seed-clauses"
        data-testid="seed-clauses"
        aria-label="Memories the seed creates"
      >
        {clauses.map((c, i) => (
          <li key={i}>{c}</li>
        ))}
        {clauses.length === 0 && <li className="muted">No seed memories yet.</li>}
      </ol>
      <p className="persona-editor__links muted" data-testid="persona-links">
        Mentions {links.mentions.length ? links.mentions.join(', ') : 'nobody'} · mentioned by{' '}
        {links.mentionedBy.length ? links.mentionedBy.join(', ') : 'nobody'}
      </p>

      <h3 className="persona-editor__h">Place</h3>
      <AddressSelect
        label="Home (living area)"
        testId="persona-home"
        value={persona.livingArea}
        options={arenas}
        error={homeError}
        warning={homeWarning(persona.livingArea)}
        onChange={(livingArea) => set({ livingArea })}
      />
      <AddressMultiSelect
        label="Known places"
        testId="persona-known"
        values={persona.knownPlaces}
        options={options}
        invalid={invalidPlaces}
        onChange={(knownPlaces) => set({ knownPlaces })}
        actions={
          <button
            type="button"
            className="link-button"
            data-testid="persona-derive-known"
            title="Home sector and arena, plus every place nobody lives in"
            onClick={() =>
              set({ knownPlaces: deriveKnownPlaces(tree, persona.livingArea, personas) })
            }
          >
            Derive defaults
          </button>
        }
      />
      <div className="field">
        <label className="field__label" htmlFor={`spawn-${persona.id}`}>
          Spawn point
        </label>
        <select
          id={`spawn-${persona.id}`}
          data-testid="persona-spawn"
          value={persona.spawn ?? ''}
          onChange={(e) => set({ spawn: e.target.value === '' ? null : Number(e.target.value) })}
        >
          <option value="">Anywhere in their home</option>
          {tree.spawns.map((s) => (
            <option key={s.zone} value={s.zone}>
              {s.name}
            </option>
          ))}
        </select>
        {persona.spawn !== null && !tree.spawns.some((s) => s.zone === persona.spawn) && (
          <div className="field__error" role="alert">
            spawn zone {persona.spawn} is not in this town
          </div>
        )}
      </div>

      <div className="persona-editor__h-row">
        <h3 className="persona-editor__h">Perception and memory</h3>
        <button
          type="button"
          className="link-button"
          data-testid="persona-reset-cognition"
          disabled={cognitionIsDefault}
          onClick={() =>
            set({
              ...COGNITION_DEFAULTS,
              retrievalWeights: { ...COGNITION_DEFAULTS.retrievalWeights },
            })
          }
        >
          Reset to defaults
        </button>
      </div>
      <div className="field-row field-row--thirds">
        <IntegerField
          label="Vision (tiles)"
          testId="persona-visionRadius"
          value={persona.visionRadius}
          schema={shape.visionRadius.unwrap()}
          onCommit={(visionRadius) => set({ visionRadius })}
        />
        <IntegerField
          label="Attention"
          testId="persona-attentionBandwidth"
          value={persona.attentionBandwidth}
          schema={shape.attentionBandwidth.unwrap()}
          onCommit={(attentionBandwidth) => set({ attentionBandwidth })}
        />
        <IntegerField
          label="Retention"
          testId="persona-retention"
          value={persona.retention}
          schema={shape.retention.unwrap()}
          onCommit={(retention) => set({ retention })}
        />
      </div>
      <div className="field__label persona-editor__sub">Retrieval weights</div>
      <div className="field-row field-row--thirds">
        {(['recency', 'relevance', 'importance'] as const).map((k) => (
          <DecimalField
            key={k}
            label={`${k[0].toUpperCase()}${k.slice(1)}`}
            testId={`persona-weight-${k}`}
            value={persona.retrievalWeights[k]}
            onCommit={(v) => set({ retrievalWeights: { ...persona.retrievalWeights, [k]: v } })}
          />
        ))}
      </div>

      <SpritePicker value={persona.sprite} onChange={(sprite) => set({ sprite })} />
    </div>
  );
}
