/**
 * The environment tree (world > sectors > arenas > objects, plus spawn points), live and
 * editable: select a node to highlight its tiles on the map, rename in place (double-click
 * or F2), add children, reorder by drag or with Alt+↑/↓ (within siblings only), delete (its
 * tiles and its children's are cleared in the same undo step). Every edit goes through the
 * MapEditor, so the tree and the zone grids never disagree.
 *
 * Built on headless-tree (@headless-tree/react): it owns the WAI-ARIA tree semantics, the
 * keyboard model, focus, drag-and-drop with drop rules and renaming; this file only draws
 * the rows. The rules themselves are in envTree/config.ts, the items in envTree/model.ts.
 * The library renders a flat list of rows (aria-level/-setsize/-posinset say where each sits).
 */
import { useTree } from '@headless-tree/react';
import type { ItemInstance, TreeInstance } from '@headless-tree/core';
import { useEffect, useMemo, useState, type KeyboardEvent, type SyntheticEvent } from 'react';
import { useStore } from 'zustand';
import type { EnvTree } from '../../../common/scenario/schema';
import { zoneColor } from '../canvas/colors';
import type { MapEditor } from '../editor/MapEditor';
import type { NodeRef } from '../editor/types';
import { useStudioStore } from '../stores/studioStore';
import { EditorIcon } from './EditorIcons';
import { IconButton } from './IconButton';
import './envTree/envTree.css';
import { envTreeConfig, INDENT, TREE_KEYS, type EnvTreeActions } from './envTree/config';
import {
  ancestorIds,
  indexEnvTree,
  itemId,
  WORLD_ID,
  type EnvTreeItem,
  type EnvTreeItemKind,
} from './envTree/model';

const ICON: Record<EnvTreeItemKind, string> = {
  root: '',
  world: '◎',
  sector: '▣',
  arena: '▢',
  object: '•',
  spawns: '⚑',
  spawn: '⚑',
};

/** Keeps a click or double-click on a control inside a row from also acting on the row. */
const stop = (e: SyntheticEvent) => e.stopPropagation();

export function EnvTreeView({ tree: envTree }: { tree: EnvTree }) {
  const editor = useStudioStore().editor;
  const selected = useStore(editor.ui, (s) => s.selectedNode);
  const items = useMemo(() => indexEnvTree(envTree), [envTree]);
  const [expanded, setExpanded] = useState<string[]>([WORLD_ID]);
  const actions: EnvTreeActions = {
    select: (ref) => editor.selectNode(ref),
    rename: (ref, name) => editor.renameNode(ref, name),
    move: (ref, delta) => editor.moveNode(ref, delta),
    remove: (ref) => editor.deleteNode(ref),
  };
  const tree = useTree<EnvTreeItem>({
    ...envTreeConfig(items, actions),
    state: { expandedItems: expanded },
    setExpandedItems: setExpanded,
  });
  // A new document: the library rebuilds its row list in this same render (React's
  // adjust-state-while-rendering pattern), so a deleted node never shows a frame late.
  const [builtFrom, setBuiltFrom] = useState(items);
  if (builtFrom !== items) {
    setBuiltFrom(items);
    tree.rebuildTree();
  }
  // The parents of a node selected elsewhere (on the map, or just added) open themselves.
  const [revealed, setRevealed] = useState<NodeRef | null>(null);
  if (selected && selected !== revealed && items.has(itemId(selected))) {
    setRevealed(selected);
    const closed = ancestorIds(items, selected).filter((id) => !expanded.includes(id));
    if (closed.length) setExpanded([...expanded, ...closed]);
  }

  const selectedId = selected ? itemId(selected) : null;
  // A node picked on the map scrolls its row into view (after its parents have opened).
  useEffect(() => {
    if (selectedId)
      tree.getItemInstance(selectedId).getElement()?.scrollIntoView({ block: 'nearest' });
  }, [tree, selectedId]);
  return (
    <div className="env-tree">
      <div
        {...tree.getContainerProps('Environment tree')}
        className="tree"
        data-testid="env-tree"
        // The tree's own keys stay in the tree: Delete here deletes a node, not the map
        // selection; Space selects a row instead of panning the map.
        onKeyDown={(e: KeyboardEvent) => {
          if (TREE_KEYS.has(e.key)) e.stopPropagation();
        }}
      >
        {tree.getItems().map((item) => (
          <EnvTreeRow
            key={item.getId()}
            item={item}
            tree={tree}
            editor={editor}
            selected={item.getId() === selectedId}
            onOpen={(id) => !expanded.includes(id) && setExpanded([...expanded, id])}
          />
        ))}
      </div>
      {envTree.sectors.length === 0 && (
        <div className="tree__empty muted">
          No sectors yet — paint on the Sectors layer, or add one with +.
        </div>
      )}
    </div>
  );
}

