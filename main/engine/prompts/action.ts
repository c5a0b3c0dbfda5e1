/**
 * `action`: where and how the agent does its current task, in ONE call. The reference spends
 * eight (sector, arena, object, emoji, event triple, object state, object emoji, object
 * triple); here one object carries them (ARCHITECTURE §4). The location is an `enum` of the
 * places in the agent's own spatial memory, so a hallucinated address cannot be produced.
 */
import { agentSystem, type IdentityView } from './identity';
import { object, oneOf, text } from './jsonSchema';
import { buildSpec, type PromptSpec } from './PromptSpec';

/** Separates the parts of a location choice: "sector > arena > object". */
export const LOCATION_SEPARATOR = ' > ';

/** The action as the model writes it. */
export interface ActionChoice {
  /** One of the offered locations: "sector > arena > object" or "sector > arena". */
  location: string;
  /** 1–4 characters shown over the sprite. */
  emoji: string;
  /** Event triple with the agent as subject: predicate and object. */
  predicate: string;
  object: string;
  /** What the used object is doing meanwhile, e.g. "being cooked on". */
  objectState: string;
}

/**
 * Builds the action prompt. `locations` must be non-empty; list the current arena's places
 * first (the reference prefers the current area).
 */
export function actionPrompt(
  who: IdentityView,
  input: { now: string; task: string; currentPlace: string; locations: readonly string[] },
): PromptSpec<ActionChoice> {
  const shape = object({
    location: oneOf(input.locations),
    emoji: text(1, 4),
    predicate: text(2, 20),
    object: text(2, 30),
    objectState: text(2, 30),
  });
  return buildSpec({
    fn: 'action',
    stable: agentSystem(
      who,
      'Choose where to do your current task, from places you know (prefer your current area ' +
        'when it fits), an emoji for it, the task as a (you, predicate, object) event, and the ' +
        'state of the object you use while you use it.',
    ),
    volatile: `It is ${input.now}. You are in ${input.currentPlace}. Task: ${input.task}.`,
    shape,
    maxTokens: 200,
  });
}
