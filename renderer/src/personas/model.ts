/**
 * Pure persona-editing helpers: ids from names, new and duplicated personas, the places a
 * persona can pick from the tree, default known places, and who-mentions-whom in the seeds.
 * Kept free of React and the store so they are unit-tested directly.
 */
import { arenaAddresses, formatAddress, parseAddress } from '../../../common/scenario/address';
import {
  DEFAULT_ATTENTION_BANDWIDTH,
  DEFAULT_RETENTION,
  DEFAULT_RETRIEVAL_WEIGHTS,
  DEFAULT_VISION_RADIUS,
  type EnvTree,
  type Persona,
} from '../../../common/scenario/schema';
import { defaultHome, looksLikeHome } from './homes';

/** A lower-case slug that satisfies `recordId` (falls back to "person"). */
export function slugify(text: string): string {
  const slug = text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 56)
    .replace(/-+$/, '');
  return slug || 'person';
}

/** `base`, or `base-2`, `base-3`… whichever is not taken. */
export function uniqueId(base: string, taken: Iterable<string>): string {
  const used = new Set(taken);
  if (!used.has(base)) return base;
  for (let n = 2; ; n++) if (!used.has(`${base}-${n}`)) return `${base}-${n}`;
}

export function fullName(p: Pick<Persona, 'firstName' | 'lastName'>): string {
  return [p.firstName, p.lastName].filter(Boolean).join(' ');
}

/** The cognition settings a new persona starts with (the reference 8/8/8 and weights). */
export const COGNITION_DEFAULTS = {
  visionRadius: DEFAULT_VISION_RADIUS,
  attentionBandwidth: DEFAULT_ATTENTION_BANDWIDTH,
  retention: DEFAULT_RETENTION,
  retrievalWeights: { ...DEFAULT_RETRIEVAL_WEIGHTS },
} satisfies Partial<Persona>;

/** Sprites the studio ships (resources/sprites.json). */
export const SPRITE_COUNT = 8;

/**
 * A new resident named `firstName lastName`, housed in a free residential room (homes.ts). A town
 * with none free gives a placeholder the persona editor warns about (the schema requires an
 * arena): the first arena that does not look like a home, else the first arena.
 */
export function newPersona(
  tree: EnvTree,
  personas: readonly Persona[],
  firstName: string,
  lastName: string,
): Persona {
  const id = uniqueId(
    slugify(`${firstName} ${lastName}`),
    personas.map((p) => p.id),
  );
  const arenas = arenaAddresses(tree);
  const home =
    defaultHome(tree, personas) ??
    arenas.find((a) => !looksLikeHome(a)) ??
    arenas[0] ??
    formatAddress(tree.world, 'home');
  return {
    id,
    firstName,
    lastName,
    age: 30,
    innate: '',
    learned: '',
    currently: '',
    lifestyle: '',
    dailyPlanRequirement: '',
    livingArea: home,
    seed: '',
    knownPlaces: deriveKnownPlaces(tree, home, personas),
    spawn: null,
    ...COGNITION_DEFAULTS,
    retrievalWeights: { ...DEFAULT_RETRIEVAL_WEIGHTS },
    sprite: `villager-${(personas.length % SPRITE_COUNT) + 1}`,
  };
}

/** A copy of `source` under a fresh id, marked "(copy)" so the two are told apart. */
export function duplicatePersona(source: Persona, personas: readonly Persona[]): Persona {
  const lastName = `${source.lastName} (copy)`.trim().slice(0, 120);
  const id = uniqueId(
    slugify(`${source.firstName} ${lastName}`),
    personas.map((p) => p.id),
  );
  return {
    ...source,
    id,
    lastName,
    knownPlaces: [...source.knownPlaces],
    retrievalWeights: { ...source.retrievalWeights },
  };
}

/** One pickable place: its address and what kind of tree node it names. */
export interface PlaceOption {
  address: string;
  kind: 'sector' | 'arena' | 'object';
}

/** Every sector, arena and object address in tree order (sector before its arenas). */
export function placeOptions(tree: EnvTree): PlaceOption[] {
  const out: PlaceOption[] = [];
  for (const s of tree.sectors) {
    out.push({ address: formatAddress(tree.world, s.name), kind: 'sector' });
    for (const a of s.arenas) {
      out.push({ address: formatAddress(tree.world, s.name, a.name), kind: 'arena' });
      for (const o of a.objects)
        out.push({ address: formatAddress(tree.world, s.name, a.name, o.name), kind: 'object' });
    }
  }
  return out;
}

/**
 * Known places a new resident plausibly has (the reference seeds spatial memory the same
 * way): their home sector and arena, plus every public place — a sector nobody lives in —
 * with its arenas. Homes of other residents stay unknown until the seed says otherwise.
 */
export function deriveKnownPlaces(
  tree: EnvTree,
  livingArea: string,
  personas: readonly Pick<Persona, 'livingArea'>[],
): string[] {
  const [, homeSector] = parseAddress(livingArea);
  const lived = new Set(personas.map((p) => parseAddress(p.livingArea)[1]));
  lived.add(homeSector);
  const out = new Set<string>();
  if (homeSector !== undefined) out.add(formatAddress(tree.world, homeSector));
  out.add(livingArea);
  for (const s of tree.sectors) {
    if (lived.has(s.name)) continue;
    out.add(formatAddress(tree.world, s.name));
    for (const a of s.arenas) out.add(formatAddress(tree.world, s.name, a.name));
  }
  return [...out];
}

/** Case-insensitive match of every query word against the text, for the place search. */
export function matchesQuery(text: string, query: string): boolean {
  const hay = text.toLowerCase();
  return query
    .toLowerCase()
    .split(/\s+/)
    .filter(Boolean)
    .every((w) => hay.includes(w));
}

/** One row of the relationships overview: who `from` mentions in their seed. */
export interface Mentions {
  from: string;
  to: string[];
}

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Who mentions whom in their seed paragraph. A persona is mentioned by full name, or by first
 * name alone when no other resident shares it (families share surnames, so a surname alone
 * is never enough). Whole words only, so "Ann" does not match "Annual". Order follows the
 * persona list; self-mentions are ignored.
 */
export function relationships(personas: readonly Persona[]): Mentions[] {
  const firstCounts = new Map<string, number>();
  for (const p of personas) {
    const k = p.firstName.toLowerCase();
    firstCounts.set(k, (firstCounts.get(k) ?? 0) + 1);
  }
  const patterns = personas.map((p) => {
    const names = [fullName(p)];
    if (firstCounts.get(p.firstName.toLowerCase()) === 1) names.push(p.firstName);
    const alternatives = names.filter((n) => n.trim()).map(escapeRe);
    return new RegExp(`(^|[^\\p{L}\\p{N}])(${alternatives.join('|')})(?![\\p{L}\\p{N}])`, 'iu');
  });
  return personas.map((p) => ({
    from: p.id,
    to: personas.filter((q, j) => q.id !== p.id && patterns[j].test(p.seed)).map((q) => q.id),
  }));
}
