/**
 * The identity block that ends the system text of every agent prompt: the persona's fixed fields
 * plus the two that change once a game day at most (`currently`, daily requirement). Built the
 * same way for every function, after the instructions every resident shares, so the KV cache
 * serves the shared part across residents and the whole of it to the same resident again
 * (ARCHITECTURE §4).
 */

import type { Persona } from '../../../common/scenario/schema';

/** What prompts know about who an agent is. */
export interface IdentityView {
  name: string;
  age: number;
  innate: string;
  learned: string;
  currently: string;
  lifestyle: string;
  dailyPlanRequirement: string;
  /** Home arena address, e.g. "the Ville:Lin family's house:Mei's bedroom". */
  livingArea: string;
}

/** A persona's identity as prompts show it. */
export function identityOf(persona: Persona): IdentityView {
  return {
    name: `${persona.firstName} ${persona.lastName}`.trim(),
    age: persona.age,
    innate: persona.innate,
    learned: persona.learned,
    currently: persona.currently,
    lifestyle: persona.lifestyle,
    dailyPlanRequirement: persona.dailyPlanRequirement,
    livingArea: persona.livingArea,
  };
}

/**
 * The labels of the identity block's lines ("Innate traits: curious, shy"); agent/dayRevision.ts
 * refuses a status that copies one of these lines back.
 */
export const IDENTITY_LABELS = {
  name: 'Name',
  innate: 'Innate traits',
  learned: 'About',
  currently: 'Currently',
  lifestyle: 'Lifestyle',
  dailyPlanRequirement: 'Daily requirements',
  livingArea: 'Lives in',
} as const;

/** The stable identity paragraph. */
export function identityBlock(who: IdentityView): string {
  const L = IDENTITY_LABELS;
  return [
    `${L.name}: ${who.name} (age ${who.age})`,
    `${L.innate}: ${who.innate}`,
    `${L.learned}: ${who.learned}`,
    `${L.currently}: ${who.currently}`,
    `${L.lifestyle}: ${who.lifestyle}`,
    who.dailyPlanRequirement ? `${L.dailyPlanRequirement}: ${who.dailyPlanRequirement}` : '',
    `${L.livingArea}: ${who.livingArea}`,
  ]
    .filter(Boolean)
    .join('\n');
}

/**
 * The standard system text: role line and the function's instructions, which every resident's
 * prompt of that function shares, then the resident. What is shared comes first (issue 22): the
 * KV cache then serves the instructions across residents (the sequence pool routes by cached
 * prefix, models/llama/sequence-pool.ts), and one resident's successive prompts of a function
 * still share all of it.
 */
export function agentSystem(who: IdentityView, instructions: string): string {
  return `You simulate one resident of a small town in a believable way.\n\n${instructions}\nAnswer with JSON only.\n\nThe resident:\n${identityBlock(who)}`;
}

/**
 * The resident in a few sentences, addressed to them: what the worked examples' questions open
 * with (prompts/examples.ts), so a small model reads the real resident as it read the examples.
 */
export function residentBrief(who: IdentityView): string {
  return [
    `You are ${who.name}, age ${who.age} (${who.innate}).`,
    who.learned,
    who.currently,
    who.lifestyle,
    who.dailyPlanRequirement,
  ]
    .filter(Boolean)
    .join(' ');
}

/**
 * The resident in one sentence, addressed to them: name, traits and what they are up to. What a
 * prompt judging their own memories needs (importance, reflection), where the whole brief would
 * be most of the prompt: reverie's focal-point and insight prompts carry no identity at all, and
 * the importance prompt's identity block was 94% of it (issue 22).
 */
export function residentLine(
  who: Pick<IdentityView, 'name' | 'age' | 'innate' | 'currently'>,
): string {
  return `You are ${who.name}, age ${who.age} (${who.innate}). ${who.currently}`;
}

/** The system text of a prompt that shows worked examples: instructions only, no identity. */
export function exampleSystem(instructions: string): string {
  return `You simulate the residents of a small town in a believable way.\n\n${instructions}\nAnswer with JSON only.`;
}
