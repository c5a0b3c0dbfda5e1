/**
 * Design-time checks the studio shows live while a town is edited. Unlike `checkConsistency`
 * (which decides whether a document loads at all) these are advice about whether the town
 * will work in a run: places nobody can walk to, people without a reachable home, empty
 * zones, seeds that mention people who do not exist. Pure; every issue carries a target
 * the UI can jump to.
 */
import { resolveAddress } from './address';
import { reachableTiles, walkSeeds, zoneReachability } from './reachability';
import type { Scenario, ZoneKind } from './schema';
import { checkConsistency } from './validate';

/** What an issue points at, so the panel can pan to it or open it. */
export type LintTarget =
  | { kind: 'tile'; x: number; y: number }
  | { kind: 'node'; node: { kind: ZoneKind; zone: number } }
  | { kind: 'persona'; personaId: string; field: string }
  | { kind: 'path'; path: string };

export type LintRule =
  | 'consistency'
  | 'unreachable-arena'
  | 'home-unreachable'
  | 'object-outside-arena'
  | 'duplicate-name'
  | 'empty-zone'
  | 'unknown-person-in-seed'
  | 'no-walk-start';

export interface LintIssue {
  /** Stable across recomputes (rule + what it is about), for React keys. */
  id: string;
  rule: LintRule;
  severity: 'error' | 'warning';
  message: string;
  target: LintTarget | null;
}

const ZONE_KINDS: ZoneKind[] = ['sector', 'arena', 'object', 'spawn'];

