/**
 * The environment tree (world > sectors > arenas > objects, plus spawn points), live and
 * editable: select a node to highlight its tiles on the map, rename in place (double-click
 * or F2), add children, reorder by drag or with ↑/↓, delete (its tiles are cleared in the
 * same undo step). Every edit goes through the MapEditor, so the tree and the zone grids
 * never disagree.
 *
 * A nested role="tree" list rather than a virtualised tree library: the tree is small (a
 * town has tens of nodes), nested DOM keeps each node's children inside it for assistive
 * tech and for tests, and reordering stays within siblings (a node's tiles cannot move to
 * another parent by dragging in a list).
 */
import { IconButton } from './IconButton';
import { useState, type DragEvent, type KeyboardEvent, type ReactNode } from 'react';
import { useStore } from 'zustand';
import type { EnvTree, ZoneKind } from '../../../common/scenario/schema';
import { zoneColor } from '../canvas/colors';
import { useStudioStore } from '../stores/studioStore';
import type { NodeRef } from '../editor/types';
import { findNode } from '../editor/tree';
import { EditorIcon } from './EditorIcons';

const ICON: Record<string, string> = {
  world: '◎',
  sector: '▣',
  arena: '▢',
  object: '•',
  spawns: '⚑',
  spawn: '⚑',
};

/** The sibling group a node can be dragged within. */
type DragGroup = string;
let dragging: { ref: NodeRef; group: DragGroup; index: number } | null = null;

export function EnvTreeView({ tree }: { tree: EnvTree }) {
  const editor = useStudioStore().editor;
  const selected = useStore(editor.ui, (s) => s.selectedNode);
  const isSel = (kind: ZoneKind, zone: number) => selected?.kind === kind && selected.zone === zone;
  // Ancestors of the selected node open themselves, so a zone just painted shows up.
  const found = selected ? findNode(tree, selected) : null;
  const openSector = selected?.kind === 'sector' ? null : (found?.sector ?? null);
  const openArena = selected?.kind === 'object' ? (found?.arena ?? null) : null;
  return (
    <ul className="tree" role="tree" data-testid="env-tree" aria-label="Environment tree">
      <TreeNode
        kind="world"
        label={tree.world}
        count={tree.sectors.length}
        defaultOpen
        onAdd={() => editor.addNode('sector', null)}
        addLabel="Add sector"
      >
        {tree.sectors.map((sector, si) => (
          <TreeNode
            key={sector.zone}
            kind="sector"
            nodeRef={{ kind: 'sector', zone: sector.zone }}
            group="sectors"
            index={si}
            siblings={tree.sectors.length}
            label={sector.name}
            count={sector.arenas.length}
            swatch={zoneColor(sector.zone)}
            title={sector.description}
            selected={isSel('sector', sector.zone)}
            forceOpen={openSector === sector.zone}
            onAdd={() => editor.addNode('arena', sector.zone)}
            addLabel="Add arena"
          >
            {sector.arenas.map((arena, ai) => (
              <TreeNode
                key={arena.zone}
                kind="arena"
                nodeRef={{ kind: 'arena', zone: arena.zone }}
                group={`arenas-${sector.zone}`}
                index={ai}
                siblings={sector.arenas.length}
                label={arena.name}
                count={arena.objects.length}
                title={arena.description}
                selected={isSel('arena', arena.zone)}
                forceOpen={openArena === arena.zone}
                onAdd={() => editor.addNode('object', arena.zone)}
                addLabel="Add object"
              >
                {arena.objects.map((object, oi) => (
                  <TreeNode
                    key={object.zone}
                    kind="object"
                    nodeRef={{ kind: 'object', zone: object.zone }}
                    group={`objects-${arena.zone}`}
                    index={oi}
                    siblings={arena.objects.length}
                    label={object.name}
                    title={object.description}
                    detail={object.defaultState}
                    selected={isSel('object', object.zone)}
                  />
                ))}
              </TreeNode>
            ))}
          </TreeNode>
        ))}
        <TreeNode
          kind="spawns"
          label="Spawn points"
          count={tree.spawns.length}
          forceOpen={selected?.kind === 'spawn'}
          onAdd={() => editor.addNode('spawn', null)}
          addLabel="Add spawn point"
        >
          {tree.spawns.map((spawn, i) => (
            <TreeNode
              key={spawn.zone}
              kind="spawn"
              nodeRef={{ kind: 'spawn', zone: spawn.zone }}
              group="spawns"
              index={i}
              siblings={tree.spawns.length}
              label={spawn.name}
              selected={isSel('spawn', spawn.zone)}
            />
          ))}
        </TreeNode>
      </TreeNode>
      {tree.sectors.length === 0 && (
        <li className="tree__empty muted">
          No sectors yet — paint on the Sectors layer, or add one with +.
        </li>
      )}
    </ul>
  );
}

