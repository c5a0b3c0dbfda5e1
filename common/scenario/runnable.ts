/**
 * Whether a valid town can be run: a document may load with no residents or with nowhere to
 * stand (a town being drawn), but a run needs at least one person and a walkable tile for each
 * of them to start on. `simulacra validate`, `simulacra run` and every run start
 * (Simulation.create) refuse a town with these issues, naming what is missing, before anything
 * is written. Pure; mirrors how the engine picks a start tile (a random open tile of the
 * persona's spawn zone, else of their home arena).
 */
import { formatAddress } from './address';
import type { ValidationIssue } from './errors';
import type { Scenario } from './schema';

/** What stops `s` from being run; empty when it can run. Assumes `s` passed validation. */
export function checkRunnable(s: Scenario): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  const { map, tree } = s;
  if (s.personas.length === 0) {
    issues.push({
      path: 'personas',
      message: 'the town has no residents: add at least one person to run it',
    });
  }
  // Names of each tile's sector and arena, as the engine's world resolves addresses.
  const sectorNames = new Map<number, string>();
  const arenaNames = new Map<number, string>();
  for (const sector of tree.sectors) {
    sectorNames.set(sector.zone, sector.name);
    for (const arena of sector.arenas) arenaNames.set(arena.zone, arena.name);
  }
  /** Open tiles per arena address and per spawn zone. */
  const openArena = new Map<string, number>();
  const openSpawn = new Map<number, number>();
  let walkableArenaTiles = 0;
  const cells = map.width * map.height;
  for (let i = 0; i < cells; i++) {
    if (map.collision[i] !== 0) continue;
    const spawn = map.zones.spawn[i];
    if (spawn) openSpawn.set(spawn, (openSpawn.get(spawn) ?? 0) + 1);
    const sector = sectorNames.get(map.zones.sector[i]);
    const arena = arenaNames.get(map.zones.arena[i]);
    if (sector === undefined || arena === undefined) continue;
    walkableArenaTiles++;
    const address = formatAddress(tree.world, sector, arena);
    openArena.set(address, (openArena.get(address) ?? 0) + 1);
  }
  if (walkableArenaTiles === 0) {
    const arenas = tree.sectors.reduce((n, sector) => n + sector.arenas.length, 0);
    issues.push({
      path: 'map.zones.arena',
      message:
        arenas === 0
          ? 'the town has no walkable zones: it has no arenas (rooms or areas); add a sector with an arena and paint it on walkable ground'
          : 'the town has no walkable zones: every tile of its arenas is blocked (or lies outside its sector); paint arenas on walkable ground',
    });
    return issues; // every persona would be reported below for the same reason
  }
  s.personas.forEach((p, i) => {
    const name = p.lastName ? `${p.firstName} ${p.lastName}` : p.firstName;
    if (p.spawn !== null) {
      if (!openSpawn.get(p.spawn)) {
        issues.push({
          path: `personas[${i}].spawn`,
          message: `${name} has no walkable tile to start on: spawn zone ${p.spawn} has no unblocked tile`,
        });
      }
    } else if (!openArena.get(p.livingArea)) {
      issues.push({
        path: `personas[${i}].livingArea`,
        message: `${name} has no walkable tile to start on: their home "${p.livingArea}" has no unblocked tile`,
      });
    }
  });
  return issues;
}
