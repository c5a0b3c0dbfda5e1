/**
 * Geometry of the live map, free of the DOM: where each sprite is drawn between two frames
 * (a tween from the tile it left to the tile it reached), where each object sits (for its state
 * badge and for clicks), and which agent a click hit.
 */
import type { AgentFrame, RunFrame } from '../../../common/api/runs';
import type { EnvTree, TownMap } from '../../../common/scenario/schema';
import { addressAt, indexTree } from '../canvas/zones';

/** A sprite's drawn position in tiles (fractional while walking). */
export interface SpritePos {
  x: number;
  y: number;
}

/** A move further than this many tiles (a scrub, a fork, a spawn) jumps instead of gliding. */
export const TWEEN_MAX_TILES = 3;
/** Least and most time a move glides, ms (a slow model must not make sprites crawl). */
export const TWEEN_MIN_MS = 120;
export const TWEEN_MAX_MS = 600;

/** Per-agent tween from where it was drawn to its new tile. */
export class SpriteTweens {
  private readonly tweens = new Map<string, { from: SpritePos; to: SpritePos }>();
  private start = 0;
  private duration = TWEEN_MIN_MS;
  private lastFrameAt = 0;

  /** Takes a new frame at time `now` (ms); sprites glide from where they are drawn now. */
  update(agents: readonly AgentFrame[], now: number): void {
    const since = this.lastFrameAt ? now - this.lastFrameAt : TWEEN_MIN_MS;
    this.lastFrameAt = now;
    const next = new Map<string, { from: SpritePos; to: SpritePos }>();
    for (const a of agents) {
      const to = { x: a.x, y: a.y };
      const drawn = this.tweens.has(a.id) ? this.at(a.id, now) : to;
      const far = Math.abs(drawn.x - to.x) + Math.abs(drawn.y - to.y) > TWEEN_MAX_TILES;
      next.set(a.id, { from: far ? to : drawn, to });
    }
    this.tweens.clear();
    for (const [k, v] of next) this.tweens.set(k, v);
    this.start = now;
    // Glide for about as long as frames take to come, so walking looks continuous.
    this.duration = Math.min(TWEEN_MAX_MS, Math.max(TWEEN_MIN_MS, since * 0.9));
  }

  /** Where agent `id` is drawn at time `now`, in tiles. */
  at(id: string, now: number): SpritePos {
    const t = this.tweens.get(id);
    if (!t) return { x: 0, y: 0 };
    const k = Math.min(1, Math.max(0, (now - this.start) / this.duration));
    // Ease out: quick start, soft landing.
    const e = 1 - (1 - k) * (1 - k);
    return { x: t.from.x + (t.to.x - t.from.x) * e, y: t.from.y + (t.to.y - t.from.y) * e };
  }

  /** True while some sprite is still gliding (the view keeps animating). */
  moving(now: number): boolean {
    if (now - this.start >= this.duration) return false;
    for (const t of this.tweens.values())
      if (t.from.x !== t.to.x || t.from.y !== t.to.y) return true;
    return false;
  }
}

/** Where an object is on the map: its tiles' bounding box and centre, in tiles. */
export interface ObjectPlace {
  address: string;
  x0: number;
  y0: number;
  x1: number;
  y1: number;
  cx: number;
  cy: number;
}

/** Every object address of the map with its place (built once per map). */
export function objectPlaces(map: TownMap, tree: EnvTree): Map<string, ObjectPlace> {
  const index = indexTree(tree);
  const out = new Map<string, ObjectPlace>();
  for (let y = 0; y < map.height; y++) {
    for (let x = 0; x < map.width; x++) {
      if (!index.objects.has(map.zones.object[y * map.width + x])) continue;
      const address = addressAt(map, tree, index, x, y)!;
      const p = out.get(address);
      if (!p) out.set(address, { address, x0: x, y0: y, x1: x, y1: y, cx: 0, cy: 0 });
      else {
        p.x0 = Math.min(p.x0, x);
        p.y0 = Math.min(p.y0, y);
        p.x1 = Math.max(p.x1, x);
        p.y1 = Math.max(p.y1, y);
      }
    }
  }
  for (const p of out.values()) {
    p.cx = (p.x0 + p.x1 + 1) / 2;
    p.cy = (p.y0 + p.y1 + 1) / 2;
  }
  return out;
}

