/** Picker: click a tile to take its value on the active layer, then go back to the brush. */
import { StateNode, type StateNodeClass } from '../StateNode';
import type { TilePointer } from '../types';

class PickerIdle extends StateNode {
  static override id = 'idle';
  override onPointerDown(p: TilePointer) {
    if (p.button !== 0) return;
    if (this.editor.pickAt(p.x, p.y)) this.editor.setTool('brush');
  }
}

export class PickerTool extends StateNode {
  static override id = 'picker';
  static override initial = 'idle';
  static override children = (): StateNodeClass[] => [PickerIdle];
}
