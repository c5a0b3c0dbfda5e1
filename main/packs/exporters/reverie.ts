/**
 * Export to the original Generative Agents ("reverie") layout, so a scenario runs in the
 * original Python code:
 *
 * - `static_dirs/assets/<maze>/matrix/` — maze_meta_info.json, maze/*.csv, special_blocks/*.csv
 * - `storage/<sim>/reverie/meta.json`, `storage/<sim>/environment/0.json`
 * - `storage/<sim>/personas/<Name>/bootstrap_memory/` — scratch.json, spatial_memory.json and
 *   an empty associative_memory/ (nodes.json, kw_strength.json, embeddings.json)
 *
 * Block ids are allocated as in the original: collision 32125, world 32134, then every named
 * block from 32135 on (sectors, arenas, object types, spawning locations). The original's
 * backend reads `static_dirs/assets/the_ville/matrix` whatever the maze is called, hence the
 * default maze name.
 */
import { lstat, mkdir } from 'node:fs/promises';
import path from 'node:path';
import { formatAddress } from '../../../common/scenario/address';
import { writeFileAtomic } from '../../fsx/atomic';
import type { Scenario } from '../../../common/scenario/schema';
import type { FileIssue } from '../../../common/scenario/split';
import { parseScenario } from '../../../common/scenario/validate';
import { importError, importWarning } from '../importers/common';
import {
  ALL_ARENAS,
  COLLISION_BLOCK_ID,
  DEFAULT_MAZE,
  FIRST_NAMED_BLOCK_ID,
  WORLD_BLOCK_ID,
  formatMaze,
  formatReverieCsvRow,
  isoToReverie,
} from '../importers/reverie/format';
import { knownPlacesToSpatialMemory, personaToScratch, reverieName } from './reverie-scratch';

/** Options for exportReverie. */
export interface ReverieExportOptions {
  /** Maze folder name under static_dirs/assets (default `the_ville`, which reverie reads). */
  maze?: string;
  /** Base simulation name under storage/ (default `base_<scenario id>`). */
  sim?: string;
  /** Replace an existing maze matrix / simulation folder of the same names. */
  force?: boolean;
}

/** What was written. */
export interface ReverieExportResult {
  maze: string;
  sim: string;
  /** Written files, relative to the export folder, "/"-separated. */
  files: string[];
  warnings: FileIssue[];
}

const SAFE_SEGMENT = /^(?!\.{1,2}$)[A-Za-z0-9_.-]{1,100}$/;

/**
 * Writes `scenario` as a reverie `frontend_server` folder (or into an existing one).
 * @throws ScenarioError when the scenario is invalid; ImportError-style errors naming the
 * folder when a name cannot be written in reverie's format or the target already exists.
 */
export async function exportReverie(
  input: Scenario,
  folder: string,
  options: ReverieExportOptions = {},
): Promise<ReverieExportResult> {
  const scenario = parseScenario(input);
  const maze = options.maze ?? DEFAULT_MAZE;
  const sim = options.sim ?? `base_${scenario.id.replace(/-/g, '_')}`;
  for (const [what, value] of [
    ['maze', maze],
    ['sim', sim],
  ] as const) {
    if (!SAFE_SEGMENT.test(value))
      throw importError(
        folder,
        what,
        `expected a folder name of letters, digits, "_", "-" or ".", got "${value}"`,
      );
  }
  const warnings: FileIssue[] = [];
  const files = buildFiles(scenario, folder, maze, sim, warnings);

  const root = path.resolve(folder);
  for (const existing of [`static_dirs/assets/${maze}/matrix`, `storage/${sim}`]) {
    if (!options.force && (await lstat(path.join(root, existing)).catch(() => null)))
      throw importError(folder, existing, 'already exists (use --force to replace it)');
  }
  for (const [rel, text] of files) {
    const target = path.join(root, ...rel.split('/'));
    await mkdir(path.dirname(target), { recursive: true });
    // Each file whole (main/fsx/atomic): an export killed mid-way leaves no torn file.
    await writeFileAtomic(target, text);
  }
  return { maze, sim, files: [...files.keys()], warnings };
}

