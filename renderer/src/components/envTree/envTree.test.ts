/**
 * The environment tree's rules, run through the real headless-tree core and a real
 * MapEditor (no DOM): which rows show, what may be dragged where, and that each gesture is
 * one edit of the document with one undo step.
 */
import { createTree, type DragTarget, type TreeInstance } from '@headless-tree/core';
import { describe, expect, it } from 'vitest';
import { TestMapEditor } from '../../editor/test/TestMapEditor';
import { envTreeConfig, type EnvTreeActions } from './config';
import {
  ancestorIds,
  indexEnvTree,
  siblingDropDelta,
  SPAWNS_ID,
  WORLD_ID,
  type EnvTreeItem,
} from './model';

/** A town: sectors Home (arenas Bedroom{bed}, Kitchen{stove, sink}) and Park, a spawn. */
function town() {
  const ed = new TestMapEditor();
  const home = ed.addNode('sector', null, 'Home')!;
  ed.addNode('sector', null, 'Park');
  const bedroom = ed.addNode('arena', home, 'Bedroom')!;
  const kitchen = ed.addNode('arena', home, 'Kitchen')!;
  ed.addNode('object', bedroom, 'bed');
  ed.addNode('object', kitchen, 'stove');
  ed.addNode('object', kitchen, 'sink');
  ed.addNode('spawn', null, 'Gate');
  return ed;
}

/** The view's wiring: tree gestures become MapEditor edits. */
function actionsOf(ed: TestMapEditor): EnvTreeActions {
  return {
    select: (ref) => ed.selectNode(ref),
    rename: (ref, name) => ed.renameNode(ref, name),
    move: (ref, delta) => ed.moveNode(ref, delta),
    remove: (ref) => ed.deleteNode(ref),
  };
}

function libraryTree(ed: TestMapEditor, expanded: string[] = [WORLD_ID]) {
  const tree = createTree<EnvTreeItem>({
    ...envTreeConfig(indexEnvTree(ed.doc.tree), actionsOf(ed)),
    initialState: { expandedItems: expanded },
  });
  // What useTree does on mount (no DOM needed for the row list).
  (tree as unknown as { setMounted(m: boolean): void }).setMounted(true);
  tree.rebuildTree();
  return tree;
}

const rows = (tree: TreeInstance<EnvTreeItem>) =>
  tree.getItems().map((i) => `${'  '.repeat(i.getItemMeta().level)}${i.getItemName()}`);

/** A drop between the children of `parent`, as the library computes it for one row. */
function between(
  tree: TreeInstance<EnvTreeItem>,
  dragged: string,
  parent: string,
  childIndex: number,
): DragTarget<EnvTreeItem> {
  const children = tree.getItemInstance(parent).getChildren();
  const before = children.slice(0, childIndex).some((c) => c.getId() === dragged) ? 1 : 0;
  return {
    item: tree.getItemInstance(parent),
    childIndex,
    insertionIndex: childIndex - before,
    dragLineIndex: 0,
    dragLineLevel: 0,
  };
}

