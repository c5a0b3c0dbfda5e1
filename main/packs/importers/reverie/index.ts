/**
 * Import of an original Generative Agents town ("reverie" storage): the maze matrix of
 * `static_dirs/assets/<maze>/matrix/` and one base simulation of `storage/<base>/`.
 *
 * @example
 * const { scenario, warnings } = await importReverie('generative_agents/environment/frontend_server');
 */
import path from 'node:path';
import { createEmptyScenario } from '../../../../common/scenario/create';
import {
  DEFAULT_REFLECTION_THRESHOLD,
  type Persona,
  type Scenario,
} from '../../../../common/scenario/schema';
import { resolveAddress } from '../../../../common/scenario/address';
import type { FileIssue } from '../../../../common/scenario/split';
import {
  asRecord,
  finishImport,
  importError,
  importWarning,
  positiveInt,
  readImportFile,
  readImportJson,
  slugId,
  uniqueNamer,
  type ImportResult,
} from '../common';
import { DEFAULT_BASE, parseReverieCsv, reveriePaths, reverieTimeToIso } from './format';
import { scratchToFields, spatialMemoryToAddresses } from './persona';
import { buildZones, type Block } from './zones';

export { DEFAULT_BASE } from './format';

/** Options for importReverie. */
export interface ReverieImportOptions {
  /** The base simulation under `storage/` (default `base_the_ville_n25`). */
  base?: string;
}

/** Built-in tile indices for the plain ground layer (resources/README.md). */
const GRASS = 1;
const WALL_TOP = 15;
/** How many villager sprites the studio ships (resources/sprites.json). */
const SPRITE_COUNT = 8;

/**
 * Imports a reverie town and its personas.
 * @param root the original's `environment/frontend_server` folder (holds static_dirs/, storage/).
 * @throws ImportError naming the file and what was expected when a file is missing or malformed.
 */
