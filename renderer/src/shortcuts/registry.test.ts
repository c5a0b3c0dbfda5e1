import { describe, expect, it } from 'vitest';
import { TOOLS } from '../editor/tools/toolList';
import { TestMapEditor } from '../editor/test/TestMapEditor';
import { parseChord, type Shortcut } from './chord';
import { EDITOR_SHORTCUTS } from '../editor/editorShortcuts';
import { RUN_SHORTCUTS, SHORTCUT_GROUPS, STUDIO_SHORTCUTS, TREE_SHORTCUTS } from './registry';
import { envTreeConfig } from '../components/envTree/config';

/** A chord in one canonical form, so "Ctrl+z" and "Ctrl+Z" collide as they should. */
function canonical(chord: string): string {
  const c = parseChord(chord);
  return JSON.stringify([c.key, c.ctrl, c.shift, c.alt]);
}

/** Chords used by more than one shortcut of `list`. */
function conflicts(list: readonly Shortcut[]): string[] {
  const owner = new Map<string, string>();
  const out: string[] = [];
  for (const s of list)
    for (const k of s.keys) {
      const c = canonical(k);
      const prev = owner.get(c);
      if (prev && prev !== s.id) out.push(`${k}: ${prev} and ${s.id}`);
      owner.set(c, s.id);
    }
  return out;
}

describe('the shortcut registry', () => {
  it('gives no key two meanings where both are active (studio with map, studio with run)', () => {
    expect(conflicts([...STUDIO_SHORTCUTS, ...EDITOR_SHORTCUTS])).toEqual([]);
    expect(conflicts([...STUDIO_SHORTCUTS, ...RUN_SHORTCUTS])).toEqual([]);
    expect(conflicts([...STUDIO_SHORTCUTS, ...TREE_SHORTCUTS])).toEqual([]);
  });

  it('lists every map tool with the key the toolbar shows', () => {
    for (const t of TOOLS) {
      const s = EDITOR_SHORTCUTS.find((e) => e.id === `tool.${t.id}`);
      expect(s?.keys, t.id).toEqual([t.shortcut]);
    }
  });

  it('is what the sheet shows: every group, every declared shortcut', () => {
    const shown = SHORTCUT_GROUPS.flatMap((g) => g.shortcuts.map((s) => s.id));
    expect(shown).toEqual(
      [...STUDIO_SHORTCUTS, ...EDITOR_SHORTCUTS, ...TREE_SHORTCUTS, ...RUN_SHORTCUTS].map(
        (s) => s.id,
      ),
    );
  });

  it('is what the map editor answers: each tool key switches to its tool', () => {
    const ed = new TestMapEditor();
    for (const t of TOOLS) {
      expect(ed.keyDown({ key: t.shortcut.toLowerCase() }), t.id).toBe(true);
      expect(ed.getUi().tool).toBe(t.id);
    }
    // A key the registry does not declare is left to the page.
    expect(ed.keyDown({ key: 'q' })).toBe(false);
  });

  it("is what the environment tree answers: its keys, in the tree library's notation", () => {
    const noop = () => undefined;
    const config = envTreeConfig(new Map(), {
      select: noop,
      rename: noop,
      move: noop,
      remove: noop,
    });
    const keys = Object.values(config.hotkeys ?? {})
      .map((h) => h?.hotkey)
      .sort();
    expect(keys).toEqual(
      [
        'ArrowUp',
        'ArrowDown',
        'Home',
        'End',
        'ArrowRight',
        'ArrowLeft',
        'Enter',
        'Space',
        'F2',
        'Delete',
        'AltLeft+ArrowUp',
        'AltRight+ArrowUp',
        'AltLeft+ArrowDown',
        'AltRight+ArrowDown',
      ].sort(),
    );
  });
});
