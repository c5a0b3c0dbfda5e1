/**
 * Willow Bend's prompts against real tokenizers and real generation: stories260K (a toy model
 * whose tokenizer spends about 1.6 characters a token, trained on a 2,048-token context) runs
 * at its own context without a prompt or an answer overflowing; SmolLM2-135M-Instruct is
 * refused at 512 tokens with the minimum named. SmolLM2 running Willow Bend at the context a
 * user gets (automatic: 4,096 of its trained 8,192) is engine/sim/smollm2.integration.test.ts,
 * four game hours in which an overflowing prompt would fail its step. A longer context asked for
 * in Settings only gives prompts/budget.ts more room to fit them in, so this file no longer
 * plays minutes of SmolLM2 at 8,192 to show they fit there too. Skips loudly without the models.
 */
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createLlamaLanguageModel } from '../../models/llama/llama-language-model';
import { sharedFixtureAvailable, sharedStoriesGguf } from '../../models/testing/shared-models';
import { realTestModels } from '../../models/testing/test-models';
import { readScenarioFolder } from '../../packs';
import { EventLog } from '../sim/EventLog';
import { Simulation } from '../sim/Simulation';
import { HashEmbedder } from '../testing/ScriptedModel';
import { ContextTooSmallError } from './townContext';

const templates = path.resolve(import.meta.dirname, '../../../templates');

/** Three game minutes: every resident wakes, plans its day and picks its first action. */
const STEPS = 18;

function tmp(): string {
  return path.join(mkdtempSync(path.join(os.tmpdir(), 'town-context-real-')), 'run');
}

async function willow() {
  return (await readScenarioFolder(path.join(templates, 'willow-bend'))).scenario;
}

/** Every model call of a run as logged: prompt and completion tokens. */
function calls(runDir: string) {
  return EventLog.read(path.join(runDir, 'events.ndjson'))
    .events.filter((e) => e.type === 'llm')
    .map((e) => ({
      fn: e.fn as string,
      ...(e.usage as { promptTokens: number; completionTokens: number }),
    }));
}

const stories = sharedFixtureAvailable(sharedStoriesGguf, 'the stories260K Willow Bend run');

describe.runIf(stories)('Willow Bend on stories260K at its trained context', () => {
  it('starts, plans and acts without a prompt or an answer overflowing 2,048 tokens', async () => {
    const model = await createLlamaLanguageModel({
      modelPath: sharedStoriesGguf,
      threads: 1,
      sequences: 3,
      contextSize: 8192, // capped at the model's trained 2,048
    });
    try {
      expect(model.info.contextSize).toBe(2048);
      const sim = await Simulation.create(await willow(), tmp(), {
        model,
        embedder: new HashEmbedder(),
      });
      await sim.run(STEPS);
      const made = calls(sim.runDir);
      for (const fn of ['plan.wake', 'plan.daily', 'plan.hourly', 'plan.decompose', 'action']) {
        expect(made.map((c) => c.fn)).toContain(fn);
      }
      for (const c of made) expect(c.promptTokens + c.completionTokens).toBeLessThanOrEqual(2048);
      expect(sim.agents.every((a) => a.action !== null)).toBe(true);
    } finally {
      await model.dispose();
    }
  }, 900_000);
});

const real = realTestModels('the SmolLM2 context-size tests');

describe.runIf(real)('Willow Bend on SmolLM2-135M-Instruct', () => {
  it('is refused at a 512-token context, naming the minimum', async () => {
    const model = await createLlamaLanguageModel({
      modelPath: real!.llm,
      threads: 1,
      sequences: 1,
      contextSize: 512,
    });
    try {
      const start = Simulation.create(await willow(), tmp(), {
        model,
        embedder: new HashEmbedder(),
      });
      await expect(start).rejects.toBeInstanceOf(ContextTooSmallError);
      await expect(start).rejects.toThrow(/needs a model context of at least \d+ tokens/);
    } finally {
      await model.dispose();
    }
  });
});
