/**
 * The right panel: live validation, the town's description, its environment tree (with the
 * selected node's details) and its people.
 */
import { useState, type ReactNode } from 'react';
import { scenarioShape } from '../../../common/scenario/schema';
import { useStudio } from '../stores/studioStore';
import { TextField } from './Field';
import { EnvTreeView } from './EnvTreeView';
import { PersonaDetail, PersonaList } from './People';
import { NodeDetails } from './NodeDetails';
import { ValidationPanel } from './ValidationPanel';

export function RightPanel() {
  const docId = useStudio((s) => s.doc?.id);
  const description = useStudio((s) => s.doc?.description ?? '');
  const tree = useStudio((s) => s.doc?.tree);
  const personas = useStudio((s) => s.doc?.personas);
  const selectedId = useStudio((s) => s.selectedPersonaId);
  const updateDoc = useStudio((s) => s.updateDoc);
  if (!docId || !tree || !personas) return null;
  const selected = personas.find((p) => p.id === selectedId);

  return (
    <aside className="panel" aria-label="Town details">
      <Section title="Validation" testId="validation-section">
        <ValidationPanel />
      </Section>
      {selected ? (
        <PersonaDetail persona={selected} />
      ) : (
        <>
          <Section title="About">
            <TextField
              key={docId}
              label="Description"
              hideLabel
              multiline
              rows={3}
              testId="scenario-description"
              placeholder="What is this town about?"
              value={description}
              schema={scenarioShape.shape.description}
              onCommit={(v) => updateDoc((d) => ({ ...d, description: v }))}
            />
          </Section>
          <Section title="Environment" count={tree.sectors.length}>
            <EnvTreeView tree={tree} />
            <NodeDetails />
          </Section>
          <Section title="People" count={personas.length} testId="people-section">
            <PersonaList personas={personas} />
          </Section>
        </>
      )}
    </aside>
  );
}

function Section({
  title,
  count,
  children,
  testId,
}: {
  title: string;
  count?: number;
  children: ReactNode;
  testId?: string;
}) {
  const [open, setOpen] = useState(true);
  return (
    <section className="panel__section" data-testid={testId}>
      <button
        type="button"
        className="panel__heading"
        aria-expanded={open}
        onClick={() => setOpen(!open)}
      >
        <span className={`tree__chevron ${open ? 'tree__chevron--open' : ''}`} aria-hidden>
          ▸
        </span>
        {title}
        {count !== undefined && <span className="panel__count">{count}</span>}
      </button>
      {open && <div className="panel__body">{children}</div>}
    </section>
  );
}
