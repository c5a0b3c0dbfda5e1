/** Hand: drag to pan the camera. Never touches the document or history. */
import { StateNode, type StateNodeClass } from '../StateNode';
import type { TilePointer } from '../types';

class HandIdle extends StateNode {
  static override id = 'idle';
  override onPointerDown(p: TilePointer) {
    this.parent!.transition('panning', p);
  }
}

class Panning extends StateNode {
  static override id = 'panning';
  private last = { x: 0, y: 0 };
  override onEnter(info?: unknown) {
    this.last = { ...(info as TilePointer).screen };
  }
  override onPointerMove(p: TilePointer) {
    this.editor.panBy(p.screen.x - this.last.x, p.screen.y - this.last.y);
    this.last = { ...p.screen };
  }
  override onPointerUp() {
    this.parent!.transition('idle');
  }
  override onCancel() {
    this.parent!.transition('idle');
  }
}

export class HandTool extends StateNode {
  static override id = 'hand';
  static override initial = 'idle';
  static override children = (): StateNodeClass[] => [HandIdle, Panning];
}
