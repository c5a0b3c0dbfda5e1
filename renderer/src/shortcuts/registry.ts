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

/** The sheet's sections, in the order it shows them. */
export const SHORTCUT_GROUPS: readonly { title: string; shortcuts: readonly Shortcut[] }[] = [
  { title: 'Studio', shortcuts: STUDIO_SHORTCUTS },
  { title: 'Map editor', shortcuts: EDITOR_SHORTCUTS },
  { title: 'Run view', shortcuts: RUN_SHORTCUTS },
];
