/**
 * Pure operations on the environment tree that keep it and the zone grids in step: the tree
 * is the name table for the grids, so adding a node allocates a zone id, deleting one clears
 * its tiles (and its children's), and renaming rewrites the persona addresses that use it.
 */
import type { EnvTree, Persona, Scenario, ZoneKind } from '../../../common/scenario/schema';
import { formatAddress } from '../../../common/scenario/address';
import type { NodeRef } from './types';

/** Default names of new nodes, numbered ("New sector 2"). */
const NEW_NAME: Record<ZoneKind, string> = {
  sector: 'New sector',
  arena: 'New arena',
  object: 'New object',
  spawn: 'New spawn',
};

/** Every zone id of `kind` the tree declares. */
export function treeZones(tree: EnvTree, kind: ZoneKind): number[] {
  if (kind === 'sector') return tree.sectors.map((s) => s.zone);
  if (kind === 'spawn') return tree.spawns.map((s) => s.zone);
  if (kind === 'arena') return tree.sectors.flatMap((s) => s.arenas.map((a) => a.zone));
  return tree.sectors.flatMap((s) => s.arenas.flatMap((a) => a.objects.map((o) => o.zone)));
}

/** A zone id of `kind` not used by the tree or the grid. */
export function nextZoneId(doc: Scenario, kind: ZoneKind): number {
  let max = 0;
  for (const z of treeZones(doc.tree, kind)) max = Math.max(max, z);
  for (const z of doc.map.zones[kind]) if (z > max) max = z;
  return max + 1;
}

/** Sibling names for a new node under `parent` (names must be unique among siblings). */
function siblingNames(tree: EnvTree, kind: ZoneKind, parent: number | null): string[] {
  if (kind === 'sector') return tree.sectors.map((s) => s.name);
  if (kind === 'spawn') return tree.spawns.map((s) => s.name);
  if (kind === 'arena')
    return tree.sectors.find((s) => s.zone === parent)?.arenas.map((a) => a.name) ?? [];
  for (const s of tree.sectors)
    for (const a of s.arenas) if (a.zone === parent) return a.objects.map((o) => o.name);
  return [];
}

/** "New sector 1", "New sector 2"…: the first number not taken among siblings. */
export function newNodeName(tree: EnvTree, kind: ZoneKind, parent: number | null): string {
  const taken = new Set(siblingNames(tree, kind, parent));
  for (let n = 1; ; n++) if (!taken.has(`${NEW_NAME[kind]} ${n}`)) return `${NEW_NAME[kind]} ${n}`;
}

/** Where a node sits: its record and its parents' zone ids. */
export interface FoundNode {
  name: string;
  description: string;
  defaultState?: string;
  sector?: number;
  arena?: number;
  /** Position among siblings and how many siblings there are. */
  index: number;
  siblings: number;
}

/** Looks a node up by kind and zone id. */
export function findNode(tree: EnvTree, ref: NodeRef): FoundNode | null {
  if (ref.kind === 'spawn') {
    const i = tree.spawns.findIndex((s) => s.zone === ref.zone);
    return i < 0
      ? null
      : { name: tree.spawns[i].name, description: '', index: i, siblings: tree.spawns.length };
  }
  for (const [si, s] of tree.sectors.entries()) {
    if (ref.kind === 'sector' && s.zone === ref.zone)
      return { name: s.name, description: s.description, index: si, siblings: tree.sectors.length };
    for (const [ai, a] of s.arenas.entries()) {
      if (ref.kind === 'arena' && a.zone === ref.zone)
        return {
          name: a.name,
          description: a.description,
          sector: s.zone,
          index: ai,
          siblings: s.arenas.length,
        };
      if (ref.kind !== 'object') continue;
      const oi = a.objects.findIndex((o) => o.zone === ref.zone);
      if (oi >= 0) {
        const o = a.objects[oi];
        return {
          name: o.name,
          description: o.description,
          defaultState: o.defaultState,
          sector: s.zone,
          arena: a.zone,
          index: oi,
          siblings: a.objects.length,
        };
      }
    }
  }
  return null;
}

/** The reverie address of a node (`world:sector[:arena[:object]]`), or null for spawns. */
export function nodeAddress(tree: EnvTree, ref: NodeRef): string | null {
  const n = findNode(tree, ref);
  if (!n || ref.kind === 'spawn') return null;
  const sector = ref.kind === 'sector' ? n : findNode(tree, { kind: 'sector', zone: n.sector! });
  if (!sector) return null;
  if (ref.kind === 'sector') return formatAddress(tree.world, n.name);
  const arena = ref.kind === 'arena' ? n : findNode(tree, { kind: 'arena', zone: n.arena! });
  if (!arena) return null;
  if (ref.kind === 'arena') return formatAddress(tree.world, sector.name, arena.name);
  return formatAddress(tree.world, sector.name, arena.name, n.name);
}

