/**
 * A small imperative helper for authoring template towns in code: paint ground and decor,
 * draw walls with doors and windows, and declare sectors, arenas, objects and spawns while
 * painting their zone grids. `build()` derives collision from the tileset's walkable flags and
 * returns the map and environment tree of a Scenario.
 *
 * Coordinates are tiles; rectangles are inclusive of both corners.
 */
import type { Arena, EnvTree, Sector, TownMap, WorldObject } from '../../common/scenario/schema';
import { BUILTIN_TILESET } from '../../common/scenario/create';
import { hash01 } from '../art/pixel';
import { T, TILES, type TileKey } from '../art/tiles';

/** An inclusive tile rectangle: columns x0..x1, rows y0..y1. */
export interface Rect {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

/** Builds a Rect from inclusive corners. */
export function rect(x0: number, y0: number, x1: number, y1: number): Rect {
  return { x0, y0, x1, y1 };
}

/** A tile coordinate pair. */
export type Cell = readonly [number, number];

/** Every cell of a rectangle, row by row. */
export function cellsOf(r: Rect): Cell[] {
  const out: Cell[] = [];
  for (let y = r.y0; y <= r.y1; y++) for (let x = r.x0; x <= r.x1; x++) out.push([x, y]);
  return out;
}

/** Paints a town and records its tree; see the module comment. */
export class TownBuilder {
  readonly ground: number[];
  readonly decor: number[];
  /** Cells that are walls (drawn as brick face or wall top by `build`). */
  private readonly wall: boolean[];
  /** Cells forced walkable or blocked regardless of tiles (e.g. a fountain rim). */
  private readonly forced = new Map<number, 0 | 1>();
  private readonly zones: TownMap['zones'];
  private readonly sectors: Sector[] = [];
  private readonly spawns: EnvTree['spawns'] = [];
  private readonly arenaRects = new Map<Arena, { sector: Sector; cells: Set<number> }>();
  private next = { sector: 1, arena: 1, object: 1, spawn: 1 };

  constructor(
    readonly world: string,
    readonly width: number,
    readonly height: number,
    private readonly seed: number,
  ) {
    const blank = () => new Array<number>(width * height).fill(0);
    this.ground = blank();
    this.decor = blank();
    this.wall = new Array<boolean>(width * height).fill(false);
    this.zones = { sector: blank(), arena: blank(), object: blank(), spawn: blank() };
  }

  private at(x: number, y: number): number {
    if (x < 0 || y < 0 || x >= this.width || y >= this.height) {
      throw new Error(`tile ${x},${y} is off the ${this.width}×${this.height} map`);
    }
    return y * this.width + x;
  }

  /** Fills a rectangle of the ground layer. `grass` picks a seeded mix of the three grasses. */
  fill(r: Rect, tile: TileKey | 'grass'): this {
    for (const [x, y] of cellsOf(r)) {
      let index = T[tile];
      if (tile === 'grass') {
        const v = hash01(this.seed, x, y);
        index = v < 0.72 ? T.grass : v < 0.92 ? T.grassTufts : T.grassClover;
      }
      this.ground[this.at(x, y)] = index;
      this.wall[this.at(x, y)] = false;
    }
    return this;
  }

  /** Places a decor tile (furniture, plants, fences…) on each cell. */
  place(tile: TileKey, ...cells: Cell[]): this {
    for (const [x, y] of cells) this.decor[this.at(x, y)] = T[tile];
    return this;
  }

  /** Removes decor from each cell. */
  clear(...cells: Cell[]): this {
    for (const [x, y] of cells) this.decor[this.at(x, y)] = 0;
    return this;
  }

  /** Marks cells as walls (blocked; drawn by `build`). */
  walls(...cells: Cell[]): this {
    for (const [x, y] of cells) {
      this.wall[this.at(x, y)] = true;
      this.decor[this.at(x, y)] = 0;
    }
    return this;
  }

  /** A building shell: walls around `r` and `floor` inside. */
  building(r: Rect, floor: TileKey): this {
    this.fill(rect(r.x0 + 1, r.y0 + 1, r.x1 - 1, r.y1 - 1), floor);
    for (let x = r.x0; x <= r.x1; x++) this.walls([x, r.y0], [x, r.y1]);
    for (let y = r.y0; y <= r.y1; y++) this.walls([r.x0, y], [r.x1, y]);
    return this;
  }

  /** A horizontal wall from x0 to x1 on row y. */
  hwall(x0: number, x1: number, y: number): this {
    for (let x = x0; x <= x1; x++) this.walls([x, y]);
    return this;
  }

  /** A vertical wall from y0 to y1 on column x. */
  vwall(x: number, y0: number, y1: number): this {
    for (let y = y0; y <= y1; y++) this.walls([x, y]);
    return this;
  }

