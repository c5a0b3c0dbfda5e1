/**
 * Building blocks for larger template towns, layered on TownBuilder without changing it (the
 * Willow Bend output must stay byte-identical): a house with any number of bedrooms, and a
 * "venue" — a public building split into rooms side by side, each an arena with its objects.
 */
import type { Arena, Sector } from '../../common/scenario/schema';
import type { TileKey } from '../art/tiles';
import { rect, type Cell, type TownBuilder } from './TownBuilder';

/** Which wall holds the front door: the street lies beyond it. */
export type Facing = 'north' | 'south';

export interface HouseResult {
  sector: Sector;
  /** Bedroom arenas in the order given. */
  bedrooms: Arena[];
  /** Up to three distinct spawn cells per bedroom, for the people who share it. */
  spawnCells: Cell[][];
}

/**
 * A 9-row house: living room and kitchen along the street, bedrooms and a bathroom behind,
 * every back room opening onto the front row. Width is 4 tiles per back room plus one.
 */
export function buildHouse(
  b: TownBuilder,
  x0: number,
  y0: number,
  facing: Facing,
  name: string,
  description: string,
  bedrooms: { name: string; description: string; floor: TileKey }[],
): HouseResult {
  const k = bedrooms.length;
  const W = (k + 1) * 4 + 1;
  const r = (i: number) => (facing === 'north' ? y0 + i : y0 + 8 - i);
  const rows = (a: number, c: number) => [Math.min(r(a), r(c)), Math.max(r(a), r(c))] as const;
  const outer = rect(x0, y0, x0 + W - 1, y0 + 8);
  b.building(outer, 'woodFloor');
  b.hwall(x0, x0 + W - 1, r(4));
  const xm = x0 + 2 * (k + 1);
  b.vwall(xm, ...rows(0, 4));
  b.door([xm, r(2)]);
  const [t0, t1] = rows(1, 3);
  const [b0, b1] = rows(5, 7);
  b.fill(rect(x0 + 1, t0, xm - 1, t1), k % 2 ? 'carpetRed' : 'carpetBlue');
  b.fill(rect(xm + 1, t0, x0 + W - 2, t1), 'tileFloor');
  for (let j = 1; j <= k; j++) b.vwall(x0 + 4 * j, ...rows(4, 8));
  for (let j = 0; j <= k; j++) {
    const dx = x0 + 4 * j + 2 === xm ? x0 + 4 * j + 1 : x0 + 4 * j + 2;
    b.door([dx, r(4)]);
    b.fill(rect(x0 + 4 * j + 1, b0, x0 + 4 * j + 3, b1), j < k ? bedrooms[j].floor : 'tileFloor');
  }
  b.door([x0 + 2, r(0)]);
  b.fill(rect(x0 + 2, r(-1), x0 + 2, r(-1)), 'cobble');
  b.window([x0 + W - 3, r(0)], [x0 + 2, r(8)], [x0 + W - 3, r(8)]);

  const sector = b.sector(name, description, outer);
  const living = b.arena(
    sector,
    'living room',
    'The front room, where the household sits in the evening.',
    rect(x0 + 1, t0, xm - 1, t1),
  );
  const kitchen = b.arena(
    sector,
    'kitchen',
    'A kitchen with a stove, a counter and a table.',
    rect(xm + 1, t0, x0 + W - 2, t1),
  );
  b.object(
    living,
    'sofa',
    'A sofa with mismatched cushions.',
    'idle',
    'sofa',
    [x0 + 1, r(3)],
    [x0 + 2, r(3)],
  );
  b.object(living, 'bookshelf', 'A shelf of books and board games.', 'idle', 'bookshelf', [
    xm - 1,
    r(1),
  ]);
  b.object(kitchen, 'stove', 'A gas stove.', 'off', 'stove', [x0 + W - 2, r(1)]);
  b.object(kitchen, 'kitchen counter', 'A counter for chopping and pouring.', 'idle', 'counter', [
    x0 + W - 3,
    r(1),
  ]);
  b.object(kitchen, 'dining table', 'The table where meals are eaten.', 'idle', 'table', [
    xm + 1,
    r(3),
  ]);

  const arenas: Arena[] = [];
  const spawnCells: Cell[][] = [];
  bedrooms.forEach((bed, j) => {
    const bx = x0 + 4 * j + 1;
    const arena = b.arena(sector, bed.name, bed.description, rect(bx, b0, bx + 2, b1));
    b.object(arena, 'bed', 'A bed with a thick quilt.', 'made', 'bed', [bx, r(7)]);
    b.object(arena, 'desk', 'A small desk with a lamp.', 'idle', 'desk', [bx + 2, r(7)]);
    arenas.push(arena);
    spawnCells.push([
      [bx + 1, r(6)],
      [bx + 2, r(6)],
      [bx, r(6)],
    ]);
  });
  const bx = x0 + 4 * k + 1;
  const bath = b.arena(sector, 'bathroom', 'A small tiled bathroom.', rect(bx, b0, bx + 2, b1));
  b.object(bath, 'sink', 'A washbasin under a mirror.', 'idle', 'counter', [bx + 2, r(7)]);
  b.object(bath, 'shower', 'A tiled shower.', 'off', null, [bx, r(7)]);
  return { sector, bedrooms: arenas, spawnCells };
}

