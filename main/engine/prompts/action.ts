/**
 * `action`: where and how the agent does its current task, in ONE call. The reference spends
 * eight (sector, arena, object, emoji, event triple, object state, object emoji, object
 * triple); here one object carries the place, the emoji and the object's state (ARCHITECTURE
 * §4). The places the agent knows are listed in the prompt, current area first, so the model
 * sees its choices; the location is an `enum` of exactly the places listed, so a hallucinated
 * address cannot be produced.
 *
 * Keyed, not a tuple (jsonSchema.ts `tuple`): written as `[place, emoji, state]` (12% fewer
 * tokens), SmolLM2-135M gave 📖, the last worked example's emoji, for 91–94% of a day's tasks
 * (8–10 distinct emoji over two recorded Willow Bend days, 31–34 keyed).
 *
 * The event triple is not asked (issue 22): it is the task itself, "<name> is <task in -ing
 * form>" (agent/plan.ts `actionOf`), as the agent's description already was. Asked for it,
 * SmolLM2-135M wrote a triple that said something else in 22 of a recorded day's 70 answers
 * ("has made a breakfast" / "a cake" for "make tea and eat breakfast", "welcomes the library"
 * for "go to the library", "feeds the river" for "look at the river"), and the two fields with
 * their keys were about a third of each answer's tokens.
 */
import { parseAddress } from '../../../common/scenario/address';
import { bullets } from './PromptSpec';
import { freeText, ranked } from './budget';
import { EXAMPLE_RESIDENTS } from './examples';
import { exampleSystem, type IdentityView } from './identity';
import { object, oneOf, text, words } from './jsonSchema';
import { buildSpec, type PromptSpec } from './PromptSpec';

/** Separates the parts of a location choice: "sector > arena > object". */
export const LOCATION_SEPARATOR = ' > ';

/** Longest object state, in words. */
export const STATE_WORDS = 5;

/** The action as the model writes it. */
export interface ActionChoice {
  /** One of the offered locations: "sector > arena > object" or "sector > arena". */
  location: string;
  /** 1–4 characters shown over the sprite. */
  emoji: string;
  /**
   * What the used object is doing meanwhile, e.g. "being cooked on", as the model wrote it;
   * world/objectState.ts makes it a state ("in use" when it is not one).
   */
  objectState: string;
}

/**
 * Builds the action prompt. `locations` must be non-empty; list the current arena's places
 * first (the reference prefers the current area): when the context cannot hold them all, the
 * first ones are kept.
 */
export function actionPrompt(
  who: IdentityView,
  input: { now: string; task: string; currentPlace: string; locations: readonly string[] },
): PromptSpec<ActionChoice> {
  if (input.locations.length === 0) throw new RangeError('actionPrompt: expected a location');
  return buildSpec({
    fn: 'action',
    stable: exampleSystem(
      'Choose where the resident does their current task: one of the places listed, written ' +
        'exactly as listed (their current area when the task can be done there, else the ' +
        'place the task names or needs). Then give one emoji for the task and the state of ' +
        'the object they use while they use it: a state of the object, not what the resident ' +
        'does, such as "in use", ' +
        `"being cleaned" or "being used for making tea", at most ${STATE_WORDS} words.`,
    ),
    examples: EXAMPLE_RESIDENTS.map(({ who: w, action: a }) => ({
      question: opening(w, a.now, a.currentPlace, a.task) + bullets(a.locations),
      answer: a.choice,
    })),
    volatile: [
      opening(who, input.now, input.currentPlace, ''),
      freeText('task', input.task),
      PLACES_HEADING,
      ranked('places', input.locations, { min: 1, whole: true, names: true }),
    ],
    shape: (kept) =>
      object({
        location: oneOf((kept.get('places') ?? []).map((i) => input.locations[i])),
        emoji: text(1, 4),
        objectState: words(STATE_WORDS, 2),
      }),
  });
}

const PLACES_HEADING = '.\nPlaces you know (sector > area > object):\n';

/**
 * The question up to the task; with `task` given (an example), through the places heading.
 * The current place is written as the places are listed ("sector > area").
 */
function opening(who: IdentityView, now: string, currentPlace: string, task: string): string {
  const here = parseAddress(currentPlace).slice(1).join(LOCATION_SEPARATOR) || currentPlace;
  const head = `You are ${who.name}. It is ${now}. You are in ${here}. Task: `;
  return task ? head + task + PLACES_HEADING : head;
}
