/** `plan.wake`: the hour the agent gets up today (Park et al. 2023 §4.3, first planning step). */
import type { Guards } from '../../../common/runs/guards';
import { EXAMPLE_RESIDENTS } from './examples';
import { exampleSystem, residentBrief, type IdentityView } from './identity';
import { intIn, object } from './jsonSchema';
import { buildSpec, type PromptSpec } from './PromptSpec';

/** Earliest and latest wake-up hour offered (24-hour clock); reverie personas wake 5–9 am. */
export const EARLIEST_WAKE_HOUR = 4;
export const LATEST_WAKE_HOUR = 11;

/** "wakes up around 5:30am", "wake up at 7 am": the hour a lifestyle says the persona gets up. */
const LIFESTYLE_WAKE =
  /\b(?:wakes?|awakes?|gets?)\s+up\s+(?:at\s+|around\s+|about\s+|by\s+)?(\d{1,2})(?::\d{2})?\s*(am|pm)?/i;

/**
 * The wake hours offered: within an hour of the one the lifestyle states, else the whole range.
 * SmolLM2-135M, asked freely, answered 10 or 11 for every resident (a baker who "wakes up around
 * 5:30am" included), and "five am" for all when the hours were words; the reference's personas
 * keep to their lifestyle, so the choice is narrowed to it and the model still picks the day's
 * hour within it.
 */
export function wakeHoursFor(lifestyle: string): [number, number] {
  const m = LIFESTYLE_WAKE.exec(lifestyle);
  if (!m) return [EARLIEST_WAKE_HOUR, LATEST_WAKE_HOUR];
  let hour = Number(m[1]) % 12;
  if (m[2]?.toLowerCase() === 'pm') hour += 12;
  if (hour < EARLIEST_WAKE_HOUR || hour > LATEST_WAKE_HOUR) {
    return [EARLIEST_WAKE_HOUR, LATEST_WAKE_HOUR];
  }
  return [Math.max(EARLIEST_WAKE_HOUR, hour - 1), Math.min(LATEST_WAKE_HOUR, hour + 1)];
}

function question(who: IdentityView, date: string): string {
  return `${residentBrief(who)}\nToday is ${date}. At what hour do you wake up?`;
}

/** Any hour of the day: the answer with the wake-window guard off (common/runs/guards.ts). */
const ANY_HOUR: [number, number] = [0, 23];

/**
 * Builds the wake-up hour prompt for the day described by `date` ("Monday February 13, 2023");
 * the hours offered are {@link wakeHoursFor} the lifestyle, or any hour with the guard off.
 */
export function planWakePrompt(
  who: IdentityView,
  date: string,
  guards: Pick<Guards, 'wakeWindow'> = { wakeWindow: true },
): PromptSpec<{ wakeHour: number }> {
  const hours = guards.wakeWindow ? wakeHoursFor(who.lifestyle) : ANY_HOUR;
  return buildSpec({
    fn: 'plan.wake',
    stable: exampleSystem(
      'Say at what hour (24-hour clock) the resident wakes up today, in line with their lifestyle.',
    ),
    examples: EXAMPLE_RESIDENTS.map((e) => ({
      question: question(e.who, e.date),
      answer: { wakeHour: e.wakeHour },
    })),
    volatile: question(who, date),
    shape: object({ wakeHour: intIn(...hours) }),
  });
}