export async function importReverie(
  root: string,
  options: ReverieImportOptions = {},
): Promise<ImportResult> {
  const base = options.base ?? DEFAULT_BASE;
  const warnings: FileIssue[] = [];
  const metaFile = reveriePaths.meta(root, base);
  const meta = asRecord(
    await readImportJson(metaFile, `the reverie meta of base simulation "${base}"`),
  );
  if (!meta) throw importError(metaFile, '', 'expected a JSON object (reverie meta.json)');
  const mazeName = stringField(meta, 'maze_name', metaFile);
  const names = meta.persona_names;
  if (!Array.isArray(names) || names.some((n) => typeof n !== 'string' || !n.trim()))
    throw importError(metaFile, 'persona_names', 'expected a list of persona names');

  const mazeMetaFile = reveriePaths.mazeMeta(root, mazeName);
  const mazeMeta = asRecord(
    await readImportJson(mazeMetaFile, 'the maze size (maze_meta_info.json)'),
  );
  if (!mazeMeta) throw importError(mazeMetaFile, '', 'expected a JSON object');
  const width = positiveInt(mazeMeta['maze_width'], mazeMetaFile, 'maze_width');
  const height = positiveInt(mazeMeta['maze_height'], mazeMetaFile, 'maze_height');
  const tileSize = positiveInt(mazeMeta['sq_tile_size'], mazeMetaFile, 'sq_tile_size');

  const maze = (kind: string) => readMaze(reveriePaths.maze(root, mazeName, kind), width, height);
  const blocks = (kind: string) => readBlocks(reveriePaths.blocks(root, mazeName, kind));
  const [collision, sectorMaze, arenaMaze, objectMaze, spawnMaze] = await Promise.all(
    ['collision', 'sector', 'arena', 'game_object', 'spawning_location'].map(maze),
  );
  const [worldBlocks, sectorBlocks, arenaBlocks, objectBlocks, spawnBlocks] = await Promise.all(
    ['world', 'sector', 'arena', 'game_object', 'spawning_location'].map(blocks),
  );
  const worldFile = reveriePaths.blocks(root, mazeName, 'world');
  const world =
    worldBlocks[0]?.name ??
    (typeof mazeMeta.world_name === 'string' ? mazeMeta.world_name.trim() : '');
  if (!world) throw importError(worldFile, '', 'expected one row "<id>, <world name>"');

  const { zones, tree } = buildZones(
    {
      width,
      height,
      world,
      mazes: { sector: sectorMaze, arena: arenaMaze, object: objectMaze, spawn: spawnMaze },
      blocks: {
        sector: sectorBlocks,
        arena: arenaBlocks,
        object: objectBlocks,
        spawn: spawnBlocks,
      },
      files: {
        sector: reveriePaths.maze(root, mazeName, 'sector'),
        arena: reveriePaths.maze(root, mazeName, 'arena'),
        object: reveriePaths.maze(root, mazeName, 'game_object'),
        spawn: reveriePaths.maze(root, mazeName, 'spawning_location'),
      },
    },
    warnings,
  );

  const scenario = createEmptyScenario(slugId(base), world, width, height);
  scenario.description = `Imported from the Generative Agents base simulation "${base}".`;
  const blocked = collision.map((id) => (id === 0 ? 0 : 1));
  scenario.map.tileSize = tileSize;
  scenario.map.collision = blocked;
  scenario.map.zones = zones;
  // The original art is a paid asset pack we may not ship: paint plain ground, walls dark.
  scenario.map.layers = [
    { name: 'Ground', visible: true, tiles: blocked.map((b) => (b ? WALL_TOP : GRASS)) },
  ];
  warnings.push(
    importWarning(
      reveriePaths.matrix(root, mazeName),
      '',
      'the original town art is a paid asset pack and is not imported; the map has a plain ground layer (blocked tiles drawn as wall) in the built-in tileset',
    ),
  );
  scenario.tree = tree;

  const startTime = typeof meta.curr_time === 'string' ? reverieTimeToIso(meta.curr_time) : null;
  if (startTime) scenario.settings.startTime = startTime;
  else
    warnings.push(
      importWarning(
        metaFile,
        'curr_time',
        `expected a time like "February 13, 2023, 00:00:00"; kept ${scenario.settings.startTime}`,
      ),
    );
  if (
    typeof meta.sec_per_step === 'number' &&
    Number.isInteger(meta.sec_per_step) &&
    meta.sec_per_step > 0
  )
    scenario.settings.secondsPerStep = meta.sec_per_step;

  await importPersonas(scenario, root, base, names as string[], warnings);
  return { scenario: finishImport(scenario, metaFile), warnings, assets: new Map() };
}

/** Reads every persona's scratch, spatial memory and start tile into the scenario. */
async function importPersonas(
  scenario: Scenario,
  root: string,
  base: string,
  names: string[],
  warnings: FileIssue[],
): Promise<void> {
  const envFile = reveriePaths.environment(root, base);
  const env = asRecord(await readImportJson(envFile, 'the start positions (environment/0.json)'));
  if (!env) throw importError(envFile, '', 'expected a JSON object of persona start tiles');
  const { tree } = scenario;
  const uniqueId = uniqueNamer('-');
  const thresholds = new Set<number>();
  for (const [index, rawName] of names.entries()) {
    const name = rawName.trim();
    const folder = reveriePaths.bootstrap(root, base, name);
    const scratchFile = path.join(folder, 'scratch.json');
    const fields = scratchToFields(
      await readImportJson(scratchFile, `the scratch of ${name}`),
      scratchFile,
    );
    if (fields.reflectionThreshold !== null) thresholds.add(fields.reflectionThreshold);
    const home = resolveAddress(tree, fields.livingArea);
    if (!home?.arena || home.object)
      throw importError(
        scratchFile,
        'living_area',
        `expected an arena of the map, got "${fields.livingArea}"`,
      );

    const spatialFile = path.join(folder, 'spatial_memory.json');
    const known = spatialMemoryToAddresses(
      await readImportJson(spatialFile, `the spatial memory of ${name}`),
      spatialFile,
    );
    const unknown = known.filter((a) => !resolveAddress(tree, a));
    if (unknown.length > 0)
      warnings.push(
        importWarning(
          spatialFile,
          '',
          `${unknown.length} known places are not on the map and were left out (e.g. "${unknown[0]}")`,
        ),
      );

    const { reflectionThreshold: _unused, ...identity } = fields;
    const persona: Persona = {
      id: uniqueId(slugId(name, `persona-${index + 1}`)),
      ...identity,
      knownPlaces: known.filter((a) => resolveAddress(tree, a)),
      spawn: startSpawn(scenario, name, env[rawName] ?? env[name], envFile, warnings),
      sprite: `villager-${(index % SPRITE_COUNT) + 1}`,
    };
    scenario.personas.push(persona);
  }
  if (thresholds.size > 0) {
    const [first] = thresholds;
    scenario.settings.reflectionThreshold = first;
    if (thresholds.size > 1)
      warnings.push(
        importWarning(
          reveriePaths.sim(root, base),
          'importance_trigger_max',
          `personas use different reflection thresholds (${[...thresholds].join(', ')}); the scenario has one, ${first}`,
        ),
      );
  } else scenario.settings.reflectionThreshold = DEFAULT_REFLECTION_THRESHOLD;
}

