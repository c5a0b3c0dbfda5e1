/**
 * Rectangle: press a corner, drag (the overlay previews the rectangle), release to fill it.
 * Nothing is written until release, so Escape only drops the preview.
 */
import { StateNode, type StateNodeClass } from '../StateNode';
import { rectFrom, type TilePointer } from '../types';

class RectIdle extends StateNode {
  static override id = 'idle';
  override onPointerDown(p: TilePointer) {
    if (p.button === 0) this.parent!.transition('dragging', p);
  }
}

class Dragging extends StateNode {
  static override id = 'dragging';
  private start = { x: 0, y: 0 };
  override onEnter(info?: unknown) {
    const p = info as TilePointer;
    this.start = { x: p.x, y: p.y };
    this.editor.setPreview(rectFrom(this.start, p));
  }
  override onPointerMove(p: TilePointer) {
    this.editor.setPreview(rectFrom(this.start, p));
  }
  override onPointerUp(p: TilePointer) {
    this.editor.setPreview(null);
    this.editor.fillRect(rectFrom(this.start, p));
    this.parent!.transition('idle');
  }
  override onCancel() {
    this.editor.setPreview(null);
    this.parent!.transition('idle');
  }
}

export class RectTool extends StateNode {
  static override id = 'rect';
  static override initial = 'idle';
  static override children = (): StateNodeClass[] => [RectIdle, Dragging];
}
