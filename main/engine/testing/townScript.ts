/**
 * Canned answers that make the test town behave like a day in a small town: everyone wakes at
 * 7, works in four-hour blocks until 23:00, decomposes each hour into 15-minute tasks, picks
 * the first offered place, and talks when they first see someone. Tests override entries.
 */
import type { CompletionRequest } from '../../models/types';
import type { Script } from './ScriptedModel';
import { enumOf, fieldSchema } from './ScriptedModel';

/** The default script; `talk` decides the reaction answer. */
export function townScript(options: { talk?: 'talk' | 'wait' | 'continue' } = {}): Script {
  return {
    // One rating, or one per memory of a list call (prompts/importance.ts).
    importance: (req) => {
      const rating = (req.schema as { properties: { importance: { minItems?: number } } })
        .properties.importance;
      return { importance: rating.minItems === undefined ? 4 : Array(rating.minItems).fill(4) };
    },
    // 7, or the offered hour nearest it (the offer follows the persona's lifestyle).
    'plan.wake': (req) => ({
      wakeHour: (enumOf(req, 'wakeHour') as unknown as number[]).reduce((a, b) =>
        Math.abs(b - 7) < Math.abs(a - 7) ? b : a,
      ),
    }),
    'plan.daily': () => ({
      plan: ['wake up and wash', 'work at the cafe', 'have lunch', 'meet friends', 'go to bed'],
    }),
    'plan.hourly': () => ({
      schedule: [
        { activity: 'work at the cafe', hours: 4, asleep: false },
        { activity: 'lunch and errands', hours: 4, asleep: false },
        { activity: 'garden in the park', hours: 4, asleep: false },
        { activity: 'read at home', hours: 4, asleep: false },
      ],
    }),
    // As many of these as the block's length allows (prompts/planDecompose.ts maxTasksFor).
    'plan.decompose': (req) => ({
      tasks: [
        { task: 'prepare the counter', minutes: 15 },
        { task: 'serve customers', minutes: 15 },
        { task: 'wash cups', minutes: 15 },
        { task: 'tidy the tables', minutes: 15 },
      ].slice(
        0,
        (req.schema as { properties: { tasks: { maxItems: number } } }).properties.tasks.maxItems,
      ),
    }),
    action: (req) => ({
      location: enumOf(req, 'location')[0],
      emoji: '☕',
      objectState: 'in use',
    }),
    // The wanted reaction when the prompt offers it (reverie's preconditions decide the offer,
    // agent/react.ts), else carrying on.
    react: (req) => {
      const offered = enumOf(req, 'decision') as string[];
      const wanted = options.talk ?? 'talk';
      return { decision: offered.includes(wanted) ? wanted : 'continue' };
    },
    'converse.turn': (_req, n) => ({
      utterance: `line ${n + 1} about the spring fair`,
      end: n % 4 === 3,
    }),
    'converse.relationship': () => ({
      relationship: 'neighbours who plan the spring fair together',
    }),
    'converse.summary': () => ({ topic: 'the spring fair' }),
    'converse.thoughts': () => ({
      planning: 'remember to bring flowers to the fair',
      memo: 'enjoyed talking about the fair',
      importance: 6,
    }),
    'reflect.questions': () => ({
      questions: ['What is Ada busy with?', 'Who cares about the fair?', 'What matters today?'],
    }),
    'reflect.insights': (req) => {
      // Cite only statement numbers the schema allows (reflection lists each wording once, so a
      // scripted town's repetitive memories can leave a single statement).
      const listed = statementNumbers(req).length;
      return {
        insights: Array.from({ length: 5 }, (_, i) => ({
          insight: `insight ${i + 1} about the fair`,
          evidence: [1, 2].slice(0, Math.min(listed, 1 + (i % 2))),
          importance: 5,
        })),
      };
    },
    interview: () => ({ answer: 'I am getting ready for the spring fair.' }),
    whisper: () => ({ thought: 'I should organise a picnic in the park', importance: 9 }),
    wander: () => ({ thought: 'I could plant flowers by the fountain for the spring fair' }),
    'daily.revise': () => ({
      currently: 'They are busy preparing for the spring fair.',
      needs: 'They need to buy flowers for the fair today.',
    }),
  };
}

/** The statement numbers an insights request lets evidence cite (its schema's enum). */
function statementNumbers(request: CompletionRequest<unknown>): unknown[] {
  const evidence = fieldSchema(request.schema ?? {}, 'evidence') as { items: { enum?: unknown[] } };
  return evidence.items.enum ?? [];
}