describe('environment tree on headless-tree', () => {
  it('shows world > sectors > arenas > objects and the spawn points, with levels', () => {
    const ed = town();
    const home = ed.doc.tree.sectors[0];
    const kitchen = home.arenas[1];
    const tree = libraryTree(ed, [WORLD_ID, `sector:${home.zone}`, `arena:${kitchen.zone}`]);
    expect(rows(tree)).toEqual([
      'Test town',
      '  Home',
      '    Bedroom',
      '    Kitchen',
      '      stove',
      '      sink',
      '  Park',
      'Spawn points',
    ]);
    const stove = tree.getItemInstance(`object:${kitchen.objects[0].zone}`);
    expect(stove.getItemData().defaultState).toBe('idle');
    expect(stove.getProps()).toMatchObject({
      role: 'treeitem',
      'aria-level': 4,
      'aria-posinset': 1,
      'aria-setsize': 2,
    });
    // Folders report their state; leaves do not.
    expect(tree.getItemInstance(`sector:${home.zone}`).getProps()['aria-expanded']).toBe(true);
    expect(stove.getProps()['aria-expanded']).toBeUndefined();
  });

  it('opens exactly the parents of a node selected elsewhere', () => {
    const ed = town();
    const items = indexEnvTree(ed.doc.tree);
    const home = ed.doc.tree.sectors[0];
    const sink = home.arenas[1].objects[1];
    expect(ancestorIds(items, { kind: 'object', zone: sink.zone })).toEqual([
      WORLD_ID,
      `sector:${home.zone}`,
      `arena:${home.arenas[1].zone}`,
    ]);
    expect(ancestorIds(items, { kind: 'spawn', zone: ed.doc.tree.spawns[0].zone })).toEqual([
      SPAWNS_ID,
    ]);
    expect(ancestorIds(items, { kind: 'arena', zone: 999 })).toEqual([]);
  });

  it('drags a node only among its own siblings', () => {
    const ed = town();
    const [home, park] = ed.doc.tree.sectors;
    const [bedroom, kitchen] = home.arenas;
    const tree = libraryTree(ed, [WORLD_ID, `sector:${home.zone}`, `arena:${kitchen.zone}`]);
    const config = tree.getConfig();
    const item = (id: string) => tree.getItemInstance(id);
    const stove = `object:${kitchen.objects[0].zone}`;
    const canDrop = (id: string, target: DragTarget<EnvTreeItem>) =>
      config.canDrop!([item(id)], target);

    // Between siblings: allowed.
    expect(canDrop(stove, between(tree, stove, `arena:${kitchen.zone}`, 2))).toBe(true);
    expect(canDrop(`sector:${park.zone}`, between(tree, `sector:${park.zone}`, WORLD_ID, 0))).toBe(
      true,
    );
    // Onto a row (would make it the parent), or between another parent's children: refused.
    expect(canDrop(stove, { item: item(`arena:${bedroom.zone}`) })).toBe(false);
    // Into its own parent is allowed (the library asks before it offers sibling places) and
    // changes nothing.
    expect(canDrop(stove, { item: item(`arena:${kitchen.zone}`) })).toBe(true);
    const before = ed.doc;
    void config.onDrop!([item(stove)], { item: item(`arena:${kitchen.zone}`) });
    expect(ed.doc).toBe(before);
    expect(canDrop(stove, between(tree, stove, `arena:${bedroom.zone}`, 0))).toBe(false);
    expect(
      canDrop(`arena:${bedroom.zone}`, between(tree, `arena:${bedroom.zone}`, WORLD_ID, 1)),
    ).toBe(false);
    expect(canDrop(`spawn:${ed.doc.tree.spawns[0].zone}`, between(tree, 'x', WORLD_ID, 0))).toBe(
      false,
    );
    // The world and the spawn section are not zones: they do not move.
    expect(config.canDrag!([item(WORLD_ID)])).toBe(false);
    expect(config.canDrag!([item(SPAWNS_ID)])).toBe(false);
    expect(config.canDrag!([item(stove), item(`object:${kitchen.objects[1].zone}`)])).toBe(false);
  });

  it('a drop is one reorder of the document and one undo step', () => {
    const ed = town();
    const [home] = ed.doc.tree.sectors;
    const kitchen = home.arenas[1];
    const tree = libraryTree(ed, [WORLD_ID, `sector:${home.zone}`, `arena:${kitchen.zone}`]);
    const stove = `object:${kitchen.objects[0].zone}`;
    // Stove dragged below the sink (after the last child).
    void tree.getConfig().onDrop!(
      [tree.getItemInstance(stove)],
      between(tree, stove, `arena:${kitchen.zone}`, 2),
    );
    expect(ed.doc.tree.sectors[0].arenas[1].objects.map((o) => o.name)).toEqual(['sink', 'stove']);
    // Home dragged below Park.
    const homeId = `sector:${home.zone}`;
    void tree.getConfig().onDrop!(
      [tree.getItemInstance(homeId)],
      between(tree, homeId, WORLD_ID, 2),
    );
    expect(ed.doc.tree.sectors.map((s) => s.name)).toEqual(['Park', 'Home']);
    ed.undoKey();
    expect(ed.doc.tree.sectors.map((s) => s.name)).toEqual(['Home', 'Park']);
    ed.undoKey();
    expect(ed.doc.tree.sectors[0].arenas[1].objects.map((o) => o.name)).toEqual(['stove', 'sink']);
  });

  it('computes the move from the library insertion index, clamped to the siblings', () => {
    const ed = town();
    const items = indexEnvTree(ed.doc.tree);
    const [home, park] = ed.doc.tree.sectors;
    const h = `sector:${home.zone}`;
    expect(siblingDropDelta(items, h, WORLD_ID, 1)).toBe(1);
    expect(siblingDropDelta(items, `sector:${park.zone}`, WORLD_ID, 0)).toBe(-1);
    expect(siblingDropDelta(items, h, WORLD_ID, 0)).toBe(0);
    expect(siblingDropDelta(items, h, WORLD_ID, 9)).toBe(1);
    expect(siblingDropDelta(items, h, SPAWNS_ID, 0)).toBeNull();
    expect(siblingDropDelta(items, WORLD_ID, 'root', 1)).toBeNull();
    expect(siblingDropDelta(items, h, WORLD_ID, undefined)).toBeNull();
  });

  it('renames through the editor (trimmed; blank or unchanged is no edit)', () => {
    const ed = town();
    const home = ed.doc.tree.sectors[0];
    const tree = libraryTree(ed);
    const row = tree.getItemInstance(`sector:${home.zone}`);
    const onRename = tree.getConfig().onRename!;
    const before = ed.doc;
    onRename(row, '   ');
    onRename(row, 'Home');
    expect(ed.doc).toBe(before);
    onRename(row, '  Rose cottage ');
    expect(ed.doc.tree.sectors[0].name).toBe('Rose cottage');
    expect(tree.getConfig().canRename!(tree.getItemInstance(WORLD_ID))).toBe(false);
  });

  it('keys on a focused row select, delete (with its zones, one undo) and reorder', () => {
    const ed = town();
    const [home] = ed.doc.tree.sectors;
    const tree = libraryTree(ed, [WORLD_ID, `sector:${home.zone}`]);
    const hotkeys = tree.getConfig().hotkeys!;
    const onRow = { target: { getAttribute: () => 'treeitem' }, preventDefault() {} };
    const onButton = { target: { getAttribute: () => null }, preventDefault() {} };
    const press = (name: keyof typeof hotkeys, e: object) =>
      hotkeys[name]!.handler!(e as KeyboardEvent, tree);

    tree.getItemInstance(`arena:${home.arenas[1].zone}`).setFocused();
    press('customSelect', onRow);
    expect(ed.getUi().selectedNode).toEqual({ kind: 'arena', zone: home.arenas[1].zone });

    press('customMoveUp', onRow);
    expect(ed.doc.tree.sectors[0].arenas.map((a) => a.name)).toEqual(['Kitchen', 'Bedroom']);

    // Delete on a row's own button is that button's business, not the row's.
    press('customDelete', onButton);
    expect(ed.doc.tree.sectors[0].arenas).toHaveLength(2);
    press('customDelete', onRow);
    expect(ed.doc.tree.sectors[0].arenas.map((a) => a.name)).toEqual(['Bedroom']);
    ed.undoKey();
    expect(ed.doc.tree.sectors[0].arenas.map((a) => a.name)).toEqual(['Kitchen', 'Bedroom']);
    expect(ed.doc.tree.sectors[0].arenas[0].objects.map((o) => o.name)).toEqual(['stove', 'sink']);
  });
});
