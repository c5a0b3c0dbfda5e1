/**
 * Reverie's five mazes and block tables → our collision grid, zone grids and tree.
 *
 * Reverie names a tile by the last column of each block table, and takes a tile's sector from
 * the sector maze, its arena from the arena maze and so on (maze.py). We follow that reading:
 * an arena is (the tile's sector, the arena block's name), an object is (the tile's arena, the
 * object type's name) — object types are global in reverie, so one type in several arenas
 * becomes one object per arena here. Zone ids are allocated in block-table order, so the same
 * files always give the same ids, and export → import keeps the tree's order.
 */
import type { EnvTree, Sector, Spawn } from '../../../../common/scenario/schema';
import type { FileIssue } from '../../../../common/scenario/split';
import { importWarning } from '../common';

/** A block table row: the block id and its name (the row's last column). */
export interface Block {
  id: number;
  name: string;
  /** The row's other name columns (world, sector, arena…), for blocks no tile uses. */
  path: string[];
}

/** What zones.ts needs: the mazes (flat, row-major) and the block tables. */
export interface ReverieMatrix {
  width: number;
  height: number;
  world: string;
  mazes: { sector: number[]; arena: number[]; object: number[]; spawn: number[] };
  blocks: { sector: Block[]; arena: Block[]; object: Block[]; spawn: Block[] };
  /** File names, for warnings. */
  files: { sector: string; arena: string; object: string; spawn: string };
}

/** Zone grids and the tree built from them. */
export interface ReverieZones {
  zones: { sector: number[]; arena: number[]; object: number[]; spawn: number[] };
  tree: EnvTree;
}

