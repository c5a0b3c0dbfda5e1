/** `plan.wake`: the hour the agent gets up today (Park et al. 2023 §4.3, first planning step). */
import { agentSystem, type IdentityView } from './identity';
import { intIn, object } from './jsonSchema';
import { buildSpec, type PromptSpec } from './PromptSpec';

/** Earliest and latest wake-up hour offered (24-hour clock); reverie personas wake 5–9 am. */
export const EARLIEST_WAKE_HOUR = 4;
export const LATEST_WAKE_HOUR = 11;

const shape = object({ wakeHour: intIn(EARLIEST_WAKE_HOUR, LATEST_WAKE_HOUR) });

/** Builds the wake-up hour prompt for the day described by `date` ("Monday February 13, 2023"). */
export function planWakePrompt(who: IdentityView, date: string): PromptSpec<{ wakeHour: number }> {
  return buildSpec({
    fn: 'plan.wake',
    stable: agentSystem(
      who,
      'Decide at what hour (24-hour clock) you wake up today, in line with your lifestyle.',
    ),
    volatile: `Today is ${date}.`,
    shape,
  });
}
