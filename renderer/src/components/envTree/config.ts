/**
 * The headless-tree configuration of the environment tree: which library features it uses,
 * how the library reads our items, and which edits its gestures turn into. Kept apart from
 * the React view so the rules (what may be dragged where, what a key does) are tested
 * without a DOM.
 */
import {
  dragAndDropFeature,
  hotkeysCoreFeature,
  renamingFeature,
  syncDataLoaderFeature,
  type ItemInstance,
  type TreeConfig,
  type TreeInstance,
} from '@headless-tree/core';
import type { NodeRef } from '../../editor/types';
import { parseChord } from '../../shortcuts/chord';
import { TREE_SHORTCUTS, type TreeShortcutId } from '../../shortcuts/registry';
import { isOwnParent, ROOT_ID, siblingDropDelta, type EnvTreeItem } from './model';

/** Pixels each level is indented by (the library draws its drop line with it too). */
export const INDENT = 14;

/** The edits the tree can ask for; the view wires them to the MapEditor. */
export interface EnvTreeActions {
  select(ref: NodeRef): void;
  rename(ref: NodeRef, name: string): void;
  /** Moves a node `delta` places among its siblings. */
  move(ref: NodeRef, delta: number): void;
  remove(ref: NodeRef): void;
}

/**
 * The tree's keys in the library's notation (physical key names, one string per key, each Alt
 * key listed), from the shortcut registry.
 */
function libraryKeys(id: TreeShortcutId): string[] {
  const shortcut = TREE_SHORTCUTS.find((s) => s.id === id)!;
  return shortcut.keys.flatMap((k) => {
    const c = parseChord(k);
    const key = c.key === ' ' ? 'Space' : c.key;
    return c.alt ? [`AltLeft+${key}`, `AltRight+${key}`] : [key];
  });
}

/** Keys the tree answers itself; the view keeps them from reaching the map's shortcuts. */
export const TREE_KEYS = new Set([
  ...TREE_SHORTCUTS.flatMap((s) => s.keys.map((k) => parseChord(k).key)),
  // Escape ends a rename in the tree, not a gesture on the map.
  'Escape',
]);

/** Stands in for a row whose node was just deleted, until the library rebuilds its list. */
function gone(id: string): EnvTreeItem {
  return { id, kind: 'root', name: '', children: [] };
}

export function envTreeConfig(
  items: Map<string, EnvTreeItem>,
  actions: EnvTreeActions,
): TreeConfig<EnvTreeItem> {
  const refOf = (item: ItemInstance<EnvTreeItem>) => item.getItemData().ref;
  // Keys act on the focused row only when the row itself has the focus: Enter on a row's
  // delete button presses that button, it does not also select the row.
  const onFocused = (fn: (ref: NodeRef, tree: TreeInstance<EnvTreeItem>) => void) => ({
    isEnabled: (tree: TreeInstance<EnvTreeItem>) => !tree.isRenamingItem(),
    handler: (e: KeyboardEvent, tree: TreeInstance<EnvTreeItem>) => {
      const onRow = (e.target as Element | null)?.getAttribute?.('role') === 'treeitem';
      const ref = refOf(tree.getFocusedItem());
      if (!onRow || !ref) return;
      e.preventDefault();
      fn(ref, tree);
    },
  });
  const moveBy = (delta: number) =>
    onFocused((ref, tree) => {
      actions.move(ref, delta);
      // React moves the row's element; put the keyboard focus back on it.
      tree.updateDomFocus();
    });
  const select = onFocused((ref) => actions.select(ref));
  type Hotkeys = NonNullable<TreeConfig<EnvTreeItem>['hotkeys']>;
  type Action = ReturnType<typeof onFocused>;
  /** "customMoveUp", "customMoveUp2"…: the library's name for the i-th key of `id`. */
  const hotkeyName = (id: TreeShortcutId, i: number) => {
    const name = id.slice('tree.'.length);
    return `custom${name[0].toUpperCase()}${name.slice(1)}${i ? i + 1 : ''}`;
  };
  /** One library hotkey per key of a registry shortcut, all doing `action`. */
  const customHotkeys = (id: TreeShortcutId, action: Action): Hotkeys =>
    Object.fromEntries(
      libraryKeys(id).map((hotkey, i) => [hotkeyName(id, i), { hotkey, ...action }]),
    );
  /** The library's built-in hotkeys, moved onto the registry's keys (one key each). */
  const libraryHotkeys = (names: Partial<Record<string, TreeShortcutId>>): Hotkeys =>
    Object.fromEntries(
      Object.entries(names).map(([name, id]) => [name, { hotkey: libraryKeys(id!)[0] }]),
    );
  return {
    rootItemId: ROOT_ID,
    features: [syncDataLoaderFeature, hotkeysCoreFeature, dragAndDropFeature, renamingFeature],
    dataLoader: {
      getItem: (id) => items.get(id) ?? gone(id),
      getChildren: (id) => items.get(id)?.children ?? [],
    },
    getItemName: (item) => item.getItemData().name,
    isItemFolder: (item) => item.getItemData().children.length > 0,
    onPrimaryAction: (item) => {
      const ref = refOf(item);
      if (ref) actions.select(ref);
    },
    canRename: (item) => !!refOf(item),
    onRename: (item, value) => {
      const ref = refOf(item);
      const name = value.trim();
      if (ref && name && name !== item.getItemData().name) actions.rename(ref, name);
    },
    indent: INDENT,
    canReorder: true,
    // Only named zones move, one at a time, and only among their own siblings: a zone's
    // tiles lie inside its parent's, so a drag must never hand it to another parent.
    canDrag: (dragged) => dragged.length === 1 && !!refOf(dragged[0]),
    canDrop: (dragged, target) =>
      dragged.length === 1 &&
      ('insertionIndex' in target
        ? siblingDropDelta(
            items,
            dragged[0].getId(),
            target.item.getId(),
            target.insertionIndex,
          ) !== null
        : // The library first checks that the row may live under its parent at all.
          isOwnParent(items, dragged[0].getId(), target.item.getId())),
    onDrop: (dragged, target) => {
      const ref = refOf(dragged[0]);
      if (!ref || !('insertionIndex' in target)) return;
      const delta = siblingDropDelta(
        items,
        dragged[0].getId(),
        target.item.getId(),
        target.insertionIndex,
      );
      if (delta) actions.move(ref, delta);
    },
    // Dropping into a row is never allowed, so rows need not open while hovered.
    openOnDropDelay: 0,
    hotkeys: {
      // The library's own moves, on the registry's keys.
      ...libraryHotkeys({
        focusPreviousItem: 'tree.previous',
        focusNextItem: 'tree.next',
        focusFirstItem: 'tree.first',
        focusLastItem: 'tree.last',
        expandOrDown: 'tree.open',
        collapseOrUp: 'tree.close',
        renameItem: 'tree.rename',
      }),
      ...customHotkeys('tree.select', select),
      ...customHotkeys(
        'tree.delete',
        onFocused((ref) => actions.remove(ref)),
      ),
      ...customHotkeys('tree.moveUp', moveBy(-1)),
      ...customHotkeys('tree.moveDown', moveBy(1)),
    },
  };
}
