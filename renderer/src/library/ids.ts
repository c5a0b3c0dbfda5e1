/**
 * Scenario ids for the authoring library: a readable slug of the name plus a short random
 * suffix, so two towns called "Willow Bend" never collide and exported file names stay legible.
 */
import { recordId } from '../../../common/scenario/schema';

/** Longest slug part: leaves room for "-" + suffix inside recordId's 64-character limit. */
const MAX_SLUG_CHARS = 48;
/** Random suffix length: 36^6 ≈ 2.2e9 ids per slug, plenty for one person's library. */
const SUFFIX_CHARS = 6;
const ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';

/** Lower-case ASCII slug of `name` ("Café Hobbs!" → "cafe-hobbs"); "town" when nothing is left. */
export function slugify(name: string): string {
  const slug = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, MAX_SLUG_CHARS)
    .replace(/-+$/g, '');
  return slug || 'town';
}

/**
 * A fresh scenario id for `name`, always matching common/scenario `recordId`.
 * @example newScenarioId('Willow Bend') // "willow-bend-k3x9q2"
 */
export function newScenarioId(name: string, random: () => number = Math.random): string {
  let suffix = '';
  for (let i = 0; i < SUFFIX_CHARS; i++) suffix += ALPHABET[Math.floor(random() * ALPHABET.length)];
  const id = `${slugify(name)}-${suffix}`;
  // The slug rules above already guarantee this; the parse keeps the two rules from drifting.
  return recordId.parse(id);
}
