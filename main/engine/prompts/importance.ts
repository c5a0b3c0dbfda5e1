/**
 * `importance`: how poignant a new memory is, 1 (mundane: brushing teeth) to 10 (poignant: a
 * break-up), as Park et al. 2023 §4.1 rate every memory. Observations of the form "… is idle"
 * never reach this prompt (agent/observe.ts scores them 1 without a call).
 */
import { MAX_IMPORTANCE, MIN_IMPORTANCE } from '../agent/memory';
import { freeText, ranked } from './budget';
import { briefAgentSystem, type IdentityView } from './identity';
import { intIn, list, object, type Shape } from './jsonSchema';
import { buildSpec, type KeptItems, type PromptSpec } from './PromptSpec';

const shape = object({ importance: intIn(MIN_IMPORTANCE, MAX_IMPORTANCE) });

/** Builds the importance rating prompt for one memory of `kind` ('event', 'chat' or 'thought'). */
export function importancePrompt(
  who: IdentityView,
  memory: { kind: 'event' | 'chat' | 'thought'; description: string },
): PromptSpec<{ importance: number }> {
  return buildSpec({
    fn: 'importance',
    stable: briefAgentSystem(
      who,
      'Rate how important a memory is to you on a scale of 1 to 10, where 1 is purely mundane ' +
        '(brushing teeth, making the bed) and 10 is extremely poignant (a break-up, a college ' +
        'acceptance).',
    ),
    volatile: [`Memory (${memory.kind}): `, freeText('memory', memory.description)],
    shape,
  });
}

/**
 * Rates several new memories in one call (issue 14: ratings were most of the tokens; each single
 * call repeats the identity block for one line). The answer lists one rating per memory shown,
 * in order; memories the context could not hold come back `null` (rate them one by one).
 */
export function importanceListPrompt(
  who: IdentityView,
  memories: readonly { kind: 'event' | 'chat' | 'thought'; description: string }[],
): PromptSpec<{ importance: (number | null)[] }> {
  const rating = intIn(MIN_IMPORTANCE, MAX_IMPORTANCE);
  const shown = (kept: KeptItems) => kept.get('memories')?.length ?? memories.length;
  return buildSpec<{ importance: (number | null)[] }>({
    fn: 'importance',
    stable: briefAgentSystem(
      who,
      'Rate how important each memory is to you on a scale of 1 to 10, where 1 is purely ' +
        'mundane (brushing teeth, making the bed) and 10 is extremely poignant (a break-up, a ' +
        'college acceptance). Give one rating per memory, in the order listed.',
    ),
    volatile: [
      'Memories:\n',
      ranked(
        'memories',
        memories.map((m) => `(${m.kind}) ${m.description}`),
        { min: 1 },
      ),
    ],
    shape: (kept) => {
      const n = shown(kept);
      return object({ importance: list(rating, n, n) }) as Shape<{
        importance: (number | null)[];
      }>;
    },
    decode: (answer, kept) => {
      const order = kept.get('memories') ?? memories.map((_, i) => i);
      const all: (number | null)[] = memories.map(() => null);
      order.forEach((index, j) => (all[index] = answer.importance[j] ?? null));
      return { importance: all };
    },
  });
}