function EnvTreeRow({
  item,
  tree,
  editor,
  selected,
  onOpen,
}: {
  item: ItemInstance<EnvTreeItem>;
  tree: TreeInstance<EnvTreeItem>;
  editor: MapEditor;
  selected: boolean;
  onOpen(id: string): void;
}) {
  const data = item.getItemData();
  const { ref, add } = data;
  const meta = item.getItemMeta();
  const count = data.children.length;
  const open = item.isExpanded();
  const drop = item.isDragTargetAbove() ? 'before' : item.isDragTargetBelow() ? 'after' : '';
  const swatch = data.kind === 'sector' && ref ? zoneColor(ref.zone) : undefined;
  return (
    <div
      {...item.getProps()}
      aria-selected={selected}
      className={`tree__node tree__node--${data.kind}`}
      data-testid={`tree-${data.kind}`}
      data-zone={ref?.zone}
      style={{ paddingLeft: meta.level * INDENT, ['--tree-level' as string]: meta.level }}
      onDoubleClick={() => ref && item.startRenaming()}
    >
      <div
        className={`tree__row-wrap ${selected ? 'tree__row-wrap--selected' : ''} ${drop ? `tree__row-wrap--drop-${drop}` : ''}`}
      >
        {item.isRenaming() ? (
          <input
            {...item.getRenameInputProps()}
            className="tree__rename"
            data-testid="tree-rename"
            aria-label={`Rename ${data.name}`}
            onFocus={(e) => e.currentTarget.select()}
            // Leaving the field keeps the new name, as Enter does (Escape drops it).
            onBlur={() => tree.completeRenaming()}
            onClick={stop}
            onDoubleClick={stop}
          />
        ) : (
          <span className="tree__row" title={data.description || undefined} data-testid="tree-row">
            <span
              className={`tree__chevron ${count ? '' : 'tree__chevron--none'} ${open ? 'tree__chevron--open' : ''}`}
              aria-hidden
            >
              ▸
            </span>
            <span className="tree__icon" style={swatch ? { color: swatch } : undefined} aria-hidden>
              {ICON[data.kind]}
            </span>
            <span className="tree__label">{data.name}</span>
            {data.defaultState && <span className="tree__detail">{data.defaultState}</span>}
            {count > 0 && <span className="tree__count">{count}</span>}
          </span>
        )}
        <span className="tree__actions" onClick={stop} onDoubleClick={stop}>
          {ref && (
            <>
              <button
                type="button"
                className="tree__action"
                title="Show on map"
                aria-label={`Show ${data.name} on the map`}
                data-testid="tree-locate"
                onClick={() => editor.selectNode(ref, true)}
              >
                <EditorIcon name="locate" size={12} />
              </button>
              <IconButton
                className="tree__action"
                title="Move up (Alt+↑)"
                label={`Move ${data.name} up`}
                testId="tree-up"
                disabled={meta.posInSet === 0}
                onClick={() => editor.moveNode(ref, -1)}
              >
                ↑
              </IconButton>
              <IconButton
                className="tree__action"
                title="Move down (Alt+↓)"
                label={`Move ${data.name} down`}
                testId="tree-down"
                disabled={meta.posInSet === meta.setSize - 1}
                onClick={() => editor.moveNode(ref, 1)}
              >
                ↓
              </IconButton>
              <IconButton
                className="tree__action"
                title="Rename (F2)"
                label={`Rename ${data.name}`}
                testId="tree-rename-button"
                onClick={() => item.startRenaming()}
              >
                ✎
              </IconButton>
            </>
          )}
          {add && (
            <button
              type="button"
              className="tree__action"
              title={add.label}
              aria-label={add.label}
              data-testid="tree-add"
              onClick={() => {
                editor.addNode(add.kind, add.parent);
                onOpen(item.getId());
              }}
            >
              +
            </button>
          )}
          {ref && (
            <IconButton
              className="tree__action tree__action--danger"
              title="Delete (its tiles are cleared; Ctrl+Z brings it back)"
              label={`Delete ${data.name}`}
              testId="tree-delete"
              onClick={() => editor.deleteNode(ref)}
            >
              ✕
            </IconButton>
          )}
        </span>
      </div>
    </div>
  );
}
