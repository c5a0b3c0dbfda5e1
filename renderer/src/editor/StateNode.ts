/**
 * Tools as small state charts (tldraw's StateNode idea, in our words): a node has an id, an
 * optional initial child and children; events go to the node first, then to its active
 * child; `getPath()` names the active chain ("brush.painting") for tests and the status bar.
 */
import type { MapEditor } from './MapEditor';
import type { TilePointer } from './types';

/** Events a state may handle. Every handler is optional. */
export interface StateEvents {
  onPointerDown?(p: TilePointer): void;
  onPointerMove?(p: TilePointer): void;
  onPointerUp?(p: TilePointer): void;
  /** Escape, or the tool being switched away mid-gesture: undo whatever the gesture wrote. */
  onCancel?(): void;
  onEnter?(info?: unknown): void;
  onExit?(): void;
}

export type StateEventName = 'onPointerDown' | 'onPointerMove' | 'onPointerUp' | 'onCancel';

export type StateNodeClass = (new (editor: MapEditor, parent: StateNode | null) => StateNode) & {
  id: string;
  initial?: string;
  children?: () => StateNodeClass[];
};

export abstract class StateNode implements StateEvents {
  static id: string;
  static initial?: string;
  static children?: () => StateNodeClass[];

  readonly id: string;
  private readonly kids = new Map<string, StateNode>();
  private current: StateNode | null = null;

  constructor(
    protected readonly editor: MapEditor,
    readonly parent: StateNode | null,
  ) {
    const cls = this.constructor as StateNodeClass;
    this.id = cls.id;
    for (const Child of cls.children?.() ?? []) this.kids.set(Child.id, new Child(editor, this));
    if (cls.initial) this.current = this.kids.get(cls.initial) ?? null;
  }

  /** "brush.painting": this node and its active descendants, dotted. */
  getPath(): string {
    return this.current ? `${this.id}.${this.current.getPath()}` : this.id;
  }

  getCurrent(): StateNode | null {
    return this.current;
  }

  /** Switches the active child (exiting the old one, entering the new one with `info`). */
  transition(id: string, info?: unknown): void {
    const next = this.kids.get(id);
    if (!next) throw new Error(`${this.id} has no state "${id}"`);
    this.current?.exit();
    this.current = next;
    next.enter(info);
    this.editor.didChangePath();
  }

  enter(info?: unknown): void {
    this.onEnter?.(info);
    const cls = this.constructor as StateNodeClass;
    if (cls.initial) {
      this.current = this.kids.get(cls.initial) ?? null;
      this.current?.enter();
    }
  }

  exit(): void {
    this.current?.exit();
    this.onExit?.();
  }

  /** Delivers an event to this node, then down the active chain. */
  handle(name: StateEventName, p?: TilePointer): void {
    const handler = this[name] as ((p?: TilePointer) => void) | undefined;
    handler?.call(this, p);
    this.current?.handle(name, p);
  }

  onPointerDown?(p: TilePointer): void;
  onPointerMove?(p: TilePointer): void;
  onPointerUp?(p: TilePointer): void;
  onCancel?(): void;
  onEnter?(info?: unknown): void;
  onExit?(): void;
}
