/**
 * `importance`: how poignant a new memory is, 1 (mundane: brushing teeth) to 10 (poignant: a
 * break-up), as Park et al. 2023 §4.1 rate every memory. Observations of the form "… is idle"
 * never reach this prompt (agent/observe.ts scores them 1 without a call).
 */
import { MAX_IMPORTANCE, MIN_IMPORTANCE } from '../agent/memory';
import { freeText } from './budget';
import { agentSystem, type IdentityView } from './identity';
import { intIn, object } from './jsonSchema';
import { buildSpec, type PromptSpec } from './PromptSpec';

const shape = object({ importance: intIn(MIN_IMPORTANCE, MAX_IMPORTANCE) });

/** Builds the importance rating prompt for one memory of `kind` ('event', 'chat' or 'thought'). */
export function importancePrompt(
  who: IdentityView,
  memory: { kind: 'event' | 'chat' | 'thought'; description: string },
): PromptSpec<{ importance: number }> {
  return buildSpec({
    fn: 'importance',
    stable: agentSystem(
      who,
      'Rate how important a memory is to you on a scale of 1 to 10, where 1 is purely mundane ' +
        '(brushing teeth, making the bed) and 10 is extremely poignant (a break-up, a college ' +
        'acceptance).',
    ),
    volatile: [`Memory (${memory.kind}): `, freeText('memory', memory.description)],
    shape,
  });
}