/** Applies `fn` to the node's record inside a copied tree; the same doc when not found. */
function mapTree(
  doc: Scenario,
  ref: NodeRef,
  fn: (record: Record<string, unknown>) => Record<string, unknown>,
): Scenario {
  const tree = doc.tree;
  let hit = false;
  const touch = <T extends { zone: number }>(list: T[], kind: ZoneKind): T[] =>
    list.map((r) => {
      if (ref.kind !== kind || r.zone !== ref.zone) return r;
      hit = true;
      return fn(r as unknown as Record<string, unknown>) as unknown as T;
    });
  const sectors = touch(tree.sectors, 'sector').map((s) => {
    const arenas = touch(s.arenas, 'arena').map((a) => {
      const objects = touch(a.objects, 'object');
      return objects.some((o, i) => o !== a.objects[i]) ? { ...a, objects } : a;
    });
    return arenas.some((a, i) => a !== s.arenas[i]) ? { ...s, arenas } : s;
  });
  const spawns = touch(tree.spawns, 'spawn');
  if (!hit) return doc;
  return { ...doc, tree: { ...tree, sectors, spawns } };
}

/** Adds a node of `kind` under `parent` (a sector for arenas, an arena for objects). */
export function addNode(
  doc: Scenario,
  kind: ZoneKind,
  parent: number | null,
  name?: string,
): { doc: Scenario; zone: number } | null {
  const zone = nextZoneId(doc, kind);
  const nodeName = name ?? newNodeName(doc.tree, kind, parent);
  const tree = doc.tree;
  if (kind === 'sector') {
    const sectors = [...tree.sectors, { zone, name: nodeName, description: '', arenas: [] }];
    return { doc: { ...doc, tree: { ...tree, sectors } }, zone };
  }
  if (kind === 'spawn') {
    const spawns = [...tree.spawns, { zone, name: nodeName }];
    return { doc: { ...doc, tree: { ...tree, spawns } }, zone };
  }
  if (parent === null) return null;
  let hit = false;
  const sectors = tree.sectors.map((s) => {
    if (kind === 'arena') {
      if (s.zone !== parent) return s;
      hit = true;
      return {
        ...s,
        arenas: [...s.arenas, { zone, name: nodeName, description: '', objects: [] }],
      };
    }
    const arenas = s.arenas.map((a) => {
      if (a.zone !== parent) return a;
      hit = true;
      return {
        ...a,
        objects: [...a.objects, { zone, name: nodeName, description: '', defaultState: 'idle' }],
      };
    });
    return arenas.some((a, i) => a !== s.arenas[i]) ? { ...s, arenas } : s;
  });
  if (!hit) return null;
  return { doc: { ...doc, tree: { ...tree, sectors } }, zone };
}

/** Rewrites addresses that start with `from` (as a whole segment prefix) to start with `to`. */
function rewriteAddress(address: string, from: string, to: string): string {
  if (address === from) return to;
  return address.startsWith(`${from}:`) ? to + address.slice(from.length) : address;
}

/**
 * Renames a node and every persona address that goes through it, so homes and known places
 * follow the rename instead of breaking. Same doc on a no-op or a blank name.
 */
export function renameNode(doc: Scenario, ref: NodeRef, name: string): Scenario {
  const trimmed = name.trim();
  const before = nodeAddress(doc.tree, ref);
  if (!trimmed) return doc;
  const found = findNode(doc.tree, ref);
  if (!found || found.name === trimmed) return doc;
  let next = mapTree(doc, ref, (r) => ({ ...r, name: trimmed }));
  const after = nodeAddress(next.tree, ref);
  if (before && after) {
    const fix = (p: Persona): Persona => {
      const livingArea = rewriteAddress(p.livingArea, before, after);
      const knownPlaces = p.knownPlaces.map((k) => rewriteAddress(k, before, after));
      const same =
        livingArea === p.livingArea && knownPlaces.every((k, i) => k === p.knownPlaces[i]);
      return same ? p : { ...p, livingArea, knownPlaces };
    };
    const personas = next.personas.map(fix);
    if (personas.some((p, i) => p !== next.personas[i])) next = { ...next, personas };
  }
  return next;
}

/** Sets a node's description and, for objects, default state. */
export function updateNodeFields(
  doc: Scenario,
  ref: NodeRef,
  patch: { description?: string; defaultState?: string },
): Scenario {
  const found = findNode(doc.tree, ref);
  if (!found) return doc;
  const changed =
    (patch.description !== undefined && patch.description !== found.description) ||
    (patch.defaultState !== undefined &&
      ref.kind === 'object' &&
      patch.defaultState !== found.defaultState);
  if (!changed) return doc;
  return mapTree(doc, ref, (r) => ({ ...r, ...patch }));
}

