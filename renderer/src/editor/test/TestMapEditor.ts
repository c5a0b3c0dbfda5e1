/**
 * Drives a MapEditor the way a user would, without Konva: pointer input in tile
 * coordinates, keys, and `expectToBeIn('brush.painting')`.
 */
import { expect } from 'vitest';
import { createEmptyScenario } from '../../../../common/scenario/create';
import type { Scenario } from '../../../../common/scenario/schema';
import { createMemoryDocHost, type DocHost } from '../DocHost';
import { MapEditor, type EditorKey, type EditorViewport } from '../MapEditor';
import type { TileRect } from '../types';

export class TestMapEditor extends MapEditor {
  readonly pans: { dx: number; dy: number }[] = [];
  readonly focused: TileRect[] = [];
  readonly memory: DocHost & { messages: string[] };

  constructor(doc: Scenario = createEmptyScenario('test-town', 'Test town', 40, 30)) {
    const host = createMemoryDocHost(doc);
    super(host);
    this.memory = host;
    const viewport: EditorViewport = {
      panBy: (dx, dy) => this.pans.push({ dx, dy }),
      focusRect: (r) => this.focused.push(r),
    };
    this.setViewport(viewport);
  }

  get doc(): Scenario {
    return this.getDoc()!;
  }

  private pointer(x: number, y: number, button = 0) {
    return { x, y, screen: { x: x * 32, y: y * 32 }, button, shift: false };
  }
  pointerDownAt(x: number, y: number, button = 0): this {
    this.pointerDown(this.pointer(x, y, button));
    return this;
  }
  pointerMoveTo(x: number, y: number, button = 0): this {
    this.pointerMove(this.pointer(x, y, button));
    return this;
  }
  pointerUpAt(x: number, y: number, button = 0): this {
    this.pointerUp(this.pointer(x, y, button));
    return this;
  }
  /** Press at the first point, move through the rest, release at the last. */
  drag(points: [number, number][], button = 0): this {
    const [first, ...rest] = points;
    this.pointerDownAt(first[0], first[1], button);
    for (const [x, y] of rest) this.pointerMoveTo(x, y, button);
    const last = points[points.length - 1];
    return this.pointerUpAt(last[0], last[1], button);
  }
  click(x: number, y: number): this {
    return this.pointerDownAt(x, y).pointerUpAt(x, y);
  }
  key(key: string, mods: Omit<EditorKey, 'key'> = {}): this {
    this.keyDown({ key, ...mods });
    return this;
  }
  keyRelease(key: string): this {
    this.keyUp({ key });
    return this;
  }
  undoKey(): this {
    return this.key('z', { ctrl: true });
  }
  redoKey(): this {
    return this.key('z', { ctrl: true, shift: true });
  }

  expectToBeIn(path: string): this {
    expect(this.getPath()).toBe(path);
    return this;
  }

  /** Value of `grid` at (x, y). */
  at(grid: number[], x: number, y: number): number {
    return grid[y * this.doc.map.width + x];
  }
  terrain(x: number, y: number, layer = 0): number {
    return this.at(this.doc.map.layers[layer].tiles, x, y);
  }
}
