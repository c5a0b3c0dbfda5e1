/**
 * The open modal dialogs, innermost last. Two things read it: the page's shortcut dispatcher
 * (no shortcut of the page runs while a dialog is open: the dialog owns the keyboard) and the
 * notices, which render inside the innermost dialog so they sit above it and stay clickable
 * (a modal <dialog> is in the browser's top layer and makes the rest of the page inert).
 */
import { useSyncExternalStore } from 'react';

let stack: readonly HTMLDialogElement[] = [];
const listeners = new Set<() => void>();

function publish(next: readonly HTMLDialogElement[]): void {
  stack = next;
  for (const l of listeners) l();
}

/** Records `dialog` as open (innermost); the returned function records it closed. */
export function pushDialog(dialog: HTMLDialogElement): () => void {
  publish([...stack, dialog]);
  return () => publish(stack.filter((d) => d !== dialog));
}

/** The innermost open dialog, or null. */
export function topDialog(): HTMLDialogElement | null {
  return stack.at(-1) ?? null;
}

/** True while any dialog is open. */
export function isDialogOpen(): boolean {
  return stack.length > 0;
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The innermost open dialog, as React state. */
export function useTopDialog(): HTMLDialogElement | null {
  return useSyncExternalStore(subscribe, topDialog, () => null);
}
