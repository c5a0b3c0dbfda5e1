/**
 * The context a town's prompts need, checked before a run starts. Every prompt is built for
 * every persona with its lists at their minimum and typical-length inputs; the largest need
 * (system text, template, the fixed part of the user message and the answer's reservation)
 * is the smallest context the town can run in. Below it a run is refused with that number,
 * rather than failing at its first plan. The same prompts are the text a run's token profile
 * is measured on, so the measurement reads what the model will read.
 */
import { formatAddress, parseAddress } from '../../../common/scenario/address';
import type { Persona, Scenario } from '../../../common/scenario/schema';
import type { ModelTokenizer } from '../../models/types';
import { actionPrompt, LOCATION_SEPARATOR } from './action';
import { actNowPrompt } from './actNow';
import { CHARS_PER_WORD } from './jsonSchema';
import { converseRelationshipPrompt } from './converseRelationship';
import { converseSummaryPrompt } from './converseSummary';
import { converseThoughtsPrompt } from './converseThoughts';
import { converseTurnPrompt } from './converseTurn';
import { dailyRevisePrompt } from './dailyRevise';
import { identityOf } from './identity';
import { importancePrompt } from './importance';
import { interviewPrompt } from './interview';
import { planDailyPrompt } from './planDaily';
import { planDecomposePrompt } from './planDecompose';
import { planHourlyPrompt } from './planHourly';
import { planWakePrompt } from './planWake';
import type { CognitiveFn, PromptSpec } from './PromptSpec';
import { reactPrompt } from './react';
import { reflectInsightsPrompt } from './reflectInsights';
import { reflectQuestionsPrompt } from './reflectQuestions';
import { socialSummaryPrompt } from './socialSummary';
import { socialUpdatePrompt } from './socialUpdate';
import { measureTokenProfile, UNMEASURED_PROFILE, type TokenProfile } from './tokenProfile';
import { wanderPrompt } from './wander';
import { whisperPrompt } from './whisper';

/** The largest context need of a town, and the prompt that has it. */
export interface ContextNeed {
  tokens: number;
  fn: CognitiveFn;
  persona: string;
}

/** A run refused because the model's context cannot hold the town's prompts. */
export class ContextTooSmallError extends Error {
  constructor(
    readonly town: string,
    readonly need: ContextNeed,
    readonly contextTokens: number,
  ) {
    super(
      `${town} needs a model context of at least ${need.tokens} tokens per sequence ` +
        `(${need.persona}'s ${need.fn} prompt with its answer), but this model gives ` +
        `${contextTokens}. Choose a model trained on a longer context, or raise the context ` +
        'size if the model allows it.',
    );
    this.name = 'ContextTooSmallError';
  }
}

/** Text of `words` words of typical length (estimates count characters only). */
function typical(words: number): string {
  return 'word '
    .repeat(words)
    .trim()
    .padEnd(words * (CHARS_PER_WORD - 2), 's');
}

