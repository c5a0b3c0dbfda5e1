/**
 * Brush and eraser: press to start a stroke, drag to paint, release to commit. A stroke is
 * one undo step (mark on enter, squash on release) and Escape bails back to the mark.
 */
import { StateNode, type StateNodeClass } from '../StateNode';
import type { TilePointer } from '../types';

class StrokeIdle extends StateNode {
  static override id = 'idle';
  override onPointerDown(p: TilePointer) {
    if (p.button !== 0) return;
    this.parent!.transition(this.parent!.id === 'eraser' ? 'erasing' : 'painting', p);
  }
}

/** The shared stroke state; `erase` decides the value written. */
abstract class Stroking extends StateNode {
  protected abstract readonly erase: boolean;
  private last: { x: number; y: number } | null = null;

  override onEnter(info?: unknown) {
    const p = info as TilePointer;
    if (!this.editor.beginStroke(this.erase ? 'erase' : 'paint', p)) {
      this.parent!.transition('idle');
      return;
    }
    this.last = { x: p.x, y: p.y };
  }
  override onPointerMove(p: TilePointer) {
    if (!this.last || (p.x === this.last.x && p.y === this.last.y)) return;
    this.editor.strokeTo(this.last, p);
    this.last = { x: p.x, y: p.y };
  }
  override onPointerUp() {
    this.last = null;
    this.editor.endGesture(true);
    this.parent!.transition('idle');
  }
  override onCancel() {
    this.last = null;
    this.editor.endGesture(false);
    this.parent!.transition('idle');
  }
}

class Painting extends Stroking {
  static override id = 'painting';
  protected readonly erase = false;
}
class Erasing extends Stroking {
  static override id = 'erasing';
  protected readonly erase = true;
}

export class BrushTool extends StateNode {
  static override id = 'brush';
  static override initial = 'idle';
  static override children = (): StateNodeClass[] => [StrokeIdle, Painting];
}

export class EraserTool extends StateNode {
  static override id = 'eraser';
  static override initial = 'idle';
  static override children = (): StateNodeClass[] => [StrokeIdle, Erasing];
}
