/**
 * The new-day revision (reverie `revise_identity`): on every game day after the first, before
 * planning, the agent rewrites its "currently" line and today's plan note from dated
 * statements of what it remembers (one `daily.revise` call). With the status-check guard on
 * (common/runs/guards.ts), a status that does not read as a sentence about the resident, or a
 * plan note that is not in words, is not taken and yesterday's stays: what the revision writes
 * steers the whole day's plan.
 */
import { dailyRevisePrompt } from '../prompts/dailyRevise';
import { namesAnExample } from '../prompts/examples';
import { IDENTITY_LABELS } from '../prompts/identity';
import { conditionsOf } from './ablation';
import type { Agent } from './Agent';
import { ask, type Mind } from './mind';
import { revisionStatements } from './planMemory';

/** Fewest words of a status line the check accepts ("Sam is practising guitar."). */
const MIN_STATUS_WORDS = 4;

/** A line of the identity block copied back ("Innate traits: curious, shy"). */
const IDENTITY_LABEL = new RegExp(`^\\s*(?:${Object.values(IDENTITY_LABELS).join('|')})\\s*:`, 'i');

const PRONOUN = /\b(?:i|me|my|he|him|his|she|her|they|them|their)\b/i;

/**
 * Whether `text` reads as a note in words for the resident called `name`: at least
 * {@link MIN_STATUS_WORDS} words, two thirds of them plain words (not dates, clock times or
 * punctuation), not a copied identity field, and naming no worked example's resident (a
 * neighbour's name is theirs: {@link namesAnExample}).
 * A plan note may name no one ("the party at the cafe today at 5 pm").
 * @example readsAsNote('the party at the cafe today at 5 pm', 'Ada Lin') // true
 * @example readsAsNote('2024-04-15', 'Ada Lin') // false
 */
export function readsAsNote(
  text: string,
  name: string,
  neighbours: readonly string[] = [],
): boolean {
  const tokens = text.split(/\s+/).filter(Boolean);
  if (tokens.length < MIN_STATUS_WORDS || IDENTITY_LABEL.test(text)) return false;
  if (namesAnExample(text, [name, ...neighbours])) return false;
  const plain = tokens.filter((t) => /^[a-z][a-z'’-]*[,.;:!?]?$/i.test(t)).length;
  return plain * 3 >= tokens.length * 2;
}

/**
 * Whether `text` reads as a status of the resident called `name`: a note in words
 * ({@link readsAsNote}) that names them, by either name or a pronoun.
 * @example readsAsStatus('Tobias Mensah is going to the cafe to study.', 'Tobias Mensah') // true
 * @example readsAsStatus('The old willow is close to the city.', 'Tobias Mensah') // false
 */
export function readsAsStatus(
  text: string,
  name: string,
  neighbours: readonly string[] = [],
): boolean {
  if (!readsAsNote(text, name, neighbours)) return false;
  const names = name.split(/\s+/).filter((n) => n.length > 1);
  const lower = text.toLowerCase();
  return names.some((n) => lower.includes(n.toLowerCase())) || PRONOUN.test(text);
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
      statements: await revisionStatements(agent, mind, date),
    }),
  );
  const check = conditionsOf(mind).guards.statusCheck;
  const taken = {
    currently: !check || readsAsStatus(revised.currently, agent.name, mind.residents),
    needs: !check || readsAsNote(revised.needs, agent.name, mind.residents),
  };
  agent.identity = {
    ...agent.identity,
    ...(taken.currently ? { currently: revised.currently } : {}),
    ...(taken.needs ? { dailyPlanRequirement: revised.needs } : {}),
  };
}
