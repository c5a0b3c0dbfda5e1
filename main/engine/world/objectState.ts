/**
 * The state an object shows while a resident uses it (reverie asks the model for it, with the
 * action: "coffee machine is brewing coffee"). Others perceive it as "<object> is <state>", so
 * it must read as a state of the object: "in use", "being cleaned", "being used for making
 * tea", "brewing coffee". A small model often writes the resident's activity instead ("tea
 * table is reading", "dining table is keep the cafe"); such an answer becomes {@link IN_USE}.
 */
import { STATE_WORDS } from '../prompts/action';
import { knownVerb, progressive, withoutIs } from '../prompts/verbPhrase';

/** The state of an object in use when the model's answer is not a state. */
export const IN_USE = 'in use';

/** States of one or two words that read after "<object> is". */
const STATES = new Set(
  (
    'in use|open|closed|on|off|lit|full|empty|occupied|taken|running|switched on|turned on|' +
    'turned off|switched off|half full|ready|set|laid|set out|laid out|unlocked|locked|warm|' +
    'hot|wet|dirty|clean|busy'
  ).split('|'),
);

/**
 * What an object does by itself while used (the -ing forms that describe a thing, not the
 * person using it): "kettle is boiling water", "oven is baking bread".
 */
const OBJECT_ACTIVITIES = new Set(
  (
    'baking boiling brewing bubbling burning charging cooking cooling drying flowing ' +
    'frying glowing heating humming playing printing ringing roasting running simmering ' +
    'sizzling spinning steaming ticking toasting warming washing whistling'
  ).split(' '),
);

/** Irregular past participles that follow "being" ("being sat on", "being read"). */
const PARTICIPLES = new Set(
  (
    'bought brought built cut done drawn drunk dug eaten fed found given ground grown held ' +
    'hung kept laid lent lit made mended paid put read ridden run rung said sat seen sent ' +
    'set sewn shaken shown shut slept sold spent spun stirred sung swept swung taken taught ' +
    'thrown torn won worn woven written'
  ).split(' '),
);

/**
 * A state phrase from the model's answer: kept when it reads as a state of an object (at most
 * `STATE_WORDS` words (prompts/action.ts): a known short state, "being" + a past participle, or an object's
 * own -ing activity), else {@link IN_USE}. A leading "is" is dropped (the template writes its
 * own), and "being used for make tea" becomes "being used for making tea".
 */
export function objectStateOf(answer: string): string {
  const state = withoutIs(answer)
    .toLowerCase()
    .replace(/\s+/g, ' ')
    .replace(/[\s.,;:!?-]+$/, '')
    .trim();
  const words = state.split(' ');
  if (state === '' || words.length > STATE_WORDS) return IN_USE;
  if (STATES.has(state)) return state;
  if (words[0] === 'being' && words.length >= 2 && isPastParticiple(words[1])) {
    const used = /^being used (for|in) (.+)$/.exec(state);
    if (used && knownVerb(used[2].split(' ')[0])) {
      return `being used ${used[1]} ${progressive(used[2])}`;
    }
    return state;
  }
  if (OBJECT_ACTIVITIES.has(words[0])) return state;
  return IN_USE;
}

/** A past participle: regular (-ed), -en ("eaten", "written") or one of {@link PARTICIPLES}. */
function isPastParticiple(word: string): boolean {
  if (PARTICIPLES.has(word)) return true;
  return /^[a-z]{2,}ed$/.test(word) || /^[a-z]{3,}en$/.test(word);
}