/** Every file of the export, by "/"-separated relative path. Pure. */
export function buildFiles(
  scenario: Scenario,
  folder: string,
  maze: string,
  sim: string,
  warnings: FileIssue[],
): Map<string, string> {
  const { map, tree } = scenario;
  checkNames(scenario, folder);
  const files = new Map<string, string>();
  const matrix = `static_dirs/assets/${maze}/matrix`;
  const json = (value: unknown) => JSON.stringify(value, null, 2);

  const blocks = allocateBlocks(scenario, folder, warnings);
  files.set(
    `${matrix}/maze_meta_info.json`,
    json({
      world_name: tree.world,
      maze_width: map.width,
      maze_height: map.height,
      sq_tile_size: map.tileSize,
      special_constraint: '',
    }),
  );
  files.set(
    `${matrix}/maze/collision_maze.csv`,
    formatMaze(map.collision.map((c) => (c ? COLLISION_BLOCK_ID : 0))),
  );
  for (const kind of ['sector', 'arena', 'object', 'spawn'] as const) {
    const ids = blocks[kind].idOfZone;
    files.set(
      `${matrix}/maze/${FILE_KIND[kind]}_maze.csv`,
      formatMaze(map.zones[kind].map((z) => ids.get(z) ?? 0)),
    );
    files.set(
      `${matrix}/special_blocks/${FILE_KIND[kind]}_blocks.csv`,
      blocks[kind].rows.map(formatReverieCsvRow).join('\n'),
    );
  }
  files.set(
    `${matrix}/special_blocks/world_blocks.csv`,
    formatReverieCsvRow([WORLD_BLOCK_ID, tree.world]),
  );

  const storage = `storage/${sim}`;
  const names = scenario.personas.map(reverieName);
  const { currTime, startDate } = isoToReverie(scenario.settings.startTime);
  files.set(
    `${storage}/reverie/meta.json`,
    json({
      fork_sim_code: sim,
      start_date: startDate,
      curr_time: currTime,
      sec_per_step: scenario.settings.secondsPerStep,
      maze_name: maze,
      persona_names: names,
      step: 0,
    }),
  );
  const env: Record<string, { maze: string; x: number; y: number }> = {};
  scenario.personas.forEach((persona, i) => {
    const cell = startCell(scenario, i, folder);
    env[names[i]] = { maze, x: cell % map.width, y: Math.floor(cell / map.width) };
    const memory = `${storage}/personas/${names[i]}/bootstrap_memory`;
    files.set(
      `${memory}/scratch.json`,
      json(personaToScratch(persona, scenario.settings.reflectionThreshold)),
    );
    files.set(
      `${memory}/spatial_memory.json`,
      json(knownPlacesToSpatialMemory(persona.knownPlaces)),
    );
    files.set(`${memory}/associative_memory/nodes.json`, '{}');
    files.set(
      `${memory}/associative_memory/kw_strength.json`,
      json({ kw_strength_event: {}, kw_strength_thought: {} }),
    );
    files.set(`${memory}/associative_memory/embeddings.json`, '{}');
  });
  files.set(`${storage}/environment/0.json`, json(env) + '\n');
  return files;
}

const FILE_KIND = {
  sector: 'sector',
  arena: 'arena',
  object: 'game_object',
  spawn: 'spawning_location',
} as const;

interface BlockTable {
  rows: (string | number)[][];
  idOfZone: Map<number, number>;
}