/** Runs every rule. O(cells + personas × seed length). */
export function lintScenario(s: Scenario): LintIssue[] {
  const issues: LintIssue[] = [];
  const add = (i: LintIssue) => issues.push(i);
  const { width } = s.map;
  const tileOf = (i: number): LintTarget => ({
    kind: 'tile',
    x: i % width,
    y: Math.floor(i / width),
  });

  for (const [n, c] of checkConsistency(s).entries()) {
    add({
      id: `consistency:${c.path}:${n}`,
      rule: 'consistency',
      severity: c.severity === 'warning' ? 'warning' : 'error',
      message: c.message,
      target: targetOfPath(s, c.path),
    });
  }

  // Tile counts and first tile per zone, one pass per grid.
  const first: Record<ZoneKind, Map<number, number>> = {
    sector: new Map(),
    arena: new Map(),
    object: new Map(),
    spawn: new Map(),
  };
  for (const kind of ZONE_KINDS)
    s.map.zones[kind].forEach((z, i) => {
      if (z && !first[kind].has(z)) first[kind].set(z, i);
    });

  const nodes: { kind: ZoneKind; zone: number; label: string }[] = [];
  for (const sector of s.tree.sectors) {
    nodes.push({ kind: 'sector', zone: sector.zone, label: `Sector "${sector.name}"` });
    for (const arena of sector.arenas) {
      nodes.push({
        kind: 'arena',
        zone: arena.zone,
        label: `Arena "${sector.name}: ${arena.name}"`,
      });
      for (const o of arena.objects)
        nodes.push({ kind: 'object', zone: o.zone, label: `Object "${arena.name}: ${o.name}"` });
    }
  }
  for (const sp of s.tree.spawns)
    nodes.push({ kind: 'spawn', zone: sp.zone, label: `Spawn "${sp.name}"` });
  for (const n of nodes) {
    if (first[n.kind].has(n.zone)) continue;
    add({
      id: `empty:${n.kind}:${n.zone}`,
      rule: 'empty-zone',
      severity: 'warning',
      message: `${n.label} has no tiles on the map`,
      target: { kind: 'node', node: { kind: n.kind, zone: n.zone } },
    });
  }

  // Objects must sit inside an arena (and in their own arena, per the tree).
  const objectArena = new Map<number, number>();
  for (const sector of s.tree.sectors)
    for (const arena of sector.arenas)
      for (const o of arena.objects) objectArena.set(o.zone, arena.zone);
  const reportedObject = new Set<number>();
  s.map.zones.object.forEach((z, i) => {
    if (!z || reportedObject.has(z) || !objectArena.has(z)) return;
    const a = s.map.zones.arena[i];
    if (a === objectArena.get(z)) return;
    reportedObject.add(z);
    const name = nodes.find((n) => n.kind === 'object' && n.zone === z)?.label ?? `Object ${z}`;
    add({
      id: `outside:${z}`,
      rule: 'object-outside-arena',
      severity: 'warning',
      message: a ? `${name} has tiles in another arena` : `${name} has tiles outside any arena`,
      target: tileOf(i),
    });
  });

  // Reachability.
  const seeds = walkSeeds(s);
  if (seeds.length === 0) {
    if (s.tree.sectors.some((sec) => sec.arenas.length) && s.personas.length)
      add({
        id: 'no-walk-start',
        rule: 'no-walk-start',
        severity: 'warning',
        message: 'No spawn point or home on a walkable tile: reachability cannot be checked',
        target: null,
      });
  } else {
    const reach = reachableTiles(s.map, seeds);
    const arenas = zoneReachability(s, 'arena', reach);
    for (const sector of s.tree.sectors)
      for (const arena of sector.arenas) {
        if (arenas.get(arena.zone) !== false) continue;
        add({
          id: `unreachable:${arena.zone}`,
          rule: 'unreachable-arena',
          severity: 'warning',
          message: `Nobody can walk to "${sector.name}: ${arena.name}" (walls or water cut it off)`,
          target: { kind: 'node', node: { kind: 'arena', zone: arena.zone } },
        });
      }
    s.personas.forEach((p) => {
      const home = resolveAddress(s.tree, p.livingArea);
      if (!home?.arena) return; // checkConsistency reports the broken address.
      const ok = arenas.get(home.arena.zone);
      if (ok) return;
      add({
        id: `home:${p.id}`,
        rule: 'home-unreachable',
        severity: 'error',
        message:
          ok === undefined
            ? `${fullName(p)}'s home "${home.arena.name}" has no tiles on the map`
            : `${fullName(p)}'s home "${home.arena.name}" cannot be reached on foot`,
        target: { kind: 'persona', personaId: p.id, field: 'livingArea' },
      });
    });
  }

  // Duplicate names the load-time check does not cover: people and spawns.
  const seenPeople = new Map<string, string>();
  for (const p of s.personas) {
    const key = fullName(p).toLowerCase();
    if (seenPeople.has(key))
      add({
        id: `dup-person:${p.id}`,
        rule: 'duplicate-name',
        severity: 'warning',
        message: `Two people are called ${fullName(p)}`,
        target: { kind: 'persona', personaId: p.id, field: 'firstName' },
      });
    else seenPeople.set(key, p.id);
  }
  const seenSpawns = new Set<string>();
  for (const sp of s.tree.spawns) {
    if (seenSpawns.has(sp.name))
      add({
        id: `dup-spawn:${sp.zone}`,
        rule: 'duplicate-name',
        severity: 'warning',
        message: `Two spawn points are called "${sp.name}"`,
        target: { kind: 'node', node: { kind: 'spawn', zone: sp.zone } },
      });
    seenSpawns.add(sp.name);
  }

  for (const p of s.personas)
    for (const name of unknownPeopleInSeed(s, p.seed))
      add({
        id: `seed:${p.id}:${name}`,
        rule: 'unknown-person-in-seed',
        severity: 'warning',
        message: `${fullName(p)}'s seed mentions "${name}", who is not in this town`,
        target: { kind: 'persona', personaId: p.id, field: 'seed' },
      });

  return issues;
}

function fullName(p: { firstName: string; lastName: string }): string {
  return p.lastName ? `${p.firstName} ${p.lastName}` : p.firstName;
}

/**
 * Capitalised words that start sentences or name times and places rather than people;
 * a "Firstname Lastname" pair starting or ending with one of these is never flagged.
 */