/** The object address at tile (x, y), or null. */
export function objectAt(map: TownMap, tree: EnvTree, x: number, y: number): string | null {
  if (x < 0 || y < 0 || x >= map.width || y >= map.height) return null;
  const index = indexTree(tree);
  if (!index.objects.has(map.zones.object[y * map.width + x])) return null;
  return addressAt(map, tree, index, x, y);
}

/**
 * The agent drawn under map point (px, py) (map pixels), topmost (last drawn) first; a sprite
 * covers its tile and the half tile above it (the head).
 */
export function agentAtPoint(
  frame: RunFrame | null,
  pos: (id: string) => SpritePos,
  tileSize: number,
  px: number,
  py: number,
): string | null {
  if (!frame) return null;
  for (let i = frame.agents.length - 1; i >= 0; i--) {
    const a = frame.agents[i]!;
    const p = pos(a.id);
    const x = p.x * tileSize;
    const y = p.y * tileSize;
    if (px >= x && px < x + tileSize && py >= y - tileSize / 2 && py < y + tileSize) return a.id;
  }
  return null;
}

/** Longest bubble line, characters, and most lines; longer speech is cut with an ellipsis. */
const BUBBLE_CHARS = 34;
const BUBBLE_LINES = 3;

/** Cuts `text` into at most BUBBLE_LINES lines of about BUBBLE_CHARS characters. */
export function wrapBubble(text: string): string[] {
  const words = text.split(/\s+/).filter(Boolean);
  const lines: string[] = [];
  let line = '';
  for (const w of words) {
    if (line && (line + ' ' + w).length > BUBBLE_CHARS) {
      lines.push(line);
      line = w;
    } else line = line ? `${line} ${w}` : w;
  }
  if (line) lines.push(line);
  if (lines.length > BUBBLE_LINES) {
    const kept = lines.slice(0, BUBBLE_LINES);
    kept[BUBBLE_LINES - 1] = kept[BUBBLE_LINES - 1]!.slice(0, BUBBLE_CHARS - 1) + '…';
    return kept;
  }
  return lines.map((l) => (l.length > BUBBLE_CHARS + 8 ? l.slice(0, BUBBLE_CHARS + 7) + '…' : l));
}

/** Where a speech bubble goes on screen (see {@link placeBubble}). */
export interface BubblePlace {
  x: number;
  y: number;
  /** Screen x of the tail's tip (the speaker). */
  tailX: number;
  /** True when the bubble sits under the speaker (no room above). */
  below: boolean;
}

/** Gap between a bubble and the map's edge, px. */
const BUBBLE_MARGIN = 4;

/**
 * Places a `width`×`height` bubble for a speaker at screen x `anchorX`, above `top` (the head,
 * emoji included) or, when that would leave the view, below `bottom` (the feet); shifted sideways
 * so it stays whole inside a `viewW`×`viewH` map. The tail keeps pointing at the speaker.
 */
export function placeBubble(o: {
  anchorX: number;
  top: number;
  bottom: number;
  width: number;
  height: number;
  viewW: number;
  viewH: number;
}): BubblePlace {
  const maxX = Math.max(BUBBLE_MARGIN, o.viewW - o.width - BUBBLE_MARGIN);
  const x = Math.min(Math.max(o.anchorX - 12, BUBBLE_MARGIN), maxX);
  const above = o.top - 6 - o.height;
  const below = above < BUBBLE_MARGIN && o.bottom + 6 + o.height <= o.viewH - BUBBLE_MARGIN;
  const y = below ? o.bottom + 6 : Math.max(above, BUBBLE_MARGIN);
  const tailX = Math.min(Math.max(o.anchorX, x + 8), x + o.width - 8);
  return { x, y, tailX, below };
}
