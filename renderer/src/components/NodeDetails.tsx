/** Details of the tree node selected on the map or in the tree: name, description, state. */
import { useStore } from 'zustand';
import { objectSchema } from '../../../common/scenario/schema';
import { findNode, nodeAddress } from '../editor/tree';
import { useStudio, useStudioStore } from '../stores/studioStore';
import { TextField } from './Field';

const KIND_LABEL = { sector: 'Sector', arena: 'Arena', object: 'Object', spawn: 'Spawn point' };

export function NodeDetails() {
  const editor = useStudioStore().editor;
  const selected = useStore(editor.ui, (s) => s.selectedNode);
  const tree = useStudio((s) => s.doc?.tree);
  if (!selected || !tree) return null;
  const node = findNode(tree, selected);
  if (!node) return null;
  const key = `${selected.kind}-${selected.zone}`;
  return (
    <div className="node-details" data-testid="node-details">
      <div className="node-details__head">
        <span className="node-details__kind">{KIND_LABEL[selected.kind]}</span>
        <span className="node-details__address mono">{nodeAddress(tree, selected)}</span>
      </div>
      <TextField
        key={`name-${key}`}
        label="Name"
        testId="node-name"
        value={node.name}
        schema={objectSchema.shape.name}
        onCommit={(v) => editor.renameNode(selected, v)}
      />
      {selected.kind !== 'spawn' && (
        <TextField
          key={`desc-${key}`}
          label="Description"
          multiline
          rows={2}
          testId="node-description"
          placeholder="What is here? Agents read this."
          value={node.description}
          schema={objectSchema.shape.description.unwrap()}
          onCommit={(v) => editor.updateNode(selected, { description: v })}
        />
      )}
      {selected.kind === 'object' && (
        <TextField
          key={`state-${key}`}
          label="Default state"
          testId="node-state"
          placeholder="idle"
          value={node.defaultState ?? 'idle'}
          schema={objectSchema.shape.defaultState.unwrap()}
          onCommit={(v) => editor.updateNode(selected, { defaultState: v })}
        />
      )}
    </div>
  );
}
