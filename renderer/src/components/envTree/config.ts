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

/** Keys the tree answers itself; the view keeps them from reaching the map's shortcuts. */
export const TREE_KEYS = new Set([
  'ArrowUp',
  'ArrowDown',
  'ArrowLeft',
  'ArrowRight',
  'Home',
  'End',
  'Enter',
  ' ',
  'Delete',
  'F2',
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
      customSelect: { hotkey: 'Enter', ...select },
      customSelectSpace: { hotkey: 'Space', ...select },
      customDelete: { hotkey: 'Delete', ...onFocused((ref) => actions.remove(ref)) },
      // The library names physical keys, so each Alt key is listed.
      customMoveUp: { hotkey: 'AltLeft+ArrowUp', ...moveBy(-1) },
      customMoveUpRight: { hotkey: 'AltRight+ArrowUp', ...moveBy(-1) },
      customMoveDown: { hotkey: 'AltLeft+ArrowDown', ...moveBy(1) },
      customMoveDownRight: { hotkey: 'AltRight+ArrowDown', ...moveBy(1) },
    },
  };
}
