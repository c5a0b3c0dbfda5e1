/**
 * The main window's size, position and maximized state, restored at launch and saved on
 * close in `<home data folder>/window-state.json`. A saved position on a display that is no
 * longer attached (a laptop undocked) is moved back onto one that is.
 */
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { writeFileAtomicSync } from '../fsx/atomic';

export const WINDOW_STATE_FILE = 'window-state.json';

export const windowStateSchema = z.object({
  x: z.number().int().optional(),
  y: z.number().int().optional(),
  width: z.number().int().min(1).max(100_000),
  height: z.number().int().min(1).max(100_000),
  maximized: z.boolean().default(false),
});
export type WindowState = z.infer<typeof windowStateSchema>;

export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

export const DEFAULT_WINDOW: WindowState = { width: 1440, height: 900, maximized: false };
/** The smallest window the studio's layout works in. */
export const MIN_WINDOW = { width: 900, height: 600 };
/** How much of the title bar must be on a display for the user to grab it, px. */
const GRAB_MARGIN = 64;

function overlap(a: Rect, b: Rect): number {
  const w = Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x);
  const h = Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y);
  return w > 0 && h > 0 ? w * h : 0;
}

/**
 * Fits `state` to the displays' work areas (`displays[0]` is the primary): the size shrinks to
 * the display it is on, and a window whose title bar is on no display is centred on the
 * display it overlaps most (the primary when none). Pure.
 */
export function clampWindowState(state: WindowState, displays: readonly Rect[]): WindowState {
  const primary = displays[0];
  if (!primary) return state;
  const placed = state.x !== undefined && state.y !== undefined;
  const rect: Rect = { x: state.x ?? 0, y: state.y ?? 0, width: state.width, height: state.height };
  const home = placed
    ? displays.reduce((best, d) => (overlap(rect, d) > overlap(rect, best) ? d : best), primary)
    : primary;
  const width = Math.max(Math.min(state.width, home.width), Math.min(MIN_WINDOW.width, home.width));
  const height = Math.max(
    Math.min(state.height, home.height),
    Math.min(MIN_WINDOW.height, home.height),
  );
  if (!placed) return { width, height, maximized: state.maximized };
  // The title bar: the top strip of the window, which must be grabbable on some display.
  const titleBar: Rect = { x: rect.x, y: rect.y, width, height: 1 };
  const grabbable = displays.some(
    (d) =>
      overlap(titleBar, d) > 0 &&
      Math.min(rect.x + width, d.x + d.width) - Math.max(rect.x, d.x) >= GRAB_MARGIN,
  );
  if (grabbable) {
    // Keep it where it was, nudged inside the display it is on.
    const x = Math.min(Math.max(rect.x, home.x), home.x + home.width - width);
    const y = Math.min(Math.max(rect.y, home.y), home.y + home.height - height);
    return { x, y, width, height, maximized: state.maximized };
  }
  return {
    x: Math.round(home.x + (home.width - width) / 2),
    y: Math.round(home.y + (home.height - height) / 2),
    width,
    height,
    maximized: state.maximized,
  };
}

/** The saved state, or the default when there is none or it is damaged. */
export function loadWindowStateSync(homeDir: string): WindowState {
  try {
    const parsed = windowStateSchema.safeParse(
      JSON.parse(readFileSync(join(homeDir, WINDOW_STATE_FILE), 'utf8')),
    );
    return parsed.success ? parsed.data : DEFAULT_WINDOW;
  } catch {
    return DEFAULT_WINDOW;
  }
}

/** Saved synchronously: it runs from the window's close event, just before the app exits. */
export function saveWindowStateSync(homeDir: string, state: WindowState): void {
  const file = join(homeDir, WINDOW_STATE_FILE);
  mkdirSync(homeDir, { recursive: true });
  writeFileAtomicSync(file, `${JSON.stringify(windowStateSchema.parse(state))}\n`);
}
