/**
 * `plan.daily`: the day in broad strokes (Park et al. 2023 §4.3: "the agent's plan for the day
 * in broad strokes"). As the reference does, the plan's first item is given — "wake up and
 * complete the morning routine at <hour>" — and the model writes what follows, 3–7 items, so
 * a plan holds 4–8 (ARCHITECTURE §9 says 5–8; we accept 4 so a short day fits).
 */
import { ranked } from './budget';
import { EXAMPLE_RESIDENTS } from './examples';
import { exampleSystem, residentBrief, type IdentityView } from './identity';
import { list, object, words } from './jsonSchema';
import { buildSpec, bullets, type PromptSpec } from './PromptSpec';
import { readsAsActivity } from './verbPhrase';

/**
 * Longest plan item, in words: roomy, because a small model does not keep to it and an item the
 * grammar cuts short goes on in the next one ("go to the garden, visit the", ", and come back").
 */
const ITEM_WORDS = 12;

const shape = object({ plan: list(words(ITEM_WORDS, 3), 3, 7) });

/** The plan's first item, which the prompt gives (reverie's `daily_planning_v6` prefix). */
export function wakeItem(wakeHour: number): string {
  return `${WAKE_ITEM_OPENING}${wakeHour}:00`;
}

const WAKE_ITEM_OPENING = 'wake up and complete the morning routine at ';

/**
 * Yesterday's day plan as today's, with today's wake-up hour (reverie `_long_term_planning` on
 * a "New day": `daily_req` stays, and only the hourly schedule is asked anew, from the revised
 * identity).
 * @example keptPlan(['wake up and complete the morning routine at 6:00', 'open the cafe'], 7) // ['wake up and complete the morning routine at 7:00', 'open the cafe']
 */
export function keptPlan(yesterday: readonly string[], wakeHour: number): string[] {
  const rest = yesterday.filter((item) => !item.startsWith(WAKE_ITEM_OPENING));
  return [wakeItem(wakeHour), ...rest];
}

/** A time a plan item ends on: "at 10:00", "at 10:00: Delphine.", "by noon", "at 7 pm". */
const STATED_TIME =
  /\s+(?:at|by|around|until|from)\s+(?:\d{1,2}(?::\d{2})?(?:\s*[ap]\.?m\.?)?|noon|midnight)\b.*$/i;

/** Punctuation a small model ends a plan item with ("…the town's founding years."). */
const TRAILING_PUNCTUATION = /[\s.,;:!?]+$/;

/**
 * The plan's items as activities a schedule block may name: the given wake-up item left out, a
 * stated time and trailing punctuation cut off ("go to the library at 10:00." becomes "go to
 * the library": a block has its own hour).
 * @example planItemActivities(['wake up and complete the morning routine at 6:00', 'open the cafe at 7:00.']) // ['open the cafe']
 */
export function planItemActivities(plan: readonly string[]): string[] {
  return plan
    .filter((item) => !item.startsWith(WAKE_ITEM_OPENING))
    .map((item) => item.replace(STATED_TIME, '').replace(TRAILING_PUNCTUATION, ''));
}

function opening(who: IdentityView, date: string): string {
  return `${residentBrief(who)}\nToday is ${date}. Recent thoughts:\n`;
}

function closing(wakeHour: number): string {
  return `\nYou ${wakeItem(wakeHour)}. What do you do after that, until you go to bed?`;
}

/** Builds the broad day plan prompt; `recentThoughts` (newest first) may steer it. */
export function planDailyPrompt(
  who: IdentityView,
  input: { date: string; wakeHour: number; recentThoughts: readonly string[] },
): PromptSpec<{ plan: string[] }> {
  return buildSpec({
    fn: 'plan.daily',
    stable: exampleSystem(
      "Write the resident's plan for today in broad strokes, after the morning routine: 3 to 7 " +
        `activities in the order they do them, each at most ${ITEM_WORDS} words, the last ` +
        'one going to bed. Take their recent thoughts into account.',
    ),
    examples: EXAMPLE_RESIDENTS.map((e) => ({
      question: opening(e.who, e.date) + bullets(e.recentThoughts) + closing(e.wakeHour),
      answer: { plan: e.dayAfterWaking },
    })),
    volatile: [
      opening(who, input.date),
      ranked('thoughts', input.recentThoughts),
      closing(input.wakeHour),
    ],
    shape,
    // The given first item, then the model's; an item it wrote twice counts once, however
    // capitalised or punctuated ("…the town's founding years." and "…the town’s founding years").
    decode: ({ plan }) => ({
      plan: uniqueBy(
        [wakeItem(input.wakeHour), ...plan.map((p) => p.trim()).filter(readsAsActivity)],
        planItemKey,
      ),
    }),
  });
}

/**
 * What two plan items the model wrote as one activity share, however capitalised or punctuated
 * ("…the town's founding years." and "…the town’s founding years").
 */
export function planItemKey(item: string): string {
  return item.toLowerCase().replace(/[‘’]/g, "'").replace(TRAILING_PUNCTUATION, '');
}

/** The items in order, each dropped whose key an earlier item already had. */
function uniqueBy(items: readonly string[], key: (item: string) => string): string[] {
  const seen = new Set<string>();
  return items.filter((item) => {
    const k = key(item);
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}
