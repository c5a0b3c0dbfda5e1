/** The editor's vertical tool strip: tools with their shortcuts, then undo and redo. */
import { useStore } from 'zustand';
import type { MapEditor } from '../editor/MapEditor';
import { TOOLS } from '../editor/tools/toolList';
import { useStudio } from '../stores/studioStore';
import { EditorIcon } from './EditorIcons';

export function ToolStrip({ editor }: { editor: MapEditor }) {
  const tool = useStore(editor.ui, (s) => s.tool);
  const canUndo = useStudio((s) => s.canUndo);
  const canRedo = useStudio((s) => s.canRedo);
  return (
    <div className="tool-strip" role="toolbar" aria-label="Map tools" aria-orientation="vertical">
      {TOOLS.map((t) => (
        <button
          key={t.id}
          type="button"
          className={`tool-strip__tool ${tool === t.id ? 'tool-strip__tool--active' : ''}`}
          aria-pressed={tool === t.id}
          data-testid={`tool-${t.id}`}
          title={`${t.label} (${t.shortcut}) — ${t.hint}`}
          onClick={() => editor.setTool(t.id)}
        >
          <EditorIcon name={t.id} />
          <kbd>{t.shortcut}</kbd>
        </button>
      ))}
      <span className="tool-strip__sep" />
      <button
        type="button"
        className="tool-strip__tool"
        data-testid="undo"
        title="Undo (Ctrl+Z)"
        disabled={!canUndo}
        onClick={() => editor.undo()}
      >
        <EditorIcon name="undo" />
      </button>
      <button
        type="button"
        className="tool-strip__tool"
        data-testid="redo"
        title="Redo (Ctrl+Shift+Z / Ctrl+Y)"
        disabled={!canRedo}
        onClick={() => editor.redo()}
      >
        <EditorIcon name="redo" />
      </button>
    </div>
  );
}
