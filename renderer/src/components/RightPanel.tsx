/**
 * The right panel: live validation, the town's description, its environment tree (with the
 * selected node's details) and its people.
 */
import { scenarioShape } from '../../../common/scenario/schema';
import { useStudio } from '../stores/studioStore';
import { TextField } from './Field';
import { EnvTreeView } from './EnvTreeView';
import { PersonaDetail, PersonaList } from './People';
import { NodeDetails } from './NodeDetails';
import { ValidationPanel } from './ValidationPanel';
import { PanelSection } from './PanelSection';

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
      <PanelSection title="Validation" testId="validation-section">
        <ValidationPanel />
      </PanelSection>
      {selected ? (
        <PersonaDetail persona={selected} />
      ) : (
        <>
          <PanelSection title="About">
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
          </PanelSection>
          <PanelSection title="Environment" count={tree.sectors.length}>
            <EnvTreeView tree={tree} />
            <NodeDetails />
          </PanelSection>
          <PanelSection title="People" count={personas.length} testId="people-section">
            <PersonaList personas={personas} />
          </PanelSection>
        </>
      )}
    </aside>
  );
}
