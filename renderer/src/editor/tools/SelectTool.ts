/**
 * Select: drag a rectangle to select a region (session state, never history); Ctrl+C copies
 * it from every layer and Ctrl+V pastes at the hovered tile.
 */
import { StateNode, type StateNodeClass } from '../StateNode';
import { rectFrom, type TilePointer, type TileRect } from '../types';

class SelectIdle extends StateNode {
  static override id = 'idle';
  override onPointerDown(p: TilePointer) {
    if (p.button === 0) this.parent!.transition('selecting', p);
  }
}

class Selecting extends StateNode {
  static override id = 'selecting';
  private start = { x: 0, y: 0 };
  private before: TileRect | null = null;
  override onEnter(info?: unknown) {
    const p = info as TilePointer;
    this.before = this.editor.getSelection();
    this.start = { x: p.x, y: p.y };
    this.editor.setSelection(rectFrom(this.start, p));
  }
  override onPointerMove(p: TilePointer) {
    this.editor.setSelection(rectFrom(this.start, p));
  }
  override onPointerUp() {
    this.parent!.transition('idle');
  }
  override onCancel() {
    this.editor.setSelection(this.before);
    this.parent!.transition('idle');
  }
}

export class SelectTool extends StateNode {
  static override id = 'select';
  static override initial = 'idle';
  static override children = (): StateNodeClass[] => [SelectIdle, Selecting];
}