const NOT_A_NAME = new Set(
  (
    'The A An And But Or If In On At By For From To Of With Without As When While After Before ' +
    'Since Until Because Every Each Some Many Most All Both He She They We I You It His Her Their ' +
    'Our My Your Its This That These Those There Here Then Today Tomorrow Yesterday Mr Mrs Ms Dr ' +
    'Monday Tuesday Wednesday Thursday Friday Saturday Sunday January February March April May ' +
    'June July August September October November December Christmas Easter New San Los Las Saint ' +
    'St Mount Lake North South East West Old Little Big Great Upper Lower Street Road Lane Avenue ' +
    'Park Square Garden Gardens Cafe Café Bar Pub Inn Hotel Shop Store Market Supply Pharmacy ' +
    'College University School Library Hall House Home Apartment Apartments Church Museum Station ' +
    'Bakery Office Center Centre Club Hospital Clinic Farm Bridge River Hill Hills Town City Village ' +
    'Professor Prof Doctor Miss Sir Madam Dame Lady Lord Aunt Uncle Grandma Grandpa Granny Mayor ' +
    'Captain Officer Father Mother Sister Brother Reverend Judge Coach Nurse Chef Principal Dean ' +
    'Day Night Morning Evening Afternoon Week Weekend Festival Fair Feast Party Eve Holiday ' +
    'Season Spring Summer Autumn Fall Winter Year Club Society Council Committee Team Band Choir'
  ).split(' '),
);

/**
 * "Firstname Lastname" pairs in `seed` that match no resident. Errs towards silence, since
 * a false alarm teaches designers to ignore the panel: a pair is skipped when it is (part of)
 * a place name in the tree, when either word is a function word, title, time or place word,
 * and when either word is a resident's first or last name ("Professor Agnes", "the Ashby
 * house" refer to someone who exists).
 */
export function unknownPeopleInSeed(s: Scenario, seed: string): string[] {
  const known = new Set(s.personas.map((p) => fullName(p)));
  const names = new Set(s.personas.flatMap((p) => [p.firstName, p.lastName]).filter(Boolean));
  const places = [
    s.tree.world,
    ...s.tree.sectors.flatMap((sec) => [
      sec.name,
      ...sec.arenas.flatMap((a) => [a.name, ...a.objects.map((o) => o.name)]),
    ]),
  ];
  const out = new Set<string>();
  for (const m of seed.matchAll(/\b([A-Z][a-z]+) ([A-Z][a-z]+)\b/g)) {
    const [pair, first, last] = m;
    if (known.has(pair) || NOT_A_NAME.has(first) || NOT_A_NAME.has(last)) continue;
    if (names.has(first) || names.has(last)) continue;
    if (places.some((pl) => pl.includes(pair))) continue;
    out.add(pair);
  }
  return [...out];
}

/** Maps a checkConsistency path to something clickable. */
function targetOfPath(s: Scenario, path: string): LintTarget {
  const zone = /^map\.zones\.(\w+)\[(\d+)\]/.exec(path);
  if (zone) {
    const i = Number(zone[2]);
    return { kind: 'tile', x: i % s.map.width, y: Math.floor(i / s.map.width) };
  }
  const persona = /^personas\[(\d+)\]\.?(\w*)/.exec(path);
  if (persona && s.personas[Number(persona[1])])
    return {
      kind: 'persona',
      personaId: s.personas[Number(persona[1])].id,
      field: persona[2] || 'id',
    };
  const tree = /^tree\.sectors\[(\d+)\](?:\.arenas\[(\d+)\])?(?:\.objects\[(\d+)\])?/.exec(path);
  if (tree) {
    const sector = s.tree.sectors[Number(tree[1])];
    const arena = tree[2] !== undefined ? sector?.arenas[Number(tree[2])] : undefined;
    const object = tree[3] !== undefined ? arena?.objects[Number(tree[3])] : undefined;
    if (object) return { kind: 'node', node: { kind: 'object', zone: object.zone } };
    if (arena) return { kind: 'node', node: { kind: 'arena', zone: arena.zone } };
    if (sector) return { kind: 'node', node: { kind: 'sector', zone: sector.zone } };
  }
  const spawn = /^tree\.spawns\[(\d+)\]/.exec(path);
  if (spawn && s.tree.spawns[Number(spawn[1])])
    return { kind: 'node', node: { kind: 'spawn', zone: s.tree.spawns[Number(spawn[1])].zone } };
  return { kind: 'path', path };
}
