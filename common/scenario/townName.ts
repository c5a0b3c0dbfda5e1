/**
 * The town's name is the world's name: renaming a town renames the environment tree's root
 * and every address that starts with it (homes, known places), so the agents' world, the
 * exported pack and its file name all carry the name the designer sees. Prose (seeds,
 * descriptions) is left as written: the name is committed as it is typed, and replacing an
 * intermediate "T" or "The" across every text would be a disaster; the validation panel points
 * at seeds that still mention the old name. Pure functions of a scenario; the studio calls
 * `renameTown` as one document edit (one undo step).
 */
import { formatAddress, parseAddress } from './address';
import type { Persona, Scenario } from './schema';

/**
 * The world name for a town name: the same text, with ":" (the address separator, which a
 * world name cannot hold) written as "-".
 */
export function worldNameOf(townName: string): string {
  return townName.trim().replace(/:/g, '-');
}

/** `address` with its world part `from` replaced by `to`; other addresses unchanged. */
function moveAddress(address: string, from: string, to: string): string {
  const [world, ...rest] = parseAddress(address);
  return world === from && rest.length > 0 ? formatAddress(to, ...rest) : address;
}

/**
 * The scenario renamed to `name` (trimmed): its name, its tree's world and every persona
 * address in that world. The same object when nothing changes or the name is blank.
 *
 * @example
 *   renameTown(doc, 'Test Hamlet').personas[0].livingArea // "Test Hamlet:Mill:Loft"
 */
export function renameTown(doc: Scenario, name: string): Scenario {
  const trimmed = name.trim();
  if (!trimmed) return doc;
  const from = doc.tree.world;
  const to = worldNameOf(trimmed);
  if (trimmed === doc.name && to === from) return doc;
  const move = (p: Persona): Persona => {
    const livingArea = moveAddress(p.livingArea, from, to);
    const knownPlaces = p.knownPlaces.map((a) => moveAddress(a, from, to));
    const same = livingArea === p.livingArea && knownPlaces.every((a, i) => a === p.knownPlaces[i]);
    return same ? p : { ...p, livingArea, knownPlaces };
  };
  return {
    ...doc,
    name: trimmed,
    tree: to === from ? doc.tree : { ...doc.tree, world: to },
    personas: to === from ? doc.personas : doc.personas.map(move),
  };
}

/**
 * `name`, or the first of "name (2)", "name (3)"… that is not in `taken`: how a second copy
 * of a town is told apart from the first.
 */
export function distinctTownName(name: string, taken: Iterable<string>): string {
  const names = new Set(taken);
  if (!names.has(name)) return name;
  // "Test Hamlet (2)" imported again becomes "Test Hamlet (3)", not "Test Hamlet (2) (2)".
  const base = name.replace(/ \(\d+\)$/, '');
  for (let n = 2; ; n++) if (!names.has(`${base} (${n})`)) return `${base} (${n})`;
}

/** Characters no file name may hold on any of the desktops the studio runs on (and controls). */
const UNSAFE_IN_FILE_NAMES = /[\\/:*?"<>|\p{Cc}]/gu;

/** The file name a town's pack is offered under: its name, made safe ("Test Hamlet.simpack"). */
export function packFileName(scenario: Pick<Scenario, 'id' | 'name'>): string {
  const safe = scenario.name
    .replace(UNSAFE_IN_FILE_NAMES, '-')
    .replace(/\s+/g, ' ')
    .replace(/^[\s.]+|[\s.]+$/g, '')
    .slice(0, 120);
  return `${safe || scenario.id}.simpack`;
}