/** Every prompt a run asks `persona`, with typical inputs and each list at its minimum. */
function personaPrompts(persona: Persona, town: string): PromptSpec<unknown>[] {
  const who = identityOf(persona);
  const date = 'Wednesday, September 30, 2026';
  const now = `${date}, 12:00 PM`;
  const partner = 'Alexandra Montgomery';
  const line = `${partner}: ${typical(20)}`;
  const memory = typical(15);
  const home = parseAddress(persona.livingArea).slice(1).join(LOCATION_SEPARATOR);
  const place = formatAddress(town, ...parseAddress(persona.livingArea).slice(1));
  const turn = {
    now,
    place,
    partnerName: partner,
    partnerActivity: typical(8),
    earlierChats: [],
    memories: [],
    transcript: [line],
  };
  return [
    importancePrompt(who, { kind: 'event', description: memory }),
    planWakePrompt(who, date),
    planDailyPrompt(who, { date, wakeHour: 7, recentThoughts: [] }),
    planHourlyPrompt(who, {
      date,
      fromHour: 7,
      dailyPlan: Array.from({ length: 8 }, () => typical(8)),
      recentThoughts: [],
    }),
    planDecomposePrompt(who, {
      date,
      activity: typical(6),
      startClock: '12:00 PM',
      minutes: 240,
      context: '',
    }),
    actionPrompt(who, { now, task: typical(8), currentPlace: place, locations: [home] }),
    reactPrompt(who, {
      now,
      ownActivity: typical(8),
      otherName: partner,
      otherActivity: typical(8),
      memories: [],
    }),
    // A line with social memory (its stored entry) and without (this line's relationship).
    converseTurnPrompt(who, {
      ...turn,
      social: { relationship: typical(5), feeling: typical(5), summary: typical(45) },
    }),
    converseTurnPrompt(who, { ...turn, relationship: typical(25) }),
    converseRelationshipPrompt(who, { partnerName: partner, memories: [] }),
    converseSummaryPrompt({ names: [who.name, partner], transcript: [line] }),
    converseThoughtsPrompt(who, { partnerName: partner, transcript: [line] }),
    reflectQuestionsPrompt(who, [memory]),
    reflectInsightsPrompt(who, {
      questions: [typical(12), typical(12), typical(12)],
      statements: [memory],
    }),
    interviewPrompt(who, { now, question: typical(15), memories: [] }),
    whisperPrompt(who, { now, whisper: typical(15) }),
    wanderPrompt(who, { now, memories: [memory] }),
    dailyRevisePrompt(who, { date, yesterday: date, statements: [] }),
    actNowPrompt(who, { now, place, previous: typical(8), recent: [] }),
    socialSummaryPrompt(who, {
      partnerName: partner,
      relationship: typical(5),
      previous: typical(45),
      newMemories: [],
    }),
    socialUpdatePrompt(who, {
      partnerName: partner,
      relationship: typical(5),
      feeling: typical(5),
      transcript: [line],
    }),
  ];
}

/** The town's name as prompts write it (the world's name). */
function townName(scenario: Scenario): string {
  return scenario.tree.world;
}

/**
 * Measures the run's token profile with the model's own tokenizer on the town's own text: every
 * persona's system prompts (identity and instructions), seed memories and place names. A model
 * that cannot count gets the unmeasured profile.
 */
export function measureTownProfile(
  scenario: Scenario,
  tokenizer: ModelTokenizer | undefined,
): TokenProfile {
  if (!tokenizer) return UNMEASURED_PROFILE;
  const town = townName(scenario);
  const text = [
    ...scenario.personas.flatMap((p) => [
      ...personaPrompts(p, town).map((spec) => spec.fit(UNMEASURED_PROFILE).messages[0].content),
      p.seed,
      ...p.knownPlaces,
    ]),
    scenario.name,
  ];
  return measureTokenProfile(tokenizer, text, placeLines(scenario));
}

/** Every place of the town as the action prompt lists them ("- sector > arena > object"). */
function placeLines(scenario: Scenario): string[] {
  return scenario.tree.sectors.flatMap((sector) =>
    sector.arenas.flatMap((arena) => [
      `- ${sector.name}${LOCATION_SEPARATOR}${arena.name}`,
      ...arena.objects.map(
        (object) =>
          `- ${sector.name}${LOCATION_SEPARATOR}${arena.name}${LOCATION_SEPARATOR}${object.name}`,
      ),
    ]),
  );
}

/** The smallest context that holds every prompt of the town (null with no personas). */
export function townContextNeed(scenario: Scenario, profile: TokenProfile): ContextNeed | null {
  const town = townName(scenario);
  let worst: ContextNeed | null = null;
  for (const persona of scenario.personas) {
    for (const spec of personaPrompts(persona, town)) {
      const tokens = spec.fit(profile).neededTokens;
      if (!worst || tokens > worst.tokens) {
        worst = { tokens, fn: spec.fn, persona: identityOf(persona).name };
      }
    }
  }
  return worst;
}

/** Throws {@link ContextTooSmallError} when `profile`'s context cannot hold the town. */
export function assertTownFits(scenario: Scenario, profile: TokenProfile): void {
  if (profile.contextTokens === null) return;
  const need = townContextNeed(scenario, profile);
  if (need && need.tokens > profile.contextTokens) {
    throw new ContextTooSmallError(scenario.name, need, profile.contextTokens);
  }
}
