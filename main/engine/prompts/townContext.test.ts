/**
 * Prompts that fit any context: Willow Bend through the real engine at 512 (refused at start,
 * naming the minimum), 2,048 and 8,192 tokens (every request fits; a prompt that cannot is cut
 * and the cut logged, never a failure).
 */
import { existsSync, mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Scenario } from '../../../common/scenario/schema';
import type {
  ChatMessage,
  CompletionRequest,
  CompletionResult,
  LanguageModel,
  ModelTokenizer,
} from '../../models/types';
import { readScenarioFolder } from '../../packs';
import { EventLog } from '../sim/EventLog';
import { Simulation } from '../sim/Simulation';
import { HashEmbedder, ScriptedModel } from '../testing/ScriptedModel';
import { ContextTooSmallError } from './townContext';

const templates = path.resolve(import.meta.dirname, '../../../templates');

/** Ten game minutes: every resident wakes, plans the day and starts its first tasks. */
const STEPS = 60;

/**
 * A tokenizer double reading three characters per token (between SmolLM2's four and
 * stories260K's 1.6) with a chat template of twelve tokens.
 */
function threeCharTokenizer(contextTokens: number): ModelTokenizer {
  const count = (text: string) => Math.ceil(text.length / 3);
  return {
    contextTokens,
    count,
    countPrompt: (messages: ChatMessage[]) =>
      12 + messages.reduce((n, m) => n + count(m.content), 0),
  };
}

/** The scripted model with a context: a request that cannot fit fails as a real one would. */
class ContextModel implements LanguageModel {
  readonly id = 'scripted-with-context';
  /** Residents wake at six and work in four-hour blocks, so the first ten minutes act. */
  readonly inner = new ScriptedModel({
    'plan.wake': () => ({ wakeHour: 6 }),
    'plan.hourly': () => ({
      schedule: [
        ...Array.from({ length: 4 }, () => ({ activity: 'work', hours: 4, asleep: false })),
        { activity: 'sleep', hours: 2, asleep: true },
      ],
    }),
  });
  readonly requests: { fn: string; promptTokens: number; maxTokens: number }[] = [];

  constructor(readonly tokenizer: ModelTokenizer) {}

  complete<T>(request: CompletionRequest<T>): Promise<CompletionResult<T>> {
    const promptTokens = this.tokenizer.countPrompt(request.messages);
    this.requests.push({ fn: request.fn, promptTokens, maxTokens: request.maxTokens });
    if (promptTokens >= this.tokenizer.contextTokens) {
      return Promise.reject(new Error(`${request.fn}: ${promptTokens} prompt tokens overflow`));
    }
    return this.inner.complete(request);
  }

  async dispose(): Promise<void> {}
}

function tmp(): string {
  return path.join(mkdtempSync(path.join(os.tmpdir(), 'town-context-')), 'run');
}

describe('Willow Bend at different context sizes', () => {
  let willow: Scenario;

  beforeAll(async () => {
    ({ scenario: willow } = await readScenarioFolder(path.join(templates, 'willow-bend')));
  });

  it('refuses to start at 512 tokens, saying why and the minimum it needs', async () => {
    const dir = tmp();
    const start = Simulation.create(willow, dir, {
      model: new ContextModel(threeCharTokenizer(512)),
      embedder: new HashEmbedder(),
    });
    await expect(start).rejects.toBeInstanceOf(ContextTooSmallError);
    await expect(start).rejects.toThrow(
      /^Willow Bend needs a model context of at least \d+ tokens per sequence \(.+'s [a-z.]+ prompt with its answer\), but this model gives 512\./,
    );
    const error = (await start.catch((e: unknown) => e)) as ContextTooSmallError;
    expect(error.need.tokens).toBeGreaterThan(512);
    expect(error.need.tokens).toBeLessThanOrEqual(2048);
    expect(existsSync(dir)).toBe(false);
  });

  it.each([2048, 8192])('runs at %i tokens with every prompt and its answer fitting', async (n) => {
    const model = new ContextModel(threeCharTokenizer(n));
    const sim = await Simulation.create(willow, tmp(), { model, embedder: new HashEmbedder() });
    await sim.run(STEPS);
    expect(sim.step).toBe(STEPS);
    const fns = new Set(model.requests.map((r) => r.fn));
    for (const fn of ['plan.wake', 'plan.daily', 'plan.hourly', 'plan.decompose', 'action']) {
      expect(fns).toContain(fn);
    }
    for (const r of model.requests) {
      expect(r.promptTokens + r.maxTokens, `${r.fn} overflows`).toBeLessThanOrEqual(n);
    }
    // Answers are sized for this model, not at two tokens per schema character.
    const hourly = model.requests.find((r) => r.fn === 'plan.hourly');
    expect(hourly?.maxTokens).toBeGreaterThan(150);
  });

  it('at 2048 tokens, cuts a prompt that cannot fit and logs the cut; the run goes on', async () => {
    const model = new ContextModel(threeCharTokenizer(2048));
    const sim = await Simulation.create(willow, tmp(), { model, embedder: new HashEmbedder() });
    await sim.run(3);
    const [first] = sim.agents;
    const question = 'Tell me everything you remember about the founding of Willow Bend. '.repeat(
      100,
    );
    await expect(sim.interview(first.id, question)).resolves.toEqual(expect.any(String));
    await sim.run(3);
    const { events } = EventLog.read(path.join(sim.runDir, 'events.ndjson'));
    expect(events.filter((e) => e.type === 'prompt.trim')).toContainEqual(
      expect.objectContaining({
        fn: 'interview',
        agentId: first.id,
        trims: [expect.objectContaining({ part: 'question', fromChars: question.length })],
      }),
    );
    for (const r of model.requests) expect(r.promptTokens + r.maxTokens).toBeLessThanOrEqual(2048);
    expect(sim.step).toBe(6);
  });
});
