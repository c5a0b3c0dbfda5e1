/**
 * The page's shortcut dispatcher: one window keydown listener per view, answering the keys of
 * its part of the registry. No shortcut runs while a dialog is open (the dialog owns the
 * keyboard), and only `whileTyping` ones run while a text field has focus.
 */
import { useEffect, useRef } from 'react';
import { keyPressOf, matchesChord, type KeyPress, type Shortcut } from './chord';
import { isDialogOpen } from './dialogStack';

/** Returns false to let the key do what it would have done (no preventDefault). */
export type ShortcutHandler = (press: KeyPress, e: KeyboardEvent) => boolean | void;

/** True when the event's target edits text (the field keeps its own keys). */
export function isTyping(target: EventTarget | null): boolean {
  return !!(target as HTMLElement | null)?.closest?.(
    'input, textarea, select, [contenteditable="true"]',
  );
}

/** Whether a key may reach the page's shortcuts at all (no dialog open, not typing unless allowed). */
export function keyForPage(e: KeyboardEvent, whileTyping = false): boolean {
  if (isDialogOpen()) return false;
  return whileTyping || !isTyping(e.target);
}

/** The shortcut of `list` that `press` is, if any. */
export function findShortcut<S extends Shortcut>(list: readonly S[], press: KeyPress): S | null {
  return list.find((s) => s.keys.some((chord) => matchesChord(chord, press))) ?? null;
}

/** Answers the shortcuts of `list` that have a handler, for as long as the component is mounted. */
export function useShortcuts<Id extends string>(
  list: readonly Shortcut<Id>[],
  handlers: Partial<Record<Id, ShortcutHandler>>,
): void {
  const ref = useRef(handlers);
  ref.current = handlers;
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const press = keyPressOf(e);
      const hit = findShortcut(list, press);
      const handler = hit && ref.current[hit.id];
      if (!hit || !handler || !keyForPage(e, hit.whileTyping)) return;
      if (handler(press, e) !== false) e.preventDefault();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [list]);
}
