/**
 * Which map labels show at the current zoom, and how long. Labels keep a constant on-screen
 * size, so zooming out packs them closer until they overlap. Each label is placed in priority
 * order (sectors, then arenas, spawns, objects; bigger zones first): shortened with "…" to the
 * width of its zone when longer than the zone is on screen, and hidden when it would still
 * cover a label already placed. Pure: measuring text is passed in.
 */
import type { ZoneShape } from './zones';

/** One label the canvas would like to draw. Positions are in map pixels (before zoom). */
export interface LabelCandidate {
  key: string;
  text: string;
  /** Font size, screen px. */
  size: number;
  /** The point the label is placed by, map px. */
  x: number;
  y: number;
  /**
   * How the label box sits on its point: `above` (a tag whose pointer touches it: sector
   * names), `centre`, or `below` (its top edge at the point: spawn names).
   */
  anchor: 'above' | 'centre' | 'below';
  /** Space around the text inside the label's box, screen px. */
  padding: number;
  /** Widest the label may be, map px (its zone's width); longer text is shortened. */
  maxWidth: number;
  /** Widest the label may be on screen, px, whatever the zone. */
  maxScreenPx: number;
  bold?: boolean;
  /** Lower places first. */
  priority: number;
}

/** Width of `text` drawn at `size` px, screen px. */
export type Measure = (text: string, size: number, bold: boolean) => number;

/** Where a placed label's box is, screen px relative to the map's origin at this zoom. */
export interface Box {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

/** Screen px a label keeps from its neighbours. */
const LABEL_GAP_PX = 3;
/** A shortened label keeps at least this many characters before the "…"; shorter, it hides. */
const MIN_SHORT_CHARS = 3;
/** Extra screen px a sector's tag needs below its box for its pointer. */
export const TAG_POINTER_PX = 5;

/** Text as drawn: whole, shortened to `maxPx`, or null when not even a stub fits. */
export function fitText(
  text: string,
  maxPx: number,
  measure: (text: string) => number,
): string | null {
  if (measure(text) <= maxPx) return text;
  // Binary search for the longest prefix that fits with its ellipsis.
  let lo = 0;
  let hi = text.length - 1;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (measure(text.slice(0, mid).trimEnd() + '…') <= maxPx) lo = mid;
    else hi = mid - 1;
  }
  return lo >= MIN_SHORT_CHARS ? text.slice(0, lo).trimEnd() + '…' : null;
}

function overlaps(a: Box, b: Box): boolean {
  return (
    a.x0 < b.x1 + LABEL_GAP_PX &&
    b.x0 < a.x1 + LABEL_GAP_PX &&
    a.y0 < b.y1 + LABEL_GAP_PX &&
    b.y0 < a.y1 + LABEL_GAP_PX
  );
}

/** A label's box on screen, px, for {@link keepApart}. */
export interface ScreenBox extends Box {
  key: string;
}

/**
 * The keys of `boxes` to draw, taken in the order given (most important first): each is left out
 * when it would cover one already kept (the run map's name tags and object badges).
 */
export function keepApart(boxes: readonly ScreenBox[]): Set<string> {
  const kept = new Set<string>();
  const placed: Box[] = [];
  for (const b of boxes) {
    if (placed.some((p) => overlaps(p, b))) continue;
    placed.push(b);
    kept.add(b.key);
  }
  return kept;
}

/**
 * The labels to draw at `zoom` (screen px per map px), keyed by candidate key, with the text
 * to show (whole or shortened). A key that is absent is hidden.
 */
