/**
 * Shared editor vocabulary: history modes, editable layers and pointer input in tiles.
 */
import type { ZoneKind } from '../../../common/scenario/schema';

/**
 * What history does with a document write (Excalidraw's capture modes, named our way):
 * - `record`: the write becomes (part of) an undo step and clears redo. User edits.
 * - `ignore`: the document changes but history does not see it. Loads, imports, migrations.
 */
export type HistoryMode = 'record' | 'ignore';

/** An editable layer: one terrain layer by index, the collision grid, or a zone grid. */
export type EditLayerId = `terrain:${number}` | 'collision' | ZoneKind;

/** Zone kinds in the order the layers panel lists them. */
export const ZONE_KINDS: readonly ZoneKind[] = ['sector', 'arena', 'object', 'spawn'];

/** Pointer input already converted to tiles (tools never see screen pixels, except `screen`). */
export interface TilePointer {
  /** Tile column and row (may be outside the map). */
  x: number;
  y: number;
  /** Screen position in CSS px, for panning. */
  screen: { x: number; y: number };
  /** 0 primary, 1 middle, 2 secondary. */
  button: number;
  shift: boolean;
}

/** An inclusive tile rectangle. */
export interface TileRect {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

/** Normalises two corners into an inclusive rectangle. */
export function rectFrom(a: { x: number; y: number }, b: { x: number; y: number }): TileRect {
  return {
    x0: Math.min(a.x, b.x),
    y0: Math.min(a.y, b.y),
    x1: Math.max(a.x, b.x),
    y1: Math.max(a.y, b.y),
  };
}

/** A node of the environment tree, named by kind and zone id (stable across renames). */
export type NodeRef = { kind: ZoneKind; zone: number };

/** Terrain layer index of a layer id, or null for other layers. */
export function terrainIndex(layer: EditLayerId): number | null {
  return layer.startsWith('terrain:') ? Number(layer.slice(8)) : null;
}
