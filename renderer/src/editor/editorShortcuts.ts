/**
 * The map editor's keyboard shortcuts: one declaration per key, read by `MapEditor.keyDown`
 * (which answers exactly these) and by the shortcut sheet (which lists exactly these).
 */
import type { Shortcut } from '../shortcuts/chord';
import type { MapEditor } from './MapEditor';
import { TOOLS } from './tools/toolList';

/** A map shortcut: returns true when it acted (the caller then prevents the key's default). */
export interface EditorShortcut extends Shortcut {
  run(editor: MapEditor): boolean;
}

export const EDITOR_SHORTCUTS: readonly EditorShortcut[] = [
  ...TOOLS.map((t): EditorShortcut => ({
    id: `tool.${t.id}`,
    keys: [t.shortcut],
    label: `${t.label} tool — ${t.hint[0].toLowerCase()}${t.hint.slice(1)}`,
    run: (editor) => (editor.setTool(t.id), true),
  })),
  {
    id: 'view.holdToPan',
    keys: ['Space'],
    label: 'Hold to pan with the hand, whatever the tool',
    run: (editor) => (editor.holdSpace(), true),
  },
  {
    id: 'edit.cancel',
    keys: ['Escape'],
    label: 'Cancel the stroke or drag in progress',
    run: (editor) => (editor.cancel(), true),
  },
  { id: 'edit.undo', keys: ['Ctrl+Z'], label: 'Undo', run: (editor) => (editor.undo(), true) },
  {
    id: 'edit.redo',
    keys: ['Ctrl+Shift+Z', 'Ctrl+Y'],
    label: 'Redo',
    run: (editor) => (editor.redo(), true),
  },
  // Without a selection / clipboard the browser's own copy and paste stay in charge.
  {
    id: 'edit.copy',
    keys: ['Ctrl+C'],
    label: 'Copy the selected region (Select tool)',
    run: (editor) => editor.copy(),
  },
  {
    id: 'edit.paste',
    keys: ['Ctrl+V'],
    label: 'Paste the copied region at the pointer',
    run: (editor) => editor.paste(),
  },
];