  /** Turns wall cells into doors (walkable). */
  door(...cells: Cell[]): this {
    for (const [x, y] of cells) {
      this.wall[this.at(x, y)] = false;
      this.ground[this.at(x, y)] = T.door;
    }
    return this;
  }

  /** Turns wall cells into windows (still blocked). */
  window(...cells: Cell[]): this {
    for (const [x, y] of cells) {
      this.wall[this.at(x, y)] = false;
      this.ground[this.at(x, y)] = T.window;
    }
    return this;
  }

  /** Overrides the derived collision of cells (1 blocked, 0 walkable). */
  force(value: 0 | 1, ...cells: Cell[]): this {
    for (const [x, y] of cells) this.forced.set(this.at(x, y), value);
    return this;
  }

  /** Declares a sector and paints its zone over `r`. */
  sector(name: string, description: string, r: Rect): Sector {
    const sector: Sector = { zone: this.next.sector++, name, description, arenas: [] };
    this.sectors.push(sector);
    for (const [x, y] of cellsOf(r)) this.zones.sector[this.at(x, y)] = sector.zone;
    return sector;
  }

  /** Declares an arena of `sector` and paints its zone over the rectangles. */
  arena(sector: Sector, name: string, description: string, ...rects: Rect[]): Arena {
    const arena: Arena = { zone: this.next.arena++, name, description, objects: [] };
    sector.arenas.push(arena);
    const cells = new Set<number>();
    for (const r of rects) {
      for (const [x, y] of cellsOf(r)) {
        const i = this.at(x, y);
        if (this.zones.sector[i] !== sector.zone) {
          throw new Error(`arena "${name}" tile ${x},${y} lies outside sector "${sector.name}"`);
        }
        if (this.zones.arena[i] !== 0)
          throw new Error(`arena "${name}" tile ${x},${y} overlaps another arena`);
        this.zones.arena[i] = arena.zone;
        cells.add(i);
      }
    }
    this.arenaRects.set(arena, { sector, cells });
    return arena;
  }

  /**
   * Declares an object in `arena`: places `tile` as decor on each cell (null: no decor, the
   * ground already shows it) and paints the object zone. Throws if a cell lies outside the
   * arena, so the template can never drift.
   */
  object(
    arena: Arena,
    name: string,
    description: string,
    defaultState: string,
    tile: TileKey | null,
    ...cells: Cell[]
  ): WorldObject {
    const object: WorldObject = { zone: this.next.object++, name, description, defaultState };
    const owner = this.arenaRects.get(arena);
    if (!owner) throw new Error(`object "${name}": unknown arena`);
    for (const [x, y] of cells) {
      const i = this.at(x, y);
      if (!owner.cells.has(i))
        throw new Error(`object "${name}" tile ${x},${y} lies outside arena "${arena.name}"`);
      this.zones.object[i] = object.zone;
      if (tile) this.decor[i] = T[tile];
    }
    arena.objects.push(object);
    return object;
  }

  /** Declares a spawn zone on the cells and returns its id. */
  spawn(name: string, ...cells: Cell[]): number {
    const zone = this.next.spawn++;
    this.spawns.push({ zone, name });
    for (const [x, y] of cells) this.zones.spawn[this.at(x, y)] = zone;
    return zone;
  }

  /**
   * Finishes the town: walls become brick face where their south side shows (the tile below
   * is not a wall) and wall top elsewhere; collision is 1 on walls and on any tile whose
   * tileset entry is not walkable, then `force` overrides apply.
   */
  build(): { map: TownMap; tree: EnvTree } {
    const { width, height } = this;
    const isWall = (x: number, y: number) => y < height && this.wall[y * width + x];
    const ground = this.ground.map((g, i) => {
      if (!this.wall[i]) return g;
      const x = i % width;
      const y = Math.floor(i / width);
      return isWall(x, y + 1) ? T.wallTop : T.wallBrick;
    });
    const walkable = (index: number) => index === 0 || (TILES[index - 1]?.walkable ?? true);
    const collision = ground.map((g, i) => {
      const forced = this.forced.get(i);
      if (forced !== undefined) return forced;
      return this.wall[i] || !walkable(g) || !walkable(this.decor[i]) ? 1 : 0;
    });
    const map: TownMap = {
      width,
      height,
      tileSize: 32,
      tileset: {
        ...BUILTIN_TILESET,
        names: Object.fromEntries(TILES.map((t) => [String(t.index - 1), t.name])),
      },
      layers: [
        { name: 'Ground', visible: true, tiles: ground },
        { name: 'Furniture and decor', visible: true, tiles: [...this.decor] },
      ],
      collision,
      zones: {
        sector: [...this.zones.sector],
        arena: [...this.zones.arena],
        object: [...this.zones.object],
        spawn: [...this.zones.spawn],
      },
    };
    return { map, tree: { world: this.world, sectors: this.sectors, spawns: this.spawns } };
  }
}