/** Builds zone grids and the tree; every approximation is pushed onto `warnings`. */
export function buildZones(m: ReverieMatrix, warnings: FileIssue[]): ReverieZones {
  const cells = m.width * m.height;
  const zones = {
    sector: new Array<number>(cells).fill(0),
    arena: new Array<number>(cells).fill(0),
    object: new Array<number>(cells).fill(0),
    spawn: new Array<number>(cells).fill(0),
  };
  const unknownIds = (file: string, ids: Set<number>) => {
    if (ids.size > 0) {
      warnings.push(
        importWarning(
          file,
          '',
          `uses block ids missing from its blocks CSV (${[...ids].slice(0, 5).join(', ')}${ids.size > 5 ? ', …' : ''}); those tiles were left without a zone`,
        ),
      );
    }
  };

  // Sectors: one per distinct name, in table order.
  const sectors: Sector[] = [];
  const sectorByName = new Map<string, Sector>();
  for (const block of m.blocks.sector) {
    if (sectorByName.has(block.name)) continue;
    const sector: Sector = {
      zone: sectors.length + 1,
      name: block.name,
      description: '',
      arenas: [],
    };
    sectors.push(sector);
    sectorByName.set(block.name, sector);
  }
  const sectorNameOf = new Map(m.blocks.sector.map((b) => [b.id, b.name]));
  const missingSectors = new Set<number>();
  m.mazes.sector.forEach((id, i) => {
    if (id === 0) return;
    const name = sectorNameOf.get(id);
    if (name === undefined) missingSectors.add(id);
    else zones.sector[i] = sectorByName.get(name)!.zone;
  });
  unknownIds(m.files.sector, missingSectors);

  // Arenas: (tile's sector, arena name), ordered by table row, then sector.
  const arenaRow = new Map(m.blocks.arena.map((b, row) => [b.id, row]));
  const arenaKeys = new Map<string, { row: number; sector: number; name: string }>();
  const missingArenas = new Set<number>();
  let outsideSectors = 0;
  m.mazes.arena.forEach((id, i) => {
    if (id === 0) return;
    const row = arenaRow.get(id);
    if (row === undefined) return void missingArenas.add(id);
    const sector = zones.sector[i];
    if (sector === 0) return void outsideSectors++;
    const name = m.blocks.arena[row].name;
    arenaKeys.set(`${sector}\u0000${name}`, { row, sector, name });
  });
  unknownIds(m.files.arena, missingArenas);
  if (outsideSectors > 0) {
    warnings.push(
      importWarning(
        m.files.arena,
        '',
        `${outsideSectors} arena tiles lie in no sector; reverie gives them no address, so they were left out`,
      ),
    );
  }
  // An arena no tile uses still belongs to the sector its row names (a home can be one).
  m.blocks.arena.forEach((block, row) => {
    const sector = sectorByName.get(block.path[1] ?? '');
    const placed = [...arenaKeys.values()].some((a) => a.name === block.name && a.row === row);
    if (!placed && sector) {
      arenaKeys.set(`${sector.zone}\u0000${block.name}`, {
        row,
        sector: sector.zone,
        name: block.name,
      });
      warnings.push(
        importWarning(
          m.files.arena,
          block.name,
          `arena block ${block.id} covers no tile; kept in the tree without tiles`,
        ),
      );
    }
  });
  const arenaOrder = [...arenaKeys.entries()].sort(
    ([, a], [, b]) => a.row - b.row || a.sector - b.sector,
  );
  const arenaZone = new Map<string, number>();
  const arenaSector = new Map<number, Sector>();
  arenaOrder.forEach(([key, a], index) => {
    const zone = index + 1;
    arenaZone.set(key, zone);
    const sector = sectors[a.sector - 1];
    arenaSector.set(zone, sector);
    sector.arenas.push({ zone, name: a.name, description: '', objects: [] });
  });
  m.mazes.arena.forEach((id, i) => {
    const row = arenaRow.get(id);
    if (id === 0 || row === undefined || zones.sector[i] === 0) return;
    zones.arena[i] = arenaZone.get(`${zones.sector[i]}\u0000${m.blocks.arena[row].name}`)!;
  });

  // Objects: (tile's arena, object type name), ordered by arena, then table row.
  const objectRow = new Map(m.blocks.object.map((b, row) => [b.id, row]));
  const objectKeys = new Map<string, { row: number; arena: number; name: string }>();
  const missingObjects = new Set<number>();
  let outsideArenas = 0;
  m.mazes.object.forEach((id, i) => {
    if (id === 0) return;
    const row = objectRow.get(id);
    if (row === undefined) return void missingObjects.add(id);
    const arena = zones.arena[i];
    if (arena === 0) return void outsideArenas++;
    const name = m.blocks.object[row].name;
    objectKeys.set(`${arena}\u0000${name}`, { row, arena, name });
  });
  unknownIds(m.files.object, missingObjects);
  if (outsideArenas > 0) {
    warnings.push(
      importWarning(
        m.files.object,
        '',
        `${outsideArenas} object tiles lie in no arena; our tree needs one, so they were left out`,
      ),
    );
  }
  const objectZone = new Map<string, number>();
  [...objectKeys.entries()]
    .sort(([, a], [, b]) => a.arena - b.arena || a.row - b.row)
    .forEach(([key, o], index) => {
      const zone = index + 1;
      objectZone.set(key, zone);
      const arena = arenaSector.get(o.arena)!.arenas.find((a) => a.zone === o.arena)!;
      arena.objects.push({ zone, name: o.name, description: '', defaultState: 'idle' });
    });
  m.mazes.object.forEach((id, i) => {
    const row = objectRow.get(id);
    if (id === 0 || row === undefined || zones.arena[i] === 0) return;
    zones.object[i] = objectZone.get(`${zones.arena[i]}\u0000${m.blocks.object[row].name}`)!;
  });

  // Spawns: one per spawning block that covers a tile, named by its last column (sp-A…).
  const spawns: Spawn[] = [];
  const spawnZone = new Map<number, number>();
  const used = new Set(m.mazes.spawn);
  const missingSpawns = new Set<number>();
  for (const block of m.blocks.spawn) {
    if (!used.has(block.id) || spawnZone.has(block.id)) continue;
    spawnZone.set(block.id, spawns.length + 1);
    spawns.push({ zone: spawns.length + 1, name: block.name });
  }
  m.mazes.spawn.forEach((id, i) => {
    if (id === 0) return;
    const zone = spawnZone.get(id);
    if (zone === undefined) missingSpawns.add(id);
    else zones.spawn[i] = zone;
  });
  unknownIds(m.files.spawn, missingSpawns);

  return { zones, tree: { world: m.world, sectors, spawns } };
}
