/**
 * The environment tree as the tree view sees it: one flat index of items keyed by string ids
 * ("sector:3"), each knowing its children, built from the scenario's EnvTree. The tree-view
 * library asks this index for items and children; edits never touch it (they go through the
 * MapEditor, and a new EnvTree yields a new index), so the view cannot drift from the map.
 */
import type { EnvTree, ZoneKind } from '../../../../common/scenario/schema';
import type { NodeRef } from '../../editor/types';

/** The invisible root the library hangs the visible top level on. */
export const ROOT_ID = 'root';
export const WORLD_ID = 'world';
export const SPAWNS_ID = 'spawns';

export type EnvTreeItemKind = 'root' | 'world' | 'spawns' | ZoneKind;

/** What one row shows and what it edits. */
export interface EnvTreeItem {
  id: string;
  kind: EnvTreeItemKind;
  name: string;
  /** Tooltip: the node's description. */
  description?: string;
  /** Objects only: the state they start a run in ("idle"). */
  defaultState?: string;
  /** The zone this row names (absent for the root, the world and the spawn section). */
  ref?: NodeRef;
  children: string[];
  /** Which kind of child the row's + adds, and under which parent zone. */
  add?: { kind: ZoneKind; parent: number | null; label: string };
}

/** The row id of a zone node: `sector:3`. */
export function itemId(ref: NodeRef): string {
  return `${ref.kind}:${ref.zone}`;
}

/** The index of every item of `tree`, root included. */
export function indexEnvTree(tree: EnvTree): Map<string, EnvTreeItem> {
  const items = new Map<string, EnvTreeItem>();
  const put = (item: EnvTreeItem) => items.set(item.id, item);
  // Spawn points sit beside the world, not inside it: they have no address, and keeping
  // them out of the world's children keeps sector reordering a pure sibling move.
  put({ id: ROOT_ID, kind: 'root', name: tree.world, children: [WORLD_ID, SPAWNS_ID] });
  put({
    id: WORLD_ID,
    kind: 'world',
    name: tree.world,
    children: tree.sectors.map((s) => itemId({ kind: 'sector', zone: s.zone })),
    add: { kind: 'sector', parent: null, label: 'Add sector' },
  });
  for (const sector of tree.sectors) {
    const ref: NodeRef = { kind: 'sector', zone: sector.zone };
    put({
      id: itemId(ref),
      kind: 'sector',
      name: sector.name,
      description: sector.description,
      ref,
      children: sector.arenas.map((a) => itemId({ kind: 'arena', zone: a.zone })),
      add: { kind: 'arena', parent: sector.zone, label: 'Add arena' },
    });
    for (const arena of sector.arenas) {
      const aref: NodeRef = { kind: 'arena', zone: arena.zone };
      put({
        id: itemId(aref),
        kind: 'arena',
        name: arena.name,
        description: arena.description,
        ref: aref,
        children: arena.objects.map((o) => itemId({ kind: 'object', zone: o.zone })),
        add: { kind: 'object', parent: arena.zone, label: 'Add object' },
      });
      for (const object of arena.objects) {
        const oref: NodeRef = { kind: 'object', zone: object.zone };
        put({
          id: itemId(oref),
          kind: 'object',
          name: object.name,
          description: object.description,
          defaultState: object.defaultState,
          ref: oref,
          children: [],
        });
      }
    }
  }
  put({
    id: SPAWNS_ID,
    kind: 'spawns',
    name: 'Spawn points',
    children: tree.spawns.map((s) => itemId({ kind: 'spawn', zone: s.zone })),
    add: { kind: 'spawn', parent: null, label: 'Add spawn point' },
  });
  for (const spawn of tree.spawns) {
    const ref: NodeRef = { kind: 'spawn', zone: spawn.zone };
    put({ id: itemId(ref), kind: 'spawn', name: spawn.name, ref, children: [] });
  }
  return items;
}

/**
 * The rows that must be open for `ref` to show: its section (world or spawn points) and its
 * parents. Empty when the node is not in the tree.
 */
export function ancestorIds(items: Map<string, EnvTreeItem>, ref: NodeRef): string[] {
  const target = itemId(ref);
  if (!items.has(target)) return [];
  const parentOf = new Map<string, string>();
  for (const item of items.values()) for (const c of item.children) parentOf.set(c, item.id);
  const out: string[] = [];
  for (let p = parentOf.get(target); p && p !== ROOT_ID; p = parentOf.get(p)) out.push(p);
  return out.reverse();
}

/**
 * How many places a drop moves a node among its siblings, or null when the drop is not a
 * reorder within the node's own parent. A zone's tiles lie inside its parent's tiles, so a
 * drag may never hand a node to another parent.
 * `insertionIndex` is the library's index after the dragged row is taken out of the list.
 */
export function siblingDropDelta(
  items: Map<string, EnvTreeItem>,
  dragged: string,
  targetParent: string,
  insertionIndex: number | undefined,
): number | null {
  if (insertionIndex === undefined || !items.get(dragged)?.ref) return null;
  const parent = items.get(targetParent);
  const from = parent?.children.indexOf(dragged) ?? -1;
  if (!parent || from < 0) return null;
  const to = Math.max(0, Math.min(insertionIndex, parent.children.length - 1));
  return to - from;
}

/**
 * Whether `parent` is the dragged row's own parent. The library asks this (a drop "into"
 * the parent) before it offers any reorder among the parent's children; such a drop changes
 * nothing.
 */
export function isOwnParent(
  items: Map<string, EnvTreeItem>,
  dragged: string,
  parent: string,
): boolean {
  return !!items.get(dragged)?.ref && !!items.get(parent)?.children.includes(dragged);
}