function TreeNode(props: {
  kind: string;
  label: string;
  nodeRef?: NodeRef;
  group?: DragGroup;
  index?: number;
  siblings?: number;
  count?: number;
  detail?: string;
  swatch?: string;
  title?: string;
  selected?: boolean;
  defaultOpen?: boolean;
  /** Opens the node (once) when it becomes true: a descendant was selected. */
  forceOpen?: boolean;
  onAdd?(): void;
  addLabel?: string;
  children?: ReactNode;
}) {
  const editor = useStudioStore().editor;
  const hasChildren = (props.count ?? 0) > 0;
  const [open, setOpen] = useState(props.defaultOpen ?? false);
  const [forced, setForced] = useState(false);
  // Adjust state during render when the prop flips (React's pattern; no effect needed).
  if (!!props.forceOpen !== forced) {
    setForced(!!props.forceOpen);
    if (props.forceOpen && !open) setOpen(true);
  }
  const [renaming, setRenaming] = useState(false);
  const [dropHint, setDropHint] = useState<'before' | 'after' | null>(null);
  const ref = props.nodeRef;

  const commitRename = (value: string) => {
    setRenaming(false);
    if (ref && value.trim() && value.trim() !== props.label) editor.renameNode(ref, value);
  };
  const onKey = (e: KeyboardEvent) => {
    if (!ref) return;
    if (e.key === 'F2') {
      e.preventDefault();
      setRenaming(true);
    } else if (e.key === 'Delete') {
      e.preventDefault();
      editor.deleteNode(ref);
    } else if (e.altKey && (e.key === 'ArrowUp' || e.key === 'ArrowDown')) {
      e.preventDefault();
      editor.moveNode(ref, e.key === 'ArrowUp' ? -1 : 1);
    }
  };
  const sameGroup = () => dragging && props.group && dragging.group === props.group;
  const onDragOver = (e: DragEvent) => {
    if (!sameGroup()) return;
    e.preventDefault();
    e.stopPropagation();
    const box = (e.currentTarget as HTMLElement).getBoundingClientRect();
    setDropHint(e.clientY < box.top + box.height / 2 ? 'before' : 'after');
  };
  const onDrop = (e: DragEvent) => {
    if (!sameGroup() || !dragging || props.index === undefined) return;
    e.preventDefault();
    e.stopPropagation();
    const from = dragging.index;
    let to = dropHint === 'after' ? props.index + 1 : props.index;
    if (to > from) to -= 1;
    setDropHint(null);
    if (to !== from) editor.moveNode(dragging.ref, to - from);
    dragging = null;
  };

  return (
    <li
      role="treeitem"
      aria-expanded={hasChildren ? open : undefined}
      aria-selected={props.selected ?? false}
      className={`tree__node tree__node--${props.kind}`}
      data-testid={`tree-${props.kind}`}
      data-zone={ref?.zone}
    >
      <div
        className={`tree__row-wrap ${props.selected ? 'tree__row-wrap--selected' : ''} ${dropHint ? `tree__row-wrap--drop-${dropHint}` : ''}`}
        draggable={!!ref && !renaming}
        onDragStart={(e) => {
          if (!ref || props.group === undefined || props.index === undefined) return;
          dragging = { ref, group: props.group, index: props.index };
          e.dataTransfer.effectAllowed = 'move';
          e.dataTransfer.setData('text/plain', props.label);
        }}
        onDragEnd={() => {
          dragging = null;
          setDropHint(null);
        }}
        onDragOver={onDragOver}
        onDragLeave={() => setDropHint(null)}
        onDrop={onDrop}
      >
        {renaming ? (
          <input
            className="tree__rename"
            data-testid="tree-rename"
            aria-label={`Rename ${props.label}`}
            defaultValue={props.label}
            autoFocus
            onFocus={(e) => e.currentTarget.select()}
            onBlur={(e) => commitRename(e.currentTarget.value)}
            onKeyDown={(e) => {
              if (e.key === 'Enter') commitRename(e.currentTarget.value);
              if (e.key === 'Escape') setRenaming(false);
            }}
          />
        ) : (
          <button
            type="button"
            className="tree__row"
            title={props.title || undefined}
            onClick={() => {
              if (hasChildren) setOpen(!open);
              if (ref) editor.selectNode(ref);
            }}
            onDoubleClick={() => ref && setRenaming(true)}
            onKeyDown={onKey}
            data-testid="tree-row"
          >
            <span
              className={`tree__chevron ${hasChildren ? '' : 'tree__chevron--none'} ${open ? 'tree__chevron--open' : ''}`}
              aria-hidden
            >
              ▸
            </span>
            <span
              className="tree__icon"
              style={props.swatch ? { color: props.swatch } : undefined}
              aria-hidden
            >
              {ICON[props.kind] ?? '•'}
            </span>
            <span className="tree__label">{props.label}</span>
            {props.detail && <span className="tree__detail">{props.detail}</span>}
            {hasChildren && <span className="tree__count">{props.count}</span>}
          </button>
        )}
        <span className="tree__actions">
          {ref && (
            <>
              <button
                type="button"
                className="tree__action"
                title="Show on map"
                aria-label={`Show ${props.label} on the map`}
                data-testid="tree-locate"
                onClick={() => editor.selectNode(ref, true)}
              >
                <EditorIcon name="locate" size={12} />
              </button>
              <IconButton
                className="tree__action"
                title="Move up (Alt+↑)"
                label={`Move ${props.label} up`}
                testId="tree-up"
                disabled={props.index === 0}
                onClick={() => editor.moveNode(ref, -1)}
              >
                ↑
              </IconButton>
              <IconButton
                className="tree__action"
                title="Move down (Alt+↓)"
                label={`Move ${props.label} down`}
                testId="tree-down"
                disabled={props.index === (props.siblings ?? 1) - 1}
                onClick={() => editor.moveNode(ref, 1)}
              >
                ↓
              </IconButton>
              <IconButton
                className="tree__action"
                title="Rename (F2)"
                label={`Rename ${props.label}`}
                testId="tree-rename-button"
                onClick={() => setRenaming(true)}
              >
                ✎
              </IconButton>
            </>
          )}
          {props.onAdd && (
            <button
              type="button"
              className="tree__action"
              title={props.addLabel}
              aria-label={props.addLabel}
              data-testid="tree-add"
              onClick={() => {
                props.onAdd!();
                setOpen(true);
              }}
            >
              +
            </button>
          )}
          {ref && (
            <IconButton
              className="tree__action tree__action--danger"
              title="Delete (its tiles are cleared; Ctrl+Z brings it back)"
              label={`Delete ${props.label}`}
              testId="tree-delete"
              onClick={() => editor.deleteNode(ref)}
            >
              ✕
            </IconButton>
          )}
        </span>
      </div>
      {hasChildren && open && (
        <ul role="group" className="tree__children">
          {props.children}
        </ul>
      )}
    </li>
  );
}
