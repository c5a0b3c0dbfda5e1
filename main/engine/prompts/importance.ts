/**
 * `importance`: how poignant a new memory is, 1 (mundane: brushing teeth) to 10 (poignant: a
 * break-up), as Park et al. 2023 §4.1 rate every memory. Observations of the form "… is idle"
 * never reach this prompt (agent/observe.ts scores them 1 without a call).
 *
 * Laid out for the KV cache (issue 22): the instructions and worked examples
 * (prompts/memoryExamples.ts), the same for every resident, come first; then who is rating —
 * only name, traits and what they are up to (the whole identity block was 94% of the prompt)
 * — and the memories.
 */
import { MAX_IMPORTANCE, MIN_IMPORTANCE } from '../agent/memory';
import { freeText, ranked } from './budget';
import { exampleSystem, residentLine, type IdentityView } from './identity';
import { intIn, list, object, type Shape } from './jsonSchema';
import { IMPORTANCE_EXAMPLES, type RatedMemory } from './memoryExamples';
import { buildSpec, type KeptItems, type PromptSpec } from './PromptSpec';

const shape = object({ importance: intIn(MIN_IMPORTANCE, MAX_IMPORTANCE) });

const SCALE =
  'on a scale of 1 to 10, where 1 is purely mundane (brushing teeth, making the bed, an object ' +
  'in use) and 10 is extremely poignant (a break-up, a college acceptance).';

const memoryLine = (m: Pick<RatedMemory, 'kind' | 'description'>) => `(${m.kind}) ${m.description}`;
const ASK_ONE = '\nHow important is this memory to you?';
const ASK_ALL = '\nHow important is each memory to you?';

/** Builds the importance rating prompt for one memory of `kind` ('event', 'chat' or 'thought'). */
export function importancePrompt(
  who: IdentityView,
  memory: { kind: 'event' | 'chat' | 'thought'; description: string },
): PromptSpec<{ importance: number }> {
  return buildSpec({
    fn: 'importance',
    stable: exampleSystem(`Rate how important a memory is to the resident ${SCALE}`),
    examples: IMPORTANCE_EXAMPLES.map((e) => {
      const last = e.memories[e.memories.length - 1];
      return {
        question: `${residentLine(e.who)}\nMemory: ${memoryLine(last)}${ASK_ONE}`,
        answer: { importance: last.importance },
      };
    }),
    volatile: [
      `${residentLine(who)}\nMemory: (${memory.kind}) `,
      freeText('memory', memory.description),
      ASK_ONE,
    ],
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
    stable: exampleSystem(
      `Rate how important each memory is to the resident ${SCALE} Give one rating per memory, ` +
        'in the order listed.',
    ),
    examples: IMPORTANCE_EXAMPLES.map((e) => ({
      question: `${residentLine(e.who)}\nMemories:\n${e.memories.map((m) => `- ${memoryLine(m)}`).join('\n')}${ASK_ALL}`,
      answer: { importance: e.memories.map((m) => m.importance) },
    })),
    volatile: [
      `${residentLine(who)}\nMemories:\n`,
      ranked('memories', memories.map(memoryLine), { min: 1 }),
      ASK_ALL,
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
