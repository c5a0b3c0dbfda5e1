/** Flood fill: one click fills the 4-connected region of equal cells on the active layer. */
import { StateNode, type StateNodeClass } from '../StateNode';
import type { TilePointer } from '../types';

class FillIdle extends StateNode {
  static override id = 'idle';
  override onPointerDown(p: TilePointer) {
    if (p.button === 0) this.editor.floodFill(p.x, p.y);
  }
}

export class FillTool extends StateNode {
  static override id = 'fill';
  static override initial = 'idle';
  static override children = (): StateNodeClass[] => [FillIdle];
}
