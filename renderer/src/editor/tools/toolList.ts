/** The map tools with their toolbar metadata (Tiled-style declarations read by the toolbar,
 * the shortcut registry and the status bar). */

/** Tool ids, in toolbar order. */
export type ToolId = 'brush' | 'rect' | 'fill' | 'eraser' | 'picker' | 'hand' | 'select';

/** Toolbar metadata per tool (Tiled-style declarations read by the toolbar and help). */
export const TOOLS: readonly {
  id: ToolId;
  label: string;
  shortcut: string;
  hint: string;
}[] = [
  { id: 'brush', label: 'Brush', shortcut: 'B', hint: 'Drag to paint the active layer' },
  { id: 'rect', label: 'Rectangle', shortcut: 'R', hint: 'Drag a rectangle to fill it' },
  { id: 'fill', label: 'Fill', shortcut: 'F', hint: 'Click to flood-fill an area' },
  {
    id: 'eraser',
    label: 'Eraser',
    shortcut: 'E',
    hint: 'Drag to clear the active layer',
  },
  {
    id: 'picker',
    label: 'Picker',
    shortcut: 'I',
    hint: 'Click to pick what is under the cursor',
  },
  { id: 'hand', label: 'Hand', shortcut: 'H', hint: 'Drag to pan (or hold Space)' },
  {
    id: 'select',
    label: 'Select',
    shortcut: 'V',
    hint: 'Drag to select; Ctrl+C / Ctrl+V',
  },
];