export function layoutLabels(
  candidates: readonly LabelCandidate[],
  zoom: number,
  measure: Measure,
): Map<string, string> {
  const shown = new Map<string, string>();
  const placed: Box[] = [];
  const order = [...candidates].sort((a, b) => a.priority - b.priority);
  for (const c of order) {
    const room = Math.min(c.maxWidth * zoom, c.maxScreenPx) - 2 * c.padding;
    const width = (t: string) => measure(t, c.size, !!c.bold);
    const text = fitText(c.text, Math.max(0, room), width);
    if (!text) continue;
    const w = width(text) + 2 * c.padding;
    const h = c.size * 1.2 + 2 * c.padding;
    const sx = c.x * zoom;
    const sy = c.y * zoom;
    const y0 =
      c.anchor === 'above' ? sy - h - TAG_POINTER_PX : c.anchor === 'centre' ? sy - h / 2 : sy;
    const box = { x0: sx - w / 2, x1: sx + w / 2, y0, y1: y0 + h };
    if (placed.some((p) => overlaps(p, box))) continue;
    placed.push(box);
    shown.set(c.key, text);
  }
  return shown;
}

/** The zones whose names may show (the canvas leaves out hidden layers and small zooms). */
export interface LabelledZones {
  sectors: readonly ZoneShape[];
  arenas: readonly ZoneShape[];
  objects: readonly ZoneShape[];
  spawns: readonly ZoneShape[];
  name(kind: 'sector' | 'arena' | 'object' | 'spawn', zone: number): string;
  tileSize: number;
}

/** Screen px a name may take when its zone does not bound it (objects, spawns). */
export const NAME_MAX_PX = 160;

/**
 * The town canvas's labels as candidates, placed as TownCanvas draws them: a sector's tag
 * above its anchor tile, an arena's name along its top edge, object and spawn names on their
 * tile. Keys are `<kind>-<zone>`.
 */
export function zoneLabelCandidates(z: LabelledZones): LabelCandidate[] {
  const ts = z.tileSize;
  const out: LabelCandidate[] = [];
  const wide = (s: ZoneShape) => (s.maxX - s.minX + 1) * ts;
  // Bigger zones first within a kind: the town's main places keep their names longest.
  const byArea = (list: readonly ZoneShape[]) => [...list].sort((a, b) => b.tiles - a.tiles);
  byArea(z.sectors).forEach((s, i) =>
    out.push({
      key: `sector-${s.zone}`,
      text: z.name('sector', s.zone),
      size: 12,
      bold: true,
      padding: 5,
      x: (s.anchor.x + 0.5) * ts,
      y: (s.anchor.y + 0.5) * ts,
      anchor: 'above',
      maxWidth: wide(s),
      maxScreenPx: NAME_MAX_PX * 1.5,
      priority: i,
    }),
  );
  byArea(z.arenas).forEach((s, i) =>
    out.push({
      key: `arena-${s.zone}`,
      text: z.name('arena', s.zone),
      size: 11,
      padding: 0,
      x: ((s.minX + s.maxX + 1) / 2) * ts,
      y: (s.minY + 0.45) * ts,
      anchor: 'centre',
      maxWidth: wide(s),
      maxScreenPx: NAME_MAX_PX,
      priority: 10_000 + i,
    }),
  );
  // Spawn and object names sit on their tile, bounded by the screen only.
  const onTile = (
    kind: 'spawn' | 'object',
    s: ZoneShape,
    i: number,
    look: { size: number; dy: number; anchor: LabelCandidate['anchor']; rank: number },
  ): LabelCandidate => ({
    key: `${kind}-${s.zone}`,
    text: z.name(kind, s.zone),
    size: look.size,
    padding: 0,
    x: (s.anchor.x + 0.5) * ts,
    y: (s.anchor.y + look.dy) * ts,
    anchor: look.anchor,
    maxWidth: Infinity,
    maxScreenPx: NAME_MAX_PX,
    priority: look.rank + i,
  });
  z.spawns.forEach((s, i) =>
    out.push(onTile('spawn', s, i, { size: 11, dy: 0.85, anchor: 'below', rank: 20_000 })),
  );
  byArea(z.objects).forEach((s, i) =>
    out.push(onTile('object', s, i, { size: 10, dy: 0.5, anchor: 'centre', rank: 30_000 })),
  );
  return out;
}
