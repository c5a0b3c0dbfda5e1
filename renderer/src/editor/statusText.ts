/**
 * The status bar's words for the editor's state chart: "Hand — drag to pan (or hold Space)"
 * while idle, "Brush — painting; release to finish, Esc to cancel" mid-gesture. The dotted
 * path ("hand.idle") stays for tests as the canvas's `data-tool-path`; people read this.
 */
import { TOOLS } from './tools/toolList';

/** What each gesture state is doing, for the status bar. */
const GESTURES: Record<string, string> = {
  painting: 'painting; release to finish, Esc to cancel',
  erasing: 'erasing; release to finish, Esc to cancel',
  dragging: 'drawing a rectangle; release to fill it, Esc to cancel',
  panning: 'panning; release to stop',
  selecting: 'selecting; release to keep the selection, then Ctrl+C',
};

/** "hand.idle" → "Hand — drag to pan (or hold Space)". */
export function toolStatus(path: string): string {
  const [toolId, state = 'idle'] = path.split('.');
  const tool = TOOLS.find((t) => t.id === toolId);
  if (!tool) return path;
  const doing =
    state === 'idle' ? tool.hint[0].toLowerCase() + tool.hint.slice(1) : (GESTURES[state] ?? state);
  return `${tool.label} — ${doing}`;
}