/** Moves a node by `delta` places among its siblings. Same doc at either end. */
export function moveNode(doc: Scenario, ref: NodeRef, delta: number): Scenario {
  const found = findNode(doc.tree, ref);
  if (!found) return doc;
  const to = found.index + delta;
  if (to < 0 || to >= found.siblings || delta === 0) return doc;
  const move = <T>(list: T[]): T[] => {
    const out = list.slice();
    const [item] = out.splice(found.index, 1);
    out.splice(to, 0, item);
    return out;
  };
  const tree = doc.tree;
  if (ref.kind === 'sector') return { ...doc, tree: { ...tree, sectors: move(tree.sectors) } };
  if (ref.kind === 'spawn') return { ...doc, tree: { ...tree, spawns: move(tree.spawns) } };
  const sectors = tree.sectors.map((s) => {
    if (ref.kind === 'arena') return s.zone === found.sector ? { ...s, arenas: move(s.arenas) } : s;
    if (s.zone !== found.sector) return s;
    return {
      ...s,
      arenas: s.arenas.map((a) =>
        a.zone === found.arena ? { ...a, objects: move(a.objects) } : a,
      ),
    };
  });
  return { ...doc, tree: { ...tree, sectors } };
}

/**
 * Deletes a node and its children from the tree and clears their tiles from the zone grids,
 * in one new document (one undo step for the caller).
 */
export function deleteNode(doc: Scenario, ref: NodeRef): Scenario {
  const tree = doc.tree;
  const gone: Record<ZoneKind, Set<number>> = {
    sector: new Set(),
    arena: new Set(),
    object: new Set(),
    spawn: new Set(),
  };
  gone[ref.kind].add(ref.zone);
  for (const s of tree.sectors) {
    const sectorGone = gone.sector.has(s.zone);
    for (const a of s.arenas) {
      if (sectorGone) gone.arena.add(a.zone);
      const arenaGone = gone.arena.has(a.zone);
      for (const o of a.objects) if (arenaGone) gone.object.add(o.zone);
    }
  }
  const sectors = tree.sectors
    .filter((s) => !gone.sector.has(s.zone))
    .map((s) => ({
      ...s,
      arenas: s.arenas
        .filter((a) => !gone.arena.has(a.zone))
        .map((a) => ({ ...a, objects: a.objects.filter((o) => !gone.object.has(o.zone)) })),
    }));
  const spawns = tree.spawns.filter((s) => !gone.spawn.has(s.zone));
  // Known places and spawn points through the node go with it (homes are refused earlier:
  // see homesInside), so the document stays one that validates and saves.
  const address = nodeAddress(tree, ref);
  const through = (a: string) => address !== null && (a === address || a.startsWith(`${address}:`));
  const personas = doc.personas.map((p) => {
    const knownPlaces = p.knownPlaces.filter((k) => !through(k));
    const spawn = p.spawn !== null && gone.spawn.has(p.spawn) ? null : p.spawn;
    return knownPlaces.length === p.knownPlaces.length && spawn === p.spawn
      ? p
      : { ...p, knownPlaces, spawn };
  });
  const zones = { ...doc.map.zones };
  for (const kind of Object.keys(gone) as ZoneKind[]) {
    if (gone[kind].size === 0) continue;
    const g = zones[kind];
    if (!g.some((z) => gone[kind].has(z))) continue;
    zones[kind] = g.map((z) => (gone[kind].has(z) ? 0 : z));
  }
  return {
    ...doc,
    tree: { ...tree, sectors, spawns },
    map: { ...doc.map, zones },
    personas: personas.some((p, i) => p !== doc.personas[i]) ? personas : doc.personas,
  };
}

/** Display names of the people whose home is the node or inside it. */
export function homesInside(doc: Scenario, ref: NodeRef): string[] {
  const address = nodeAddress(doc.tree, ref);
  if (address === null) return [];
  return doc.personas
    .filter((p) => p.livingArea === address || p.livingArea.startsWith(`${address}:`))
    .map((p) => `${p.firstName} ${p.lastName}`.trim());
}

/** Bounds and tile count of a node's zone on its grid (O(cells); call off the hot path). */
export function nodeBounds(
  doc: Scenario,
  ref: NodeRef,
): { tiles: number; x0: number; y0: number; x1: number; y1: number } | null {
  const g = doc.map.zones[ref.kind];
  const w = doc.map.width;
  let tiles = 0;
  let x0 = Infinity;
  let y0 = Infinity;
  let x1 = -1;
  let y1 = -1;
  for (let i = 0; i < g.length; i++) {
    if (g[i] !== ref.zone) continue;
    tiles++;
    const x = i % w;
    const y = (i - x) / w;
    if (x < x0) x0 = x;
    if (x > x1) x1 = x;
    if (y < y0) y0 = y;
    if (y > y1) y1 = y;
  }
  return tiles ? { tiles, x0, y0, x1, y1 } : null;
}
