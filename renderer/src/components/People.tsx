/** The personas list and one persona's fields (the full persona editor comes later). */
import { personaSchema, type Persona } from '../../../common/scenario/schema';
import { seedClauses } from '../../../common/scenario/seed';
import { useStudio } from '../stores/studioStore';
import { IntegerField, TextField } from './Field';

export function PersonaList({ personas }: { personas: readonly Persona[] }) {
  const select = useStudio((s) => s.selectPersona);
  if (personas.length === 0) {
    return (
      <p className="panel__empty muted">
        No residents yet. The persona editor will let you write them.
      </p>
    );
  }
  return (
    <ul className="persona-list" data-testid="persona-list">
      {personas.map((p) => (
        <li key={p.id}>
          <button
            type="button"
            className="persona-item"
            data-testid="persona-item"
            data-persona-id={p.id}
            onClick={() => select(p.id)}
          >
            <span className="avatar" aria-hidden style={{ background: avatarColor(p.id) }}>
              {initials(p)}
            </span>
            <span className="persona-item__text">
              <span className="persona-item__name" data-testid="persona-name">
                {fullName(p)} <span className="muted">{p.age}</span>
              </span>
              <span className="persona-item__innate">{p.innate}</span>
            </span>
          </button>
        </li>
      ))}
    </ul>
  );
}

/** Text fields of one persona, each validated by its own schema and autosaved as typed. */
const TEXT_FIELDS = [
  ['innate', 'Innate traits', 2],
  ['learned', 'Learned traits', 4],
  ['currently', 'Currently', 3],
  ['lifestyle', 'Lifestyle', 2],
  ['dailyPlanRequirement', 'Daily plan needs', 2],
] as const;

export function PersonaDetail({ persona }: { persona: Persona }) {
  const update = useStudio((s) => s.updatePersona);
  const select = useStudio((s) => s.selectPersona);
  const set = (patch: Partial<Persona>) => update(persona.id, patch);
  const clauses = seedClauses(persona.seed);
  const shape = personaSchema.shape;
  // Keyed by persona id: switching people must not carry one person's draft to the next.
  return (
    <div className="persona-detail" data-testid="persona-detail" key={persona.id}>
      <button
        type="button"
        className="link-button back"
        data-testid="persona-back"
        onClick={() => select(null)}
      >
        ← All people
      </button>
      <div className="persona-detail__head">
        <span
          className="avatar avatar--lg"
          aria-hidden
          style={{ background: avatarColor(persona.id) }}
        >
          {initials(persona)}
        </span>
        <div>
          <div className="persona-detail__name">{fullName(persona)}</div>
          <div className="muted mono">{persona.livingArea}</div>
        </div>
      </div>
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
      {TEXT_FIELDS.map(([key, label, rows]) => (
        <TextField
          key={key}
          label={label}
          multiline
          rows={rows}
          testId={`persona-${key}`}
          value={persona[key]}
          schema={shape[key]}
          onCommit={(v) => set({ [key]: v })}
        />
      ))}
      <TextField
        label="Seed memories"
        multiline
        rows={4}
        testId="persona-seed"
        value={persona.seed}
        schema={shape.seed}
        onCommit={(seed) => set({ seed })}
        hint="Separate memories with semicolons; each clause becomes one first memory."
      />
      <ol className="seed-clauses" data-testid="seed-clauses" aria-label="Seed memories as clauses">
        {clauses.map((c, i) => (
          <li key={i}>{c}</li>
        ))}
        {clauses.length === 0 && <li className="muted">No seed memories yet.</li>}
      </ol>
      <dl className="facts">
        <dt>Home</dt>
        <dd className="mono">{persona.livingArea}</dd>
        <dt>Knows</dt>
        <dd>
          {persona.knownPlaces.length ? (
            persona.knownPlaces.join(', ')
          ) : (
            <span className="muted">home, work and public places (default)</span>
          )}
        </dd>
        <dt>Perception</dt>
        <dd>
          vision {persona.visionRadius} tiles · attention {persona.attentionBandwidth} · retention{' '}
          {persona.retention}
        </dd>
      </dl>
    </div>
  );
}

function fullName(p: Persona): string {
  return [p.firstName, p.lastName].filter(Boolean).join(' ');
}

function initials(p: Persona): string {
  return (p.firstName[0] ?? '') + (p.lastName[0] ?? '');
}

function avatarColor(id: string): string {
  let h = 0;
  for (const ch of id) h = (h * 31 + ch.charCodeAt(0)) % 360;
  return `hsl(${h}, 45%, 42%)`;
}
