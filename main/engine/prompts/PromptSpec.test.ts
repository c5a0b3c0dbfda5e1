import { describe, expect, it } from 'vitest';
import { estimateTokens, ranked } from './budget';
import { answerTokens, bool, intIn, list, object, tuple, words } from './jsonSchema';
import { buildSpec, type Example } from './PromptSpec';
import type { TokenProfile } from './tokenProfile';

const profile = (contextTokens: number | null): TokenProfile => ({
  contextTokens,
  textTokensPerChar: 0.25,
  jsonTokensPerChar: 0.35,
  templateTokens: 8,
});

const EXAMPLES: Example[] = [
  {
    question: `First example question: ${'words of the first example '.repeat(8)}`,
    answer: { n: 1 },
  },
  {
    question: `Second example question: ${'words of the second example '.repeat(8)}`,
    answer: { n: 2 },
  },
];

const ITEMS = Array.from({ length: 12 }, (_, i) => `memory number ${i} of the resident`);

function spec(examples?: readonly Example[]) {
  return buildSpec({
    fn: 'plan.wake',
    stable: 'Instructions for the model. Answer with JSON only.',
    examples,
    volatile: ['The question, with what the resident remembers:\n', ranked('memories', ITEMS)],
    shape: object({ n: intIn(0, 9) }),
  });
}

/** Estimated tokens of a fitted prompt's messages as the fit counts them, plus its answer. */
function promptAndAnswer(fitted: ReturnType<ReturnType<typeof spec>['fit']>, p: TokenProfile) {
  const [system, ...rest] = fitted.messages;
  const question = rest.pop()!;
  return (
    estimateTokens(system.content, p) +
    p.templateTokens +
    rest.reduce((n, m) => n + estimateTokens(m.content, p) + p.templateTokens, 0) +
    estimateTokens(question.content, p) +
    fitted.maxTokens
  );
}

describe('buildSpec with worked examples', () => {
  it('shows each example as a user question and the assistant answer, between instructions and question', () => {
    const fitted = spec(EXAMPLES).fit(profile(8192));
    expect(fitted.messages.map((m) => m.role)).toEqual([
      'system',
      'user',
      'assistant',
      'user',
      'assistant',
      'user',
    ]);
    expect(fitted.messages[0].content).toBe('Instructions for the model. Answer with JSON only.');
    expect(fitted.messages[1].content).toBe(EXAMPLES[0].question);
    expect(JSON.parse(fitted.messages[2].content)).toEqual({ n: 1 });
    expect(fitted.messages[3].content).toBe(EXAMPLES[1].question);
    expect(JSON.parse(fitted.messages[4].content)).toEqual({ n: 2 });
    for (const item of ITEMS) expect(fitted.messages[5].content).toContain(`- ${item}`);
    // The examples are part of the question asked: other examples, another cache entry.
    const other = spec([EXAMPLES[1], EXAMPLES[0]]).fit(profile(8192));
    expect(other.cacheKey).not.toBe(fitted.cacheKey);
  });

  it('drops examples, last first, before it cuts anything of the question', () => {
    const bare = spec().fit(profile(null));
    const seen = new Set<number>();
    for (let context = 60; context <= 900; context++) {
      const p = profile(context);
      const fitted = spec(EXAMPLES).fit(p);
      const shown = (fitted.messages.length - 2) / 2;
      seen.add(shown);
      // The first `shown` examples, in order.
      expect(fitted.messages.slice(1, -1)).toEqual(
        EXAMPLES.slice(0, shown).flatMap((e) => [
          { role: 'user', content: e.question },
          { role: 'assistant', content: JSON.stringify(e.answer) },
        ]),
      );
      if (shown > 0) {
        // An example is shown only with the question whole, and the answer still has its room.
        expect(fitted.trims, `context ${context}`).toEqual([]);
        expect(fitted.messages.at(-1)).toEqual(bare.messages.at(-1));
        expect(promptAndAnswer(fitted, p), `context ${context}`).toBeLessThanOrEqual(context);
      } else {
        // Without examples the prompt is what it was without any to show.
        expect(fitted.messages).toEqual(spec().fit(p).messages);
      }
      // What the prompt needs does not count the examples (they are dropped first).
      expect(fitted.neededTokens).toBe(spec().fit(p).neededTokens);
    }
    // The range covers every case: none, the first only, both.
    expect([...seen].sort()).toEqual([0, 1, 2]);
  });

  it('drops the examples when the question alone would fit whole but not beside them', () => {
    // The smallest context where the question fits whole without examples.
    let context = 60;
    while (
      spec().fit(profile(context)).messages.at(-1)?.content !==
      spec().fit(profile(null)).messages.at(-1)?.content
    )
      context++;
    const fitted = spec(EXAMPLES).fit(profile(context));
    expect(fitted.messages).toHaveLength(2);
    expect(fitted.trims).toEqual([]);
    for (const item of ITEMS) expect(fitted.messages[1].content).toContain(`- ${item}`);
  });
});

describe('answers written as tuples', () => {
  const block = { activity: words(6, 3), hours: intIn(1, 4), asleep: bool() };
  const schedule = (item: typeof block) => ({ schedule: list(tuple(item), 2, 8) });

  it('shows an example answer given as objects the way the model writes it, and reads it back', () => {
    const answer = {
      schedule: [
        { activity: 'open the bakery', hours: 3, asleep: false },
        { activity: 'sleep', hours: 4, asleep: true },
      ],
    };
    const fitted = buildSpec({
      fn: 'plan.hourly',
      stable: 'Instructions.',
      examples: [{ question: 'An example question.', answer }],
      volatile: 'The question.',
      shape: object(schedule(block)),
    }).fit(profile(8192));
    expect(fitted.messages[2].content).toBe(
      '{"schedule":[["open the bakery",3,false],["sleep",4,true]]}',
    );
    expect(fitted.validator.parse(JSON.parse(fitted.messages[2].content))).toEqual(answer);
    // Keys where values are expected are not an answer.
    expect(() => fitted.validator.parse(answer)).toThrow();
  });

  it('sizes a tuple answer by what it writes: no keys, so less room than the same fields keyed', () => {
    const p = profile(8192);
    const asTuples = answerTokens(object(schedule(block)).json, p);
    const asObjects = answerTokens(object({ schedule: list(object(block), 2, 8) }).json, p);
    expect(asTuples.realistic).toBeLessThan(asObjects.realistic);
    // Still room for the fullest answer the grammar allows, at the profile's rates.
    const fullest = JSON.stringify({
      schedule: Array.from({ length: 8 }, () => ['x'.repeat(42), 4, false]),
    });
    expect(asTuples.realistic).toBeGreaterThan(estimateTokens(fullest, p));
  });
});