/**
 * The spawn zone at a persona's start tile; when the tile has none, a one-tile spawn zone is
 * added there, so the persona starts exactly where reverie would start them.
 */
function startSpawn(
  scenario: Scenario,
  name: string,
  entry: unknown,
  envFile: string,
  warnings: FileIssue[],
): number | null {
  const start = asRecord(entry);
  const { width, height, zones } = scenario.map;
  const x = start?.x;
  const y = start?.y;
  if (
    typeof x !== 'number' ||
    typeof y !== 'number' ||
    !Number.isInteger(x) ||
    !Number.isInteger(y) ||
    x < 0 ||
    y < 0 ||
    x >= width ||
    y >= height
  ) {
    warnings.push(
      importWarning(
        envFile,
        name,
        `expected {"x", "y"} on the map; ${name} will start anywhere in their living area`,
      ),
    );
    return null;
  }
  const cell = y * width + x;
  if (zones.spawn[cell] !== 0) return zones.spawn[cell];
  const zone = scenario.tree.spawns.reduce((max, s) => Math.max(max, s.zone), 0) + 1;
  scenario.tree.spawns.push({ zone, name: `${name} start` });
  zones.spawn[cell] = zone;
  warnings.push(
    importWarning(
      envFile,
      name,
      `start tile (${x},${y}) is on no spawning block; added the spawn "${name} start" there`,
    ),
  );
  return zone;
}

/** Reads a maze CSV: `width × height` integers, row-major, one line. */
async function readMaze(file: string, width: number, height: number): Promise<number[]> {
  const text = (
    await readImportFile(file, `a reverie maze CSV of ${width}×${height} block ids`)
  ).toString('utf8');
  const cells = text.split(',').map((c) => c.trim());
  // A trailing newline or comma is harmless; the original files end with neither.
  if (cells.length > 1 && cells[cells.length - 1] === '') cells.pop();
  if (cells.length !== width * height)
    throw importError(
      file,
      '',
      `expected ${width * height} block ids (${width}×${height} from maze_meta_info.json), got ${cells.length}`,
    );
  return cells.map((cell, i) => {
    const id = Number(cell);
    if (cell === '' || !Number.isInteger(id) || id < 0)
      throw importError(
        file,
        `cell ${i} (tile ${i % width},${Math.floor(i / width)})`,
        `expected a block id (a whole number), got "${cell}"`,
      );
    return id;
  });
}

/** Reads a special_blocks CSV: `id, name columns…` per row (cells stripped, as reverie does). */
async function readBlocks(file: string): Promise<Block[]> {
  const text = (await readImportFile(file, 'a reverie special blocks CSV')).toString('utf8');
  return parseReverieCsv(text).map((row, i) => {
    const id = Number(row[0]);
    if (!Number.isInteger(id) || row.length < 2 || row[row.length - 1] === '')
      throw importError(
        file,
        `row ${i + 1}`,
        `expected "<block id>, <world>, …, <name>", got "${row.join(', ')}"`,
      );
    return { id, name: row[row.length - 1], path: row.slice(1, -1) };
  });
}

function stringField(record: Record<string, unknown>, key: string, file: string): string {
  const value = record[key];
  if (typeof value !== 'string' || !value.trim())
    throw importError(file, key, 'expected a non-empty string');
  return value.trim();
}
