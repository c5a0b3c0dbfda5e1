/**
 * Record-level diffs between two scenario versions. Scenarios are immutable and share
 * structure, so "what changed" is a reference comparison over a fixed set of fields:
 * top-level keys, `map.*`, `map.zones.*`. History stores these paths with its before/after
 * versions; undo copies only those fields back, so an unrelated `ignore` write made later
 * (an import of settings, say) survives an undo.
 *
 *   doc ─┬─ name, description, settings, personas, tree, …   (compared by reference)
 *        └─ map ─┬─ width, height, tileSize, tileset, layers, collision
 *                └─ zones ─ sector, arena, object, spawn
 */
import type { Scenario } from '../../../../common/scenario/schema';

/** A changed field: `personas`, `map.collision`, `map.zones.arena`… */
export type DocPath = string;

type Obj = Record<string, unknown>;

/** The fields whose references differ between `a` and `b`. Cheap: never walks grids. */
export function changedPaths(a: Scenario, b: Scenario): DocPath[] {
  if (a === b) return [];
  const out: DocPath[] = [];
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  for (const k of keys) {
    const va = (a as unknown as Obj)[k];
    const vb = (b as unknown as Obj)[k];
    if (va === vb) continue;
    if (k !== 'map') {
      out.push(k);
      continue;
    }
    const ma = va as Obj;
    const mb = vb as Obj;
    for (const mk of new Set([...Object.keys(ma), ...Object.keys(mb)])) {
      if (ma[mk] === mb[mk]) continue;
      if (mk !== 'zones') {
        out.push(`map.${mk}`);
        continue;
      }
      const za = ma[mk] as Obj;
      const zb = mb[mk] as Obj;
      for (const zk of new Set([...Object.keys(za), ...Object.keys(zb)]))
        if (za[zk] !== zb[zk]) out.push(`map.zones.${zk}`);
    }
  }
  return out;
}

/** `target` with each of `paths` taken from `source` (same reference, no copying of values). */
export function applyPaths(target: Scenario, source: Scenario, paths: DocPath[]): Scenario {
  if (paths.length === 0) return target;
  const doc = { ...target } as unknown as Obj;
  const src = source as unknown as Obj;
  for (const path of paths) {
    const parts = path.split('.');
    if (parts.length === 1) {
      doc[path] = src[path];
      continue;
    }
    const map = (doc.map = { ...(doc.map as Obj) }) as Obj;
    const srcMap = src.map as Obj;
    if (parts.length === 2) {
      map[parts[1]] = srcMap[parts[1]];
    } else {
      const zones = (map.zones = { ...(map.zones as Obj) }) as Obj;
      zones[parts[2]] = (srcMap.zones as Obj)[parts[2]];
    }
  }
  return doc as unknown as Scenario;
}