/** Allocates block ids 32135… in tree order: sectors, arenas, object types, spawns. */
function allocateBlocks(
  scenario: Scenario,
  folder: string,
  warnings: FileIssue[],
): Record<'sector' | 'arena' | 'object' | 'spawn', BlockTable> {
  const { tree, map } = scenario;
  let next = FIRST_NAMED_BLOCK_ID;
  const table = (): BlockTable => ({ rows: [], idOfZone: new Map() });
  const sector = table();
  const arena = table();
  const object = table();
  const spawn = table();
  for (const s of tree.sectors) {
    sector.idOfZone.set(s.zone, next);
    sector.rows.push([next++, tree.world, s.name]);
  }
  for (const s of tree.sectors) {
    for (const a of s.arenas) {
      arena.idOfZone.set(a.zone, next);
      arena.rows.push([next++, tree.world, s.name, a.name]);
    }
  }
  // Object types are global in reverie: one block per distinct name, first use first.
  const typeId = new Map<string, number>();
  for (const s of tree.sectors) {
    for (const a of s.arenas) {
      for (const o of a.objects) {
        if (!typeId.has(o.name)) {
          typeId.set(o.name, next);
          object.rows.push([next++, tree.world, ALL_ARENAS, o.name]);
        }
        object.idOfZone.set(o.zone, typeId.get(o.name)!);
      }
    }
  }
  // A spawning block names its sector and arena; ours are read off the spawn's first tile.
  const firstCell = new Map<number, number>();
  map.zones.spawn.forEach((zone, cell) => {
    if (zone !== 0 && !firstCell.has(zone)) firstCell.set(zone, cell);
  });
  const sectorName = new Map(tree.sectors.map((s) => [s.zone, s.name]));
  const arenaName = new Map(
    tree.sectors.flatMap((s) => s.arenas.map((a) => [a.zone, a.name] as const)),
  );
  for (const s of tree.spawns) {
    const cell = firstCell.get(s.zone);
    if (cell === undefined) {
      warnings.push(importWarning(folder, `spawn "${s.name}"`, 'covers no tile; not exported'));
      continue;
    }
    spawn.idOfZone.set(s.zone, next);
    spawn.rows.push([
      next++,
      tree.world,
      sectorName.get(map.zones.sector[cell]) ?? '',
      arenaName.get(map.zones.arena[cell]) ?? '',
      s.name,
    ]);
  }
  return { sector, arena, object, spawn };
}

/**
 * The start tile of persona `index`: the first walkable tile of their spawn zone, else of
 * their home arena (a spawning tile there first), as reverie needs one tile per persona.
 */
function startCell(scenario: Scenario, index: number, folder: string): number {
  const { map, tree } = scenario;
  const persona = scenario.personas[index];
  const walkable = (cell: number) => map.collision[cell] === 0;
  const cells = map.collision.map((_, cell) => cell);
  if (persona.spawn !== null) {
    const found = cells.find((c) => map.zones.spawn[c] === persona.spawn && walkable(c));
    if (found !== undefined) return found;
  }
  const [, sectorName, arenaName] = persona.livingArea.split(':');
  const home = tree.sectors
    .find((s) => s.name === sectorName)
    ?.arenas.find((a) => a.name === arenaName);
  const inHome = cells.filter((c) => home && map.zones.arena[c] === home.zone && walkable(c));
  const start = inHome.find((c) => map.zones.spawn[c] !== 0) ?? inHome[0];
  if (start === undefined)
    throw importError(
      folder,
      `personas[${index}]`,
      `${reverieName(persona)} needs a walkable start tile in their spawn zone or home (${persona.livingArea}); found none`,
    );
  return start;
}

/** Reverie separates address parts with ":" and uses names as folder names: check both. */
function checkNames(scenario: Scenario, folder: string): void {
  const { tree } = scenario;
  const bad = (where: string, name: string) => {
    throw importError(
      folder,
      where,
      `"${name}" cannot be written in reverie's format (names must not contain ":" or line breaks)`,
    );
  };
  const check = (where: string, name: string) => {
    if (/[:\n\r]/.test(name)) bad(where, name);
  };
  check('tree.world', tree.world);
  for (const s of tree.sectors) {
    check(formatAddress(tree.world, s.name), s.name);
    for (const a of s.arenas) {
      check(formatAddress(tree.world, s.name, a.name), a.name);
      for (const o of a.objects) check(formatAddress(tree.world, s.name, a.name, o.name), o.name);
    }
  }
  for (const sp of tree.spawns) check(`spawn ${sp.zone}`, sp.name);
  const seen = new Set<string>();
  scenario.personas.forEach((persona, i) => {
    const name = reverieName(persona);
    if (!name || /[/\\:\n\r]/.test(name) || name === '.' || name === '..')
      throw importError(
        folder,
        `personas[${i}]`,
        `"${name}" cannot be a reverie persona folder name (no "/", "\\", ":" or line breaks)`,
      );
    if (seen.has(name))
      throw importError(
        folder,
        `personas[${i}]`,
        `two personas are both called "${name}"; reverie keys personas by full name`,
      );
    seen.add(name);
  });
}
