/**
 * The new-day revision (reverie `revise_identity`): on every game day after the first, before
 * planning, the agent rewrites its "currently" line and today's plan note from dated
 * statements of what it remembers (one `daily.revise` call). With the status-check guard on
 * (common/runs/guards.ts), a status that is not a sentence about the resident, or a plan note
 * that is not in words, is not taken and yesterday's stays: what the revision writes steers
 * the whole day's plan.
 */
import { copiesRevisionExample, dailyRevisePrompt } from '../prompts/dailyRevise';
import { IDENTITY_LABELS } from '../prompts/identity';
import { conditionsOf } from './ablation';
import type { Agent } from './Agent';
import { inWords } from './inWords';
import { ask, type Mind } from './mind';
import { revisionStatements } from './planMemory';

/** Fewest words of a status line the check accepts ("Sam is practising guitar."). */
const MIN_STATUS_WORDS = 4;

/** A line of the identity block copied back ("Innate traits: curious, shy"). */
const IDENTITY_LABEL = new RegExp(`^\\s*(?:${Object.values(IDENTITY_LABELS).join('|')})\\s*:`, 'i');

/** Words a status about the resident may open with besides their name. */
const OPENERS = new Set(['he', 'she', 'they', 'i', 'mr', 'mrs', 'ms', 'miss', 'dr', 'professor']);

/**
 * Whether `text` reads as a note in words for the resident called `name`: at least
 * {@link MIN_STATUS_WORDS} words, two thirds of them plain words (not dates, clock times or
 * punctuation), no word looping (agent/inWords.ts), not a copied identity field, and not a
 * copied worked example ({@link copiesRevisionExample}; a neighbour's name is theirs, not an
 * example's).
 * A plan note may name no one ("the party at the cafe today at 5 pm").
 * @example readsAsNote('the party at the cafe today at 5 pm', 'Ada Lin') // true
 * @example readsAsNote('2024-04-15', 'Ada Lin') // false
 * @example readsAsNote('Ada will bake the cake tomorrow tomorrow tomorrow', 'Ada Lin') // false
 */
export function readsAsNote(
  text: string,
  name: string,
  neighbours: readonly string[] = [],
): boolean {
  if (!inWords(text, MIN_STATUS_WORDS) || IDENTITY_LABEL.test(text)) return false;
  return !copiesRevisionExample(text, name, neighbours);
}

/**
 * Whether `text` reads as a status of the resident called `name`: a note in words
 * ({@link readsAsNote}) that opens with them — a word of their name, a pronoun or a title. On
 * recorded Willow Bend days SmolLM2 opened statuses with someone else ("Tom has been to the
 * library…" for Tobias Mensah, "Delphine Cartwright is planning to have a party…" for him too),
 * with the date ("Today is Tuesday April 16, 2024. I am sorry to hear that.") or with the
 * prompt's own words ("You are Agnes Whitlow, a local history lecturer…").
 * @example readsAsStatus('Tobias Mensah is going to the cafe to study.', 'Tobias Mensah') // true
 * @example readsAsStatus('The old willow is close to the city.', 'Tobias Mensah') // false
 * @example readsAsStatus('Tom has been to the library to read his book.', 'Tobias Mensah') // false
 */
export function readsAsStatus(
  text: string,
  name: string,
  neighbours: readonly string[] = [],
): boolean {
  if (!readsAsNote(text, name, neighbours)) return false;
  const first = /^[^a-z]*([a-z]+)/i.exec(text)?.[1].toLowerCase() ?? '';
  const names = name
    .toLowerCase()
    .split(/\s+/)
    .filter((n) => n.length > 1);
  return names.includes(first) || OPENERS.has(first);
}

/** Revises the agent's "currently" line and daily requirement for `date` (one `daily.revise` call). */
export async function reviseForNewDay(
  agent: Agent,
  mind: Mind,
  date: string,
  yesterday: string,
): Promise<void> {
  const revised = await ask(
    mind,
    agent,
    dailyRevisePrompt(agent.identity, {
      date,
      yesterday,
      statements: await revisionStatements(agent, mind, date, yesterday),
    }),
  );
  const check = conditionsOf(mind).guards.statusCheck;
  const currently = !check || readsAsStatus(revised.currently, agent.name, mind.residents);
  // An answer whose status is not about the resident is confused as a whole: its plan note was
  // about that other person too on recorded days ("Tom will finish the proposal draft this
  // week" beside "Tom has been to the library…" for Tobias Mensah), so yesterday's note stays.
  const taken = {
    currently,
    needs: !check || (currently && readsAsNote(revised.needs, agent.name, mind.residents)),
  };
  agent.identity = {
    ...agent.identity,
    ...(taken.currently ? { currently: revised.currently } : {}),
    ...(taken.needs ? { dailyPlanRequirement: revised.needs } : {}),
  };
}
