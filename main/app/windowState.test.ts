import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  DEFAULT_WINDOW,
  MIN_WINDOW,
  WINDOW_STATE_FILE,
  clampWindowState,
  loadWindowStateSync,
  saveWindowStateSync,
  type Rect,
} from './windowState';

const laptop: Rect = { x: 0, y: 0, width: 1920, height: 1050 };
/** An external monitor to the right of the laptop. */
const monitor: Rect = { x: 1920, y: 0, width: 2560, height: 1400 };

describe('clampWindowState', () => {
  it('keeps a window that is on a display where it was', () => {
    const s = { x: 100, y: 80, width: 1200, height: 800, maximized: false };
    expect(clampWindowState(s, [laptop, monitor])).toEqual(s);
    const onMonitor = { x: 2200, y: 100, width: 2000, height: 1200, maximized: true };
    expect(clampWindowState(onMonitor, [laptop, monitor])).toEqual(onMonitor);
  });

  it('brings a window from an unplugged monitor back, centred on the primary display', () => {
    const s = { x: 2200, y: 100, width: 1200, height: 800, maximized: false };
    expect(clampWindowState(s, [laptop])).toEqual({
      x: 360,
      y: 125,
      width: 1200,
      height: 800,
      maximized: false,
    });
  });

  it('shrinks a window bigger than its display and keeps it inside', () => {
    const s = { x: -50, y: -20, width: 3000, height: 2000, maximized: false };
    expect(clampWindowState(s, [laptop])).toEqual({
      x: 0,
      y: 0,
      width: laptop.width,
      height: laptop.height,
      maximized: false,
    });
  });

  it('rescues a title bar pushed above the top or almost off the side', () => {
    const above = clampWindowState(
      { x: 200, y: -900, width: 1000, height: 800, maximized: false },
      [laptop],
    );
    expect(above.y).toBeGreaterThanOrEqual(0);
    const sliver = clampWindowState(
      { x: 1900, y: 100, width: 1000, height: 800, maximized: false },
      [laptop],
    );
    expect(sliver.x! + sliver.width).toBeLessThanOrEqual(laptop.width);
  });

  it('never makes the window smaller than the layout needs when the display allows', () => {
    const tiny = clampWindowState({ width: 200, height: 100, maximized: false }, [laptop]);
    expect(tiny).toEqual({ ...MIN_WINDOW, maximized: false });
  });

  it('with no display information, changes nothing', () => {
    expect(clampWindowState(DEFAULT_WINDOW, [])).toEqual(DEFAULT_WINDOW);
  });
});

describe('window-state.json', () => {
  let home: string;
  beforeEach(async () => {
    home = await mkdtemp(join(tmpdir(), 'winstate-'));
  });
  afterEach(async () => {
    await rm(home, { recursive: true, force: true });
  });

  it('round-trips, and a missing or damaged file gives the default', async () => {
    expect(loadWindowStateSync(home)).toEqual(DEFAULT_WINDOW);
    const s = { x: 10, y: 20, width: 1000, height: 700, maximized: true };
    saveWindowStateSync(home, s);
    expect(loadWindowStateSync(home)).toEqual(s);
    await writeFile(join(home, WINDOW_STATE_FILE), '{"width": -5}');
    expect(loadWindowStateSync(home)).toEqual(DEFAULT_WINDOW);
  });
});
