/**
 * Key chords as the shortcut registry writes them: "Ctrl+Shift+Z", "Alt+N", "B", "Space", "?",
 * "ArrowLeft". One parser, one matcher and one formatter, so the key a handler answers and the
 * key the shortcut sheet shows are the same string.
 *
 * Matching rules: Ctrl stands for Ctrl or ⌘ (metaKey); letters and named keys must match Shift
 * exactly ("Z" is not "Shift+Z"); a punctuation key ("?", "/", ".") ignores Shift, which the
 * character already says (on most layouts "?" needs Shift).
 */

/** A key press as the registry needs it (from a KeyboardEvent or a test). */
export interface KeyPress {
  key: string;
  /** Ctrl or ⌘. */
  ctrl?: boolean;
  shift?: boolean;
  alt?: boolean;
}

interface Chord {
  /** KeyboardEvent.key, lower-cased for letters. */
  key: string;
  ctrl: boolean;
  shift: boolean;
  alt: boolean;
}

/** Names a chord may use for keys whose KeyboardEvent.key is awkward to write. */
const NAMED: Record<string, string> = { Space: ' ', Esc: 'Escape' };

const parsed = new Map<string, Chord>();

/** Parses "Ctrl+Shift+Z" (modifiers first, the key last); throws on an unknown modifier. */
export function parseChord(text: string): Chord {
  const hit = parsed.get(text);
  if (hit) return hit;
  // The key itself may be "+", so split off modifiers from the left only.
  const parts = text.split('+');
  let key = parts.pop()!;
  if (key === '' && parts.at(-1) === '') {
    parts.pop();
    key = '+';
  }
  const chord: Chord = { key: NAMED[key] ?? key, ctrl: false, shift: false, alt: false };
  for (const m of parts) {
    if (m === 'Ctrl') chord.ctrl = true;
    else if (m === 'Shift') chord.shift = true;
    else if (m === 'Alt') chord.alt = true;
    else throw new Error(`Unknown modifier "${m}" in shortcut "${text}"`);
  }
  if (chord.key.length === 1) chord.key = chord.key.toLowerCase();
  parsed.set(text, chord);
  return chord;
}

/** A single printable character that is not a letter: its Shift state is part of the character. */
function isPunctuation(key: string): boolean {
  return key.length === 1 && key !== ' ' && key.toLowerCase() === key.toUpperCase();
}

/** True when `press` is the chord `text`. */
export function matchesChord(text: string, press: KeyPress): boolean {
  const c = parseChord(text);
  const key = press.key.length === 1 ? press.key.toLowerCase() : press.key;
  if (key !== c.key) return false;
  if (!!press.ctrl !== c.ctrl || !!press.alt !== c.alt) return false;
  return isPunctuation(c.key) || !!press.shift === c.shift;
}

const SHOWN: Record<string, string> = {
  ' ': 'Space',
  Escape: 'Esc',
  ArrowLeft: '←',
  ArrowRight: '→',
  ArrowUp: '↑',
  ArrowDown: '↓',
};

/** The chord as a person reads it: "Ctrl+Shift+Z", "Space", "←". */
export function formatChord(text: string): string {
  const c = parseChord(text);
  const key = SHOWN[c.key] ?? (c.key.length === 1 ? c.key.toUpperCase() : c.key);
  return [c.ctrl && 'Ctrl', c.alt && 'Alt', c.shift && 'Shift', key].filter(Boolean).join('+');
}

/** A KeyboardEvent as a KeyPress. */
export function keyPressOf(e: KeyboardEvent): KeyPress {
  return { key: e.key, ctrl: e.ctrlKey || e.metaKey, shift: e.shiftKey, alt: e.altKey };
}

/**
 * One entry of the shortcut registry: what the sheet lists and what a dispatcher answers.
 * `keys` are chords in parseChord's form; the first is the one shown first.
 */
export interface Shortcut<Id extends string = string> {
  id: Id;
  keys: readonly string[];
  /** What it does, in words ("Undo the last edit"). */
  label: string;
  /** Also while typing in a text field (Ctrl chords that fields do not use themselves). */
  whileTyping?: boolean;
}
