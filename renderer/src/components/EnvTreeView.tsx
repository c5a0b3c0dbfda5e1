/** The environment tree (world > sectors > arenas > objects), collapsible, read-only for now. */
import { useState, type ReactNode } from 'react';
import type { EnvTree } from '../../../common/scenario/schema';
import { zoneColor } from '../canvas/colors';

export function EnvTreeView({ tree }: { tree: EnvTree }) {
  return (
    <ul className="tree" role="tree" data-testid="env-tree" aria-label="Environment tree">
      <TreeNode kind="world" label={tree.world} count={tree.sectors.length} defaultOpen>
        {tree.sectors.map((sector) => (
          <TreeNode
            key={sector.zone}
            kind="sector"
            label={sector.name}
            count={sector.arenas.length}
            swatch={zoneColor(sector.zone)}
            title={sector.description}
          >
            {sector.arenas.map((arena) => (
              <TreeNode
                key={arena.zone}
                kind="arena"
                label={arena.name}
                count={arena.objects.length}
                title={arena.description}
              >
                {arena.objects.map((object) => (
                  <TreeNode
                    key={object.zone}
                    kind="object"
                    label={object.name}
                    title={object.description}
                    detail={object.defaultState}
                  />
                ))}
              </TreeNode>
            ))}
          </TreeNode>
        ))}
        {tree.spawns.length > 0 && (
          <TreeNode kind="spawns" label="Spawn points" count={tree.spawns.length}>
            {tree.spawns.map((spawn) => (
              <TreeNode key={spawn.zone} kind="spawn" label={spawn.name} />
            ))}
          </TreeNode>
        )}
      </TreeNode>
      {tree.sectors.length === 0 && (
        <li className="tree__empty muted">
          No sectors yet — zones painted on the map will appear here.
        </li>
      )}
    </ul>
  );
}

const ICON: Record<string, string> = {
  world: '◎',
  sector: '▣',
  arena: '▢',
  object: '•',
  spawns: '⚑',
  spawn: '⚑',
};

function TreeNode(props: {
  kind: string;
  label: string;
  count?: number;
  detail?: string;
  swatch?: string;
  title?: string;
  defaultOpen?: boolean;
  children?: ReactNode;
}) {
  const hasChildren = (props.count ?? 0) > 0;
  const [open, setOpen] = useState(props.defaultOpen ?? false);
  return (
    <li
      role="treeitem"
      aria-expanded={hasChildren ? open : undefined}
      className={`tree__node tree__node--${props.kind}`}
      data-testid={`tree-${props.kind}`}
    >
      <button
        type="button"
        className="tree__row"
        title={props.title || undefined}
        onClick={() => hasChildren && setOpen(!open)}
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
      {hasChildren && open && (
        <ul role="group" className="tree__children">
          {props.children}
        </ul>
      )}
    </li>
  );
}
