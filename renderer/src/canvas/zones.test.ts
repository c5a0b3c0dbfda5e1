import { describe, expect, it } from 'vitest';
import { addressAt, indexTree, zoneShapes } from './zones';
import { smallTown } from '../test/fixtures';

describe('zoneShapes', () => {
  it('outlines a rectangle with four merged segments and anchors its label inside', () => {
    // 5×4 grid with zone 7 on the 3×2 block at (1,1)-(3,2).
    // prettier-ignore
    const g = [
      0, 0, 0, 0, 0,
      0, 7, 7, 7, 0,
      0, 7, 7, 7, 0,
      0, 0, 0, 0, 0,
    ];
    const [shape] = zoneShapes(g, 5, 4);
    expect(shape).toMatchObject({ zone: 7, tiles: 6, minX: 1, minY: 1, maxX: 3, maxY: 2 });
    expect(shape.outline).toHaveLength(4);
    expect(shape.outline).toEqual(
      expect.arrayContaining([
        { x1: 1, y1: 1, x2: 4, y2: 1 },
        { x1: 1, y1: 3, x2: 4, y2: 3 },
        { x1: 1, y1: 1, x2: 1, y2: 3 },
        { x1: 4, y1: 1, x2: 4, y2: 3 },
      ]),
    );
    expect(g[shape.anchor.y * 5 + shape.anchor.x]).toBe(7);
  });

  it('draws the border between two touching zones once for each side', () => {
    const g = [1, 1, 2, 2];
    const shapes = zoneShapes(g, 4, 1);
    expect(shapes.map((s) => s.zone)).toEqual([1, 2]);
    expect(shapes[0].outline).toContainEqual({ x1: 2, y1: 0, x2: 2, y2: 1 });
    expect(shapes[1].outline).toContainEqual({ x1: 2, y1: 0, x2: 2, y2: 1 });
  });

  it('keeps the label anchor inside a U-shaped zone whose centroid is outside it', () => {
    // prettier-ignore
    const g = [
      3, 0, 3,
      3, 0, 3,
      3, 3, 3,
    ];
    const [shape] = zoneShapes(g, 3, 3);
    expect(g[shape.anchor.y * 3 + shape.anchor.x]).toBe(3);
  });
});

describe('addressAt', () => {
  it('names the deepest zone under a tile, in reverie form', () => {
    const town = smallTown();
    const index = indexTree(town.tree);
    expect(addressAt(town.map, town.tree, index, 0, 0)).toBe('Small Town:Mill:Loft:bed');
    expect(addressAt(town.map, town.tree, index, 1, 0)).toBe('Small Town:Mill:Loft');
    expect(addressAt(town.map, town.tree, index, 4, 0)).toBe('Small Town');
    expect(addressAt(town.map, town.tree, index, 6, 0)).toBeNull();
  });
});
