import { describe, expect, it } from 'vitest';
import { MAX_SCALE, fitToView, visibleChunks, zoomAround } from './camera';

describe('camera', () => {
  it('fits a map centred inside the padded viewport', () => {
    const cam = fitToView({ width: 1000, height: 500 }, { width: 1048, height: 800 }, 24);
    expect(cam.scale).toBe(1);
    expect(cam).toMatchObject({ x: 24, y: 150 });
  });

  it('zooms around the cursor: the map point under it stays put', () => {
    const cam = { x: 10, y: 20, scale: 0.5 };
    const anchor = { x: 300, y: 200 };
    const next = zoomAround(cam, anchor, 2);
    const before = { x: (anchor.x - cam.x) / cam.scale, y: (anchor.y - cam.y) / cam.scale };
    const after = { x: (anchor.x - next.x) / next.scale, y: (anchor.y - next.y) / next.scale };
    expect(after.x).toBeCloseTo(before.x);
    expect(after.y).toBeCloseTo(before.y);
    expect(zoomAround({ x: 0, y: 0, scale: 7 }, anchor, 10).scale).toBe(MAX_SCALE);
  });

  it('culls to the chunks in view plus a one-chunk margin, clipped to the map', () => {
    const range = visibleChunks({ x: -1024, y: 0, scale: 1 }, { width: 512, height: 512 }, 512, {
      x: 10,
      y: 10,
    });
    expect(range).toEqual({ x0: 1, y0: 0, x1: 4, y1: 2 });
    const all = visibleChunks({ x: 0, y: 0, scale: 0.01 }, { width: 800, height: 600 }, 512, {
      x: 3,
      y: 2,
    });
    expect(all).toEqual({ x0: 0, y0: 0, x1: 2, y1: 1 });
  });
});
