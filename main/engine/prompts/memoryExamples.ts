/**
 * Worked examples for the prompts about memories (prompts/examples.ts says why small models
 * need them), with the same two invented residents: how much a memory matters (importance),
 * and reflection — a few recent memories, the questions those memories raise, the statements
 * retrieved for those questions and the insights drawn from them.
 *
 * Why importance needs them: over a recorded Willow Bend day SmolLM2-135M rated a third of all
 * memories 10 ("Agnes Whitlow is writing a book about the summer", "Delphine Cartwright is
 * writing a personal message to the town") and "librarian’s desk is in use" 7, so the
 * importance sum reached the reflection threshold about once an hour per resident where the
 * paper's agents reflect two or three times a day.
 *
 * Why reflection needs its own: asked with instructions alone, SmolLM2-135M copied memory lines
 * back as its "questions" ("1. Agnes Whitlow is a professor of local history at…") and wrote
 * the word "insight" as each insight, in pretty-printed JSON whose whitespace was most of the
 * 250–400 tokens it generated per call (a recorded Willow Bend day, issue 22). Shown compact
 * answers it writes compact ones.
 */
import { EXAMPLE_RESIDENTS } from './examples';
import type { IdentityView } from './identity';

/** One example resident's reflection. */
export interface ReflectionExample {
  who: IdentityView;
  /** Recent memories, oldest first (reflect.questions' statements). */
  memories: readonly string[];
  questions: readonly [string, string, string];
  /** reflect.insights: the statements retrieved for the questions, each once, and the insights. */
  statements: readonly string[];
  insights: readonly { insight: string; evidence: readonly number[]; importance: number }[];
}

const [SAM, ROSA] = EXAMPLE_RESIDENTS;

/** A memory as the importance prompts show it, and the rating it deserves. */
export interface RatedMemory {
  kind: 'event' | 'chat' | 'thought';
  description: string;
  importance: number;
}

/**
 * Each example resident's new memories, rated: mostly mundane (their own routine, objects in
 * use), a few that matter. SmolLM2-135M copies where the high rating sits: with both lists ending
 * on it, five-memory lists counted up ([1, 2, 5, 7, 10], the last "bookshelf is in use"); with
 * Sam's chat second, pairs came back [1, 10] (12 of 50 re-asked pairs ended ≥ 8, against 5 with it
 * third, as here). The single-memory prompt shows each resident's last one.
 */
export const IMPORTANCE_EXAMPLES: readonly {
  who: IdentityView;
  memories: readonly RatedMemory[];
}[] = [
  {
    who: SAM.who,
    memories: [
      { kind: 'event', description: 'Sam Lee is eating lunch in the staff room', importance: 1 },
      { kind: 'event', description: 'nurses desk is in use', importance: 1 },
      {
        kind: 'chat',
        description: 'Sam Lee and Mia conversed about the band splitting up',
        importance: 7,
      },
      { kind: 'event', description: 'Dr Okafor is writing up the patient notes', importance: 2 },
    ],
  },
  {
    who: ROSA.who,
    memories: [
      { kind: 'event', description: 'Rosa Diaz is watering the lavender', importance: 1 },
      {
        kind: 'thought',
        description: 'Rosa wants to read the new novel in the park',
        importance: 3,
      },
      { kind: 'event', description: 'beehive is in use', importance: 1 },
      { kind: 'event', description: 'a swarm of bees left the second hive', importance: 6 },
    ],
  },
];

export const REFLECTION_EXAMPLES: readonly ReflectionExample[] = [
  {
    who: SAM.who,
    memories: [
      'Sam Lee is caring for patients on the ward',
      'Sam Lee is eating lunch in the staff room',
      'Dr Okafor thanked Sam for staying late',
      'Sam Lee is practising the new song on the guitar',
      'Mia from the band said the new song is too fast',
      'Sam Lee is sleeping',
    ],
    questions: [
      'What does Sam value in his work at the clinic?',
      'How does the band feel about the new song?',
      'How does Sam balance nursing and music?',
    ],
    statements: [
      'Sam Lee is caring for patients on the ward',
      'Dr Okafor thanked Sam for staying late',
      'Sam Lee is practising the new song on the guitar',
      'Mia from the band said the new song is too fast',
      'Sam has worked at the clinic for six years',
      'Sam Lee is writing up the patient notes',
    ],
    insights: [
      { insight: 'Sam is proud of being a careful nurse', evidence: [1, 6], importance: 6 },
      { insight: 'The doctor trusts Sam and relies on him', evidence: [2], importance: 5 },
      { insight: 'The band wants the new song played slower', evidence: [4], importance: 5 },
      {
        insight: 'Sam practises the guitar even after long shifts',
        evidence: [2, 3],
        importance: 4,
      },
      { insight: 'Sam has settled into life at the clinic', evidence: [5], importance: 4 },
    ],
  },
  {
    who: ROSA.who,
    memories: [
      'Rosa Diaz is checking the beehives in the garden',
      'the second hive has very little honey',
      'Rosa Diaz is reading a novel in the park',
      'Sam Lee asked Rosa to come to the band night',
      'Rosa Diaz is watering the lavender',
      'the lavender by the gate is in flower',
    ],
    questions: [
      'Why are Rosa’s bees making so little honey?',
      'Who are Rosa’s friends in Elmford?',
      'What does Rosa enjoy doing on her own?',
    ],
    statements: [
      'the second hive has very little honey',
      'Rosa Diaz is checking the beehives in the garden',
      'Sam Lee asked Rosa to come to the band night',
      'last summer was dry and the flowers were few',
      'Rosa Diaz is reading a novel in the park',
      'the lavender by the gate is in flower',
    ],
    insights: [
      { insight: 'A dry summer left the bees with few flowers', evidence: [1, 4], importance: 6 },
      { insight: 'The new lavender may feed the bees again', evidence: [1, 6], importance: 5 },
      { insight: 'Rosa watches her hives closely and worries', evidence: [1, 2], importance: 5 },
      { insight: 'Sam counts Rosa among his friends', evidence: [3], importance: 4 },
      { insight: 'Rosa likes quiet hours with a book in the park', evidence: [5], importance: 3 },
    ],
  },
];
