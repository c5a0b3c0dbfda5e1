/**
 * Loading a scenario from untrusted JSON: migrate → structural schema → cross-field checks.
 * Every issue names its path and what was expected, and all issues are reported at once.
 */
import { migrateScenario } from './migrate';
import { scenarioShape, type Scenario, type ZoneKind } from './schema';
import { ScenarioError, formatPath, type ValidationIssue } from './errors';
import { resolveAddress } from './address';

/** The result of validating: the scenario when there are no errors, and every issue found. */
export type ValidationResult =
  | { ok: true; scenario: Scenario; issues: ValidationIssue[]; migrations: string[] }
  | { ok: false; issues: ValidationIssue[] };

/** Validates any parsed JSON value as a scenario. Never throws. */
export function validateScenario(raw: unknown): ValidationResult {
  let migrated;
  try {
    migrated = migrateScenario(raw);
  } catch (err) {
    if (err instanceof ScenarioError) return { ok: false, issues: err.issues };
    throw err;
  }
  const parsed = scenarioShape.safeParse(migrated.doc);
  if (!parsed.success) {
    return {
      ok: false,
      issues: parsed.error.issues.map((i) => ({ path: formatPath(i.path), message: i.message })),
    };
  }
  const issues = checkConsistency(parsed.data);
  if (issues.some((i) => i.severity !== 'warning')) return { ok: false, issues };
  return { ok: true, scenario: parsed.data, issues, migrations: migrated.applied };
}

/**
 * Parses and validates, throwing a ScenarioError (that names `file`) when anything is wrong.
 * @example const scenario = parseScenario(JSON.parse(text), 'scenario.json');
 */
export function parseScenario(raw: unknown, file?: string): Scenario {
  const result = validateScenario(raw);
  if (!result.ok) throw new ScenarioError(result.issues, file);
  return result.scenario;
}

const ZONE_KINDS: ZoneKind[] = ['sector', 'arena', 'object', 'spawn'];

/** Cross-field rules the structural schema cannot express. Pure; exported for the editor. */
export function checkConsistency(s: Scenario): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  const err = (path: string, message: string) => issues.push({ path, message });
  const { map, tree } = s;
  const cells = map.width * map.height;

  const gridLength = (path: string, g: number[]) => {
    if (g.length !== cells) {
      err(
        path,
        `expected ${cells} cells (width ${map.width} × height ${map.height}), got ${g.length}`,
      );
    }
  };
  map.layers.forEach((layer, i) => {
    gridLength(`map.layers[${i}].tiles`, layer.tiles);
    const bad = layer.tiles.findIndex((t) => t > map.tileset.tileCount);
    if (bad >= 0) {
      err(
        `map.layers[${i}].tiles[${bad}]`,
        `expected a tile index up to ${map.tileset.tileCount} (the tileset's size), got ${layer.tiles[bad]}`,
      );
    }
  });
  gridLength('map.collision', map.collision);
  const badCollision = map.collision.findIndex((c) => c > 1);
  if (badCollision >= 0) {
    err(
      `map.collision[${badCollision}]`,
      `expected 0 (walkable) or 1 (blocked), got ${map.collision[badCollision]}`,
    );
  }

  // Zone ids are the join between grids and the tree: each kind's ids must be unique.
  const declared: Record<ZoneKind, Map<number, string>> = {
    sector: new Map(),
    arena: new Map(),
    object: new Map(),
    spawn: new Map(),
  };
  const declare = (kind: ZoneKind, zone: number, path: string) => {
    const previous = declared[kind].get(zone);
    if (previous)
      err(`${path}.zone`, `expected a unique ${kind} zone id; ${zone} is also used by ${previous}`);
    else declared[kind].set(zone, path);
  };
  const sectorNames = new Set<string>();
  tree.sectors.forEach((sector, si) => {
    const sp = `tree.sectors[${si}]`;
    declare('sector', sector.zone, sp);
    if (sectorNames.has(sector.name))
      err(`${sp}.name`, `expected a unique sector name; "${sector.name}" repeats`);
    sectorNames.add(sector.name);
    const arenaNames = new Set<string>();
    sector.arenas.forEach((arena, ai) => {
      const ap = `${sp}.arenas[${ai}]`;
      declare('arena', arena.zone, ap);
      if (arenaNames.has(arena.name)) {
        err(
          `${ap}.name`,
          `expected a unique arena name within "${sector.name}"; "${arena.name}" repeats`,
        );
      }
      arenaNames.add(arena.name);
      const objectNames = new Set<string>();
      arena.objects.forEach((object, oi) => {
        const op = `${ap}.objects[${oi}]`;
        declare('object', object.zone, op);
        if (objectNames.has(object.name)) {
          err(
            `${op}.name`,
            `expected a unique object name within "${arena.name}"; "${object.name}" repeats`,
          );
        }
        objectNames.add(object.name);
      });
    });
  });
  tree.spawns.forEach((spawn, i) => declare('spawn', spawn.zone, `tree.spawns[${i}]`));

  for (const kind of ZONE_KINDS) {
    const g = map.zones[kind];
    gridLength(`map.zones.${kind}`, g);
    const seen = new Set<number>();
    g.forEach((id, index) => {
      if (id === 0 || seen.has(id)) return;
      seen.add(id);
      if (!declared[kind].has(id)) {
        const x = index % map.width;
        const y = Math.floor(index / map.width);
        const article = kind === 'sector' || kind === 'spawn' ? 'a' : 'an';
        err(
          `map.zones.${kind}[${index}]`,
          `expected ${article} ${kind} zone id from the tree, got ${id} (tile ${x},${y})`,
        );
      }
    });
  }

  const personaIds = new Set<string>();
  s.personas.forEach((p, i) => {
    const pp = `personas[${i}]`;
    if (personaIds.has(p.id)) err(`${pp}.id`, `expected a unique persona id; "${p.id}" repeats`);
    personaIds.add(p.id);
    const home = resolveAddress(tree, p.livingArea);
    if (!home?.arena || home.object) {
      err(
        `${pp}.livingArea`,
        `expected the address of an arena in the tree, got "${p.livingArea}"`,
      );
    }
    p.knownPlaces.forEach((place, k) => {
      if (!resolveAddress(tree, place)) {
        err(`${pp}.knownPlaces[${k}]`, `expected an address in the tree, got "${place}"`);
      }
    });
    if (p.spawn !== null && !declared.spawn.has(p.spawn)) {
      err(`${pp}.spawn`, `expected a spawn zone id from tree.spawns, got ${p.spawn}`);
    }
  });
  return issues;
}
