/** `plan.wake`: the hour the agent gets up today (Park et al. 2023 §4.3, first planning step). */
import { agentSystem, type IdentityView } from './identity';
import { intIn, object } from './jsonSchema';
import { buildSpec, PLANNING_TEMPERATURE, type PromptSpec } from './PromptSpec';

/** Earliest and latest wake-up hour offered (24-hour clock); reverie personas wake 5–9 am. */
export const EARLIEST_WAKE_HOUR = 4;
export const LATEST_WAKE_HOUR = 11;

/** "wakes up around 5:30am", "wake up at 7 am": the hour a lifestyle says the persona gets up. */
const LIFESTYLE_WAKE =
  /\bwakes?\s+up\s+(?:at\s+|around\s+|about\s+|by\s+)?(\d{1,2})(?::\d{2})?\s*(am|pm)?/i;

/**
 * The wake hours offered: within an hour of the one the lifestyle states, else the whole range.
 * A 135M model asked freely answered 10 or 11 for every resident (a baker who "wakes up around
 * 5:30am" included); the reference's personas keep to their lifestyle, so the choice is narrowed
 * to it and the model still decides the day's hour within it.
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

/** Builds the wake-up hour prompt for the day described by `date` ("Monday February 13, 2023"). */
export function planWakePrompt(who: IdentityView, date: string): PromptSpec<{ wakeHour: number }> {
  const [earliest, latest] = wakeHoursFor(who.lifestyle);
  return buildSpec({
    fn: 'plan.wake',
    stable: agentSystem(
      who,
      'Say at what hour (24-hour clock) you wake up today: the hour your lifestyle says you ' +
        'wake up.',
    ),
    // The lifestyle again right before the question: a small model answers from what it read last.
    volatile: `Today is ${date}.\nYour lifestyle: ${who.lifestyle}\nAt what hour do you wake up today?`,
    shape: object({ wakeHour: intIn(earliest, latest) }),
    temperature: PLANNING_TEMPERATURE,
  });
}
