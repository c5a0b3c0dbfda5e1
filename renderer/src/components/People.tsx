/** The people list (add a resident, see who mentions whom) and the persona editor. */
import { useState } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { type Persona } from '../../../common/scenario/schema';
import { useStudio } from '../stores/studioStore';
import { PersonaEditor } from '../personas/PersonaEditor';
import { RelationshipsOverview } from '../personas/Relationships';
import { SpriteImage } from '../personas/SpritePicker';
import { fullName, newPersona } from '../personas/model';
import { Refusal } from './Refusal';
import { personNameRefusal } from './refusals';
import '../personas/personas.css';

export function PersonaList({ personas }: { personas: readonly Persona[] }) {
  const select = useStudio((s) => s.selectPersona);
  return (
    <>
      {personas.length === 0 ? (
        <p className="panel__empty muted">No residents yet. Add the first one below.</p>
      ) : (
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
                <span className="avatar avatar--sprite" aria-hidden>
                  <SpriteImage name={p.sprite} scale={1} />
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
      )}
      <AddPersona />
      <RelationshipsOverview personas={personas} onSelect={select} />
    </>
  );
}

/**
 * "Add person" asks for the name first: the id is made from it once, at creation, so it
 * never has to change under a selection or an open field.
 */
function AddPersona() {
  const { updateDoc, select } = useStudio(
    useShallow((s) => ({ updateDoc: s.updateDoc, select: s.selectPersona })),
  );
  const [open, setOpen] = useState(false);
  const [name, setName] = useState('');
  const parts = name.trim().split(/\s+/).filter(Boolean);
  // Said beside the field, with the limit, instead of only greying out "Add".
  const refused = personNameRefusal(name);
  const create = () => {
    if (refused) return;
    const [first, ...rest] = parts;
    let id = '';
    updateDoc((doc) => {
      const p = newPersona(doc.tree, doc.personas, first, rest.join(' '));
      id = p.id;
      return { ...doc, personas: [...doc.personas, p] };
    });
    setOpen(false);
    setName('');
    if (id) select(id);
  };
  if (!open) {
    return (
      <button
        type="button"
        className="button add-persona"
        data-testid="persona-add"
        onClick={() => setOpen(true)}
      >
        + Add person
      </button>
    );
  }
  return (
    <form
      className="add-persona-form"
      onSubmit={(e) => {
        e.preventDefault();
        create();
      }}
    >
      <input
        autoFocus
        data-testid="persona-add-name"
        aria-label="Full name of the new person"
        placeholder="Full name, e.g. Ada Lovell"
        value={name}
        aria-invalid={refused && name ? true : undefined}
        onChange={(e) => setName(e.target.value)}
        onKeyDown={(e) => e.key === 'Escape' && setOpen(false)}
      />
      <button
        type="submit"
        className="button button--primary"
        data-testid="persona-add-confirm"
        disabled={!!refused}
        title={refused ?? undefined}
      >
        Add
      </button>
      <button type="button" className="button" onClick={() => setOpen(false)}>
        Cancel
      </button>
      <Refusal testId="persona-add-error" text={refused} />
    </form>
  );
}

export function PersonaDetail({ persona }: { persona: Persona }) {
  // Keyed by persona id: switching people must not carry one person's draft to the next.
  return <PersonaEditor key={persona.id} persona={persona} />;
}
