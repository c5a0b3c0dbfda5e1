/**
 * A conversation on the real test models (issues 12 and 13): Tobias Mensah and Agnes Whitlow of
 * Willow Bend, seeded with their personas' memories (MiniLM embeddings), meet in the college
 * library at 10:00 and talk through the engine's own `converse` on SmolLM2-135M-Instruct (one
 * thread), with its relationship summary and retrieval per line, topic, thoughts and
 * re-planning. The transcript and the summaries are printed whole, so a failure shows what the
 * model said.
 *
 * What holds on a model this small: every line it answers is English of a few words (the
 * echo guard — a line that echoes an earlier one is asked again in other words, and a second
 * echo ends the chat — is code, tested with a scripted model in converse.test.ts), and both
 * remember the conversation, by a topic rather than a line of it
 * (issue 25: "conversing with Marisol Okafor about I am sorry to hear that."). That the partner
 * answers is not asserted: SmolLM2-135M often only echoes, and the chat then ends after the
 * opening line.
 * (Before the converse prompt showed worked examples it spoke dates as its lines: "yesterday
 * was Monday, April 15, 2024"; before the echo guard, every line repeated the one before.)
 *
 * Skips loudly without the models (`npm run models:test`) or the word list (`wamerican`).
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedClauses } from '../../../common/scenario/seed';
import { createLlamaLanguageModel } from '../../models/llama/llama-language-model';
import { realTestModels } from '../../models/testing/test-models';
import { createTransformersEmbedder } from '../../models/transformers/transformers-embedder';
import type { Embedder, LanguageModel } from '../../models/types';
import { readScenarioFolder } from '../../packs/index';
import { Clock } from '../sim/Clock';
import { englishDictionary } from '../testing/englishWords';
import { TileWorld } from '../world/TileWorld';
import { Agent } from './Agent';
import { converse, repeatsEarlier, type Conversation } from './converse';
import type { Mind } from './mind';
import { seedMemories } from './observe';

const models = realTestModels('the SmolLM2 conversation test');
const dictionary = englishDictionary('the SmolLM2 conversation test');
const WILLOW_BEND = path.join(import.meta.dirname, '../../../templates/willow-bend');

describe.skipIf(!models || !dictionary)('a conversation on SmolLM2-135M-Instruct', () => {
  let model: LanguageModel;
  let embedder: Embedder;
  let chat: Conversation;
  let agents: Agent[];
  const relationships: string[] = [];
  // Every line the model answered, the ones the echo guard refused included.
  const answers: string[] = [];

  beforeAll(async () => {
    model = await createLlamaLanguageModel({ modelPath: models!.llm, gpu: false, threads: 1 });
    embedder = await createTransformersEmbedder({ modelFolder: models!.embedder, threads: 1 });
    const { scenario } = await readScenarioFolder(WILLOW_BEND);
    const world = TileWorld.fromScenario(scenario);
    const clock = new Clock('2024-04-15T10:00:00', scenario.settings.secondsPerStep);
    // What the model answers for the per-line relationship summaries, printed with the chat.
    const counted: LanguageModel = {
      id: model.id,
      tokenizer: model.tokenizer,
      async complete(request) {
        const result = await model.complete(request);
        if (request.fn === 'converse.turn') {
          answers.push((result.json as { utterance: string }).utterance);
        }
        if (request.fn === 'converse.relationship') {
          relationships.push(
            `${request.agentId}: ${(result.json as { relationship: string }).relationship}`,
          );
        }
        return result;
      },
      dispose: () => model.dispose(),
    };
    const mind: Mind = {
      model: counted,
      embedder,
      clock,
      now: 0,
      world,
      seed: scenario.settings.seed,
      reflectionThreshold: scenario.settings.reflectionThreshold,
    };
    // Two free tiles of the college library.
    const library = `${world.worldName}:Larkspur College:library`;
    const free = world
      .tilesOf(library)
      .map((i) => world.tileAt(i))
      .filter((t) => !world.isBlocked(t));
    const people = ['tobias', 'agnes'].map((first, n) => {
      const p = scenario.personas.find((x) => x.firstName.toLowerCase() === first)!;
      return {
        p,
        agent: Agent.fromPersona(p, world.worldName, free[n], embedder.dimensions),
      };
    });
    agents = people.map(({ agent }) => agent);
    for (const { p, agent } of people) {
      await seedMemories(agent, mind, seedClauses(p.seed));
      // Both are in the middle of a morning in the library, as a day plan would have them.
      agent.day = 0;
      agent.wakeMinute = 7 * 60;
      agent.schedule = [
        { activity: 'work in the library', startMinute: 540, minutes: 180, asleep: false },
      ];
      agent.tasks = [{ task: 'read in the library', startMinute: 540, minutes: 180 }];
      agent.action = {
        description: 'reading in the library',
        address: library,
        emoji: '📖',
        predicate: 'is reading',
        object: 'a book',
        objectAddress: null,
        objectState: null,
        startedAt: 0,
        endsAt: 3600,
        taskKey: '0@540',
        withAgent: null,
      };
    }
    const started = performance.now();
    chat = await converse(people[0].agent, people[1].agent, mind);
    console.log(
      `Conversation (${chat.transcript.length} lines, ended by ${chat.endedBy}, topic ` +
        `"${chat.topic}", ${((performance.now() - started) / 1000).toFixed(0)} s):\n` +
        chat.transcript.map((l) => `  ${l}`).join('\n') +
        `\nChat memory: ${agents[0].memory.latest(['chat'], 1)[0]?.description}` +
        `\nLines the model answered (${answers.length}; ` +
        `${answers.length - chat.transcript.length} refused as echoes or after the end):\n` +
        answers.map((l) => `  ${l}`).join('\n') +
        `\nHow each speaker stood with the other, before each line:\n` +
        relationships.map((l) => `  ${l}`).join('\n'),
    );
  }, 900_000);

  afterAll(async () => {
    await model?.dispose();
    await embedder?.dispose();
  });

  it('every line the model answers is English of a few words, and the chat is remembered', () => {
    const text = chat.transcript.join('\n');
    expect(chat.transcript.length, text).toBeGreaterThanOrEqual(1);
    expect(chat.transcript[0].startsWith(`${agents[0].name}: `), text).toBe(true);
    // The model's own answers, echoes the guard refused included: nothing in the code makes
    // them English (the grammar only makes them strings). That no line repeats an earlier
    // one is enforced by the echo guard, so it is tested with a scripted echoing model in
    // converse.test.ts, not here.
    const said = answers.join('\n');
    expect(answers.length, said).toBeGreaterThanOrEqual(chat.transcript.length);
    for (const line of answers)
      expect(dictionary!.words(line).length, said).toBeGreaterThanOrEqual(3);
    expect(dictionary!.englishShare(said), said).toBeGreaterThanOrEqual(0.8);
    for (const agent of agents) {
      expect(agent.memory.latest(['chat'], 1)[0]?.filling, agent.name).toEqual(chat.transcript);
    }
  });

  it('remembers the chat by a topic, not by a line of it (issue 25)', () => {
    const memory = agents[0].memory.latest(['chat'], 1)[0].description;
    const [a, b] = agents.map((x) => x.name);
    expect(memory).toMatch(new RegExp(`^${a} and ${b} (conversed about \\S|had a chat$)`));
    const topic = memory.replace(/^.*? conversed about /, '');
    expect(repeatsEarlier(topic, chat.transcript), memory).toBe(false);
    expect(topic, memory).not.toMatch(/[:{}_]|\b(I|you)\b/);
  });

  it('before each line the speaker sums up how they stand with the partner, in English', () => {
    const text = relationships.join('\n');
    // One per line asked (a line asked again after an echo asks again).
    expect(relationships.length, text).toBeGreaterThanOrEqual(chat.transcript.length);
    expect(relationships[0].startsWith(`${agents[0].id}: `), text).toBe(true);
    expect(dictionary!.englishShare(text), text).toBeGreaterThanOrEqual(0.8);
  });
});