/** An object in a venue room: cells are offsets from the room's top-left interior tile. */
export type VenueObject = [
  name: string,
  description: string,
  state: string,
  tile: TileKey | null,
  ...cells: Cell[],
];

export interface VenueRoom {
  name: string;
  description: string;
  /** Interior columns. */
  width: number;
  floor: TileKey;
  /** Whether this room has a door in the street wall. */
  frontDoor: boolean;
  objects: VenueObject[];
}

/**
 * A public building: rooms side by side from west to east inside `outer`, separated by walls
 * with a door halfway down; front doors face the street. Widths plus walls must fill the
 * interior exactly, so a layout mistake throws instead of drawing a gap.
 */
export function buildVenue(
  b: TownBuilder,
  outer: { x0: number; y0: number; x1: number; y1: number },
  facing: Facing,
  name: string,
  description: string,
  rooms: VenueRoom[],
): { sector: Sector; arenas: Arena[] } {
  const inner = outer.x1 - outer.x0 - 1;
  const used = rooms.reduce((n, room) => n + room.width, 0) + rooms.length - 1;
  if (used !== inner) throw new Error(`${name}: rooms fill ${used} of ${inner} columns`);
  b.building(outer, 'woodFloor');
  const top = outer.y0 + 1;
  const bottom = outer.y1 - 1;
  const street = facing === 'north' ? outer.y0 : outer.y1;
  const outside = facing === 'north' ? outer.y0 - 1 : outer.y1 + 1;
  const sector = b.sector(name, description, outer);
  const arenas: Arena[] = [];
  let x = outer.x0 + 1;
  rooms.forEach((room, i) => {
    const area = rect(x, top, x + room.width - 1, bottom);
    b.fill(area, room.floor);
    if (i > 0) {
      b.vwall(x - 1, outer.y0, outer.y1);
      b.door([x - 1, Math.floor((top + bottom) / 2)]);
    }
    const mid = x + Math.floor(room.width / 2);
    if (room.frontDoor) {
      b.door([mid, street]);
      b.fill(rect(mid, outside, mid, outside), 'cobble');
    } else if (room.width >= 3) b.window([mid, street]);
    if (room.width >= 5) b.window([x + 1, facing === 'north' ? outer.y1 : outer.y0]);
    const arena = b.arena(sector, room.name, room.description, area);
    for (const [oname, odesc, state, tile, ...cells] of room.objects) {
      b.object(
        arena,
        oname,
        odesc,
        state,
        tile,
        ...cells.map(([dx, dy]) => [x + dx, top + dy] as const),
      );
    }
    arenas.push(arena);
    x += room.width + 1;
  });
  return { sector, arenas };
}
