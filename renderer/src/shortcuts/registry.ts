/**
 * Every keyboard shortcut of the studio, in one registry: the dispatchers answer only the keys
 * declared here (useShortcuts, MapEditor.keyDown) and the shortcut sheet (`?`) lists exactly
 * these, so the list cannot drift from what the keys do. registry.test.ts fails on a conflict.
 */
import { EDITOR_SHORTCUTS } from '../editor/editorShortcuts';
import type { Shortcut } from './chord';

export type StudioShortcutId =
  | 'studio.newBlank'
  | 'studio.export'
  | 'studio.import'
  | 'studio.search'
  | 'studio.settings'
  | 'studio.shortcuts';

/** Shortcuts that work wherever the studio is (no dialog open). */
export const STUDIO_SHORTCUTS: readonly Shortcut<StudioShortcutId>[] = [
  {
    id: 'studio.newBlank',
    // Browsers keep Ctrl+N for a new window; in web mode Alt+N is the one that arrives.
    keys: ['Ctrl+N', 'Alt+N'],
    label: 'New blank town',
    whileTyping: true,
  },
  { id: 'studio.import', keys: ['Ctrl+O'], label: 'Import a .simpack', whileTyping: true },
  {
    id: 'studio.export',
    keys: ['Ctrl+E'],
    label: 'Export the open town as a .simpack',
    whileTyping: true,
  },
  { id: 'studio.search', keys: ['/'], label: 'Search towns' },
  { id: 'studio.settings', keys: ['Ctrl+,'], label: 'Settings', whileTyping: true },
  { id: 'studio.shortcuts', keys: ['?'], label: 'Show this list of shortcuts' },
];

export type RunShortcutId = 'run.togglePlay' | 'run.step' | 'run.walk';

/** Shortcuts of the run view (while a run is open there). */
export const RUN_SHORTCUTS: readonly Shortcut<RunShortcutId>[] = [
  { id: 'run.togglePlay', keys: ['Space'], label: 'Play or pause the run' },
  { id: 'run.step', keys: ['.'], label: 'Advance one step' },
  {
    id: 'run.walk',
    keys: ['ArrowUp', 'ArrowLeft', 'ArrowDown', 'ArrowRight'],
    label: 'Walk your character (after “Step into the town”)',
  },
];

export type TreeShortcutId =
  | 'tree.previous'
  | 'tree.next'
  | 'tree.first'
  | 'tree.last'
  | 'tree.open'
  | 'tree.close'
  | 'tree.select'
  | 'tree.rename'
  | 'tree.delete'
  | 'tree.moveUp'
  | 'tree.moveDown';

/**
 * Keys of the environment tree while a row has the focus (components/envTree/config.ts hands
 * exactly these to the tree library, its own defaults included).
 */
export const TREE_SHORTCUTS: readonly Shortcut<TreeShortcutId>[] = [
  { id: 'tree.previous', keys: ['ArrowUp'], label: 'Previous place' },
  { id: 'tree.next', keys: ['ArrowDown'], label: 'Next place' },
  { id: 'tree.first', keys: ['Home'], label: 'First place' },
  { id: 'tree.last', keys: ['End'], label: 'Last place' },
  { id: 'tree.open', keys: ['ArrowRight'], label: 'Open the place, or go to its first part' },
  { id: 'tree.close', keys: ['ArrowLeft'], label: 'Close the place, or go to the one it is in' },
  { id: 'tree.select', keys: ['Enter', 'Space'], label: 'Select the place (the map shows it)' },
  { id: 'tree.rename', keys: ['F2'], label: 'Rename the place (Enter keeps, Esc cancels)' },
  { id: 'tree.delete', keys: ['Delete'], label: 'Delete the place (undo brings it back)' },
  { id: 'tree.moveUp', keys: ['Alt+ArrowUp'], label: 'Move the place up among its neighbours' },
  {
    id: 'tree.moveDown',
    keys: ['Alt+ArrowDown'],
    label: 'Move the place down among its neighbours',
  },
];

/** The sheet's sections, in the order it shows them. */
export const SHORTCUT_GROUPS: readonly { title: string; shortcuts: readonly Shortcut[] }[] = [
  { title: 'Studio', shortcuts: STUDIO_SHORTCUTS },
  { title: 'Map editor', shortcuts: EDITOR_SHORTCUTS },
  { title: 'Environment tree', shortcuts: TREE_SHORTCUTS },
  { title: 'Run view', shortcuts: RUN_SHORTCUTS },
];
