/**
 * An agent's spatial memory (Park et al. 2023 §4.3 "the environment tree"; reverie
 * `persona/memory_structures/spatial_memory.py`): the part of the world tree the agent knows,
 * world > sectors > arenas > objects. It starts from the persona's known places and grows as the
 * agent sees tiles. Planning offers only these places to the model, so a chosen location is
 * always one the agent knows.
 */
import { z } from 'zod';
import { parseAddress } from '../../../common/scenario/address';
import type { TileWorld } from './TileWorld';
import type { Tile } from './tile';
import { visionSquare } from './vision';

/**
 * Serialised spatial memory. Lists rather than JSON objects keyed by name, so insertion order
 * survives even for names that look like numbers.
 */
export const spatialMemorySnapshotSchema = z.object({
  world: z.string().min(1),
  sectors: z.array(
    z.object({
      name: z.string().min(1),
      arenas: z.array(z.object({ name: z.string().min(1), objects: z.array(z.string().min(1)) })),
    }),
  ),
});
export type SpatialMemorySnapshot = z.infer<typeof spatialMemorySnapshotSchema>;

/**
 * The known tree of one agent. Children keep the order in which they were learned, which is
 * deterministic because perception scans tiles row-major.
 * @example const known = new SpatialMemory('the Ville'); known.learn('the Ville:cafe:kitchen');
 */
export class SpatialMemory {
  readonly world: string;
  private readonly tree = new Map<string, Map<string, Set<string>>>();

  constructor(world: string) {
    this.world = world;
  }

  /**
   * Adds an address and all its prefixes ('world:sector[:arena[:object]]'). Returns true when
   * anything was new; an address in another world is ignored.
   */
  learn(address: string): boolean {
    return this.learnCounting(address) > 0;
  }

  /**
   * Learns every place on the tiles within `visionRadius` (tiles, square) of `tile`, as
   * reverie's perceive does before it looks at events. Returns how many new places (sectors,
   * arenas and objects) were added.
   */
  observe(world: TileWorld, tile: Tile, visionRadius: number): number {
    const rect = visionSquare(world.width, world.height, tile, visionRadius);
    let added = 0;
    for (let y = rect.y0; y <= rect.y1; y++) {
      for (let x = rect.x0; x <= rect.x1; x++) {
        const d = world.details({ x, y });
        if (!d?.sector) continue;
        // details() only names an arena inside a sector and an object inside an arena.
        added += this.learnCounting(
          [d.world, d.sector, d.arena, d.object].filter(Boolean).join(':'),
        );
      }
    }
    return added;
  }

  /** Adds an address and its prefixes; returns how many places were new. */
  private learnCounting(address: string): number {
    const [world, sector, arena, object] = parseAddress(address);
    if (world !== this.world || !sector) return 0;
    let added = 0;
    let arenas = this.tree.get(sector);
    if (!arenas) {
      arenas = new Map();
      this.tree.set(sector, arenas);
      added++;
    }
    if (!arena) return added;
    let objects = arenas.get(arena);
    if (!objects) {
      objects = new Set();
      arenas.set(arena, objects);
      added++;
    }
    if (!object || objects.has(object)) return added;
    objects.add(object);
    return added + 1;
  }

  /** True when the agent knows this address (any depth, world included). */
  knows(address: string): boolean {
    const [world, sector, arena, object, ...rest] = parseAddress(address);
    if (world !== this.world || rest.length > 0) return false;
    if (sector === undefined) return true;
    const arenas = this.tree.get(sector);
    if (!arenas) return false;
    if (arena === undefined) return true;
    const objects = arenas.get(arena);
    if (!objects) return false;
    return object === undefined || objects.has(object);
  }

  /** Known sector names, in the order learned. */
  sectors(): string[] {
    return [...this.tree.keys()];
  }

  /** Known arena names of a sector, in the order learned (empty for an unknown sector). */
  arenas(sector: string): string[] {
    return [...(this.tree.get(sector)?.keys() ?? [])];
  }

  /** Known object names of an arena, in the order learned. */
  objects(sector: string, arena: string): string[] {
    return [...(this.tree.get(sector)?.get(arena) ?? [])];
  }

  /** Number of known places: sectors + arenas + objects. */
  size(): number {
    let n = 0;
    for (const arenas of this.tree.values()) {
      n += 1;
      for (const objects of arenas.values()) n += 1 + objects.size;
    }
    return n;
  }

  toSnapshot(): SpatialMemorySnapshot {
    return {
      world: this.world,
      sectors: [...this.tree].map(([name, arenas]) => ({
        name,
        arenas: [...arenas].map(([arena, objects]) => ({ name: arena, objects: [...objects] })),
      })),
    };
  }

  static fromSnapshot(snapshot: SpatialMemorySnapshot): SpatialMemory {
    const parsed = spatialMemorySnapshotSchema.parse(snapshot);
    const memory = new SpatialMemory(parsed.world);
    for (const sector of parsed.sectors) {
      memory.tree.set(sector.name, new Map());
      for (const arena of sector.arenas) {
        memory.tree.get(sector.name)?.set(arena.name, new Set(arena.objects));
      }
    }
    return memory;
  }
}
