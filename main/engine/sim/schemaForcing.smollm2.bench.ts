/**
 * llm.schema_forcing@smollm2-135m — what feeding the tokens a JSON schema forces as prompt
 * tokens saves (models/llama/forced-tokens.ts): the model requests of a run, with their schemas,
 * sent step by step to two fresh SmolLM2-135M models on one thread each, one feeding forced
 * tokens and one decoding every token (`forceSchemaTokens: false`, the code before), the two
 * taking turns going first. `value` is the CPU-seconds with forcing ÷ without, over the same
 * requests; beside it each side's CPU-seconds and generated tokens (sampling makes the two
 * answers differ now and then, so their lengths do too), the share of generated tokens that
 * were forced, and how many answers came out word for word the same.
 *
 * The requests, schemas included, are what the engine asks when it replays the run from its log
 * (the log keeps messages, not schemas). Without a run folder the bench first records Willow
 * Bend from 07:00 for `hours` game hours (3 by default: the day's planning and a morning of
 * actions, ratings and chats) on the product's defaults. About 20 minutes on one core.
 * Run: npx tsx main/engine/sim/schemaForcing.smollm2.bench.ts [run-dir] [--hours N]
 */
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { reportBench, wholeNumberFlag } from '../../../common/bench';
import { townConditions } from '../../../common/runs/conditions';
import { createLlamaLanguageModel } from '../../models/llama/llama-language-model';
import { cpuSeconds } from '../../models/testing/modelLimit';
import { requestsByStep } from '../../models/testing/replay-requests';
import { realTestModels } from '../../models/testing/test-models';
import { createTransformersEmbedder } from '../../models/transformers/transformers-embedder';
import type {
  CompletionRequest,
  CompletionResult,
  Embedder,
  LanguageModel,
} from '../../models/types';
import { readScenarioFolder } from '../../packs/index';
import { LOG_FILE } from './runFiles';
import { Simulation } from './Simulation';

const { positionals, values: flags } = parseArgs({
  allowPositionals: true,
  options: { hours: { type: 'string' } },
});
const hours = wholeNumberFlag('hours', flags.hours) ?? 3;
const round = (n: number, digits = 1) => Number(n.toFixed(digits));

/** Records Willow Bend from its start for `hours` game hours on the product's defaults. */
async function recordWillowBend(modelPath: string, embedder: Embedder): Promise<string> {
  const { scenario } = await readScenarioFolder(
    path.resolve(import.meta.dirname, '../../../templates/willow-bend'),
  );
  const llm = await createLlamaLanguageModel({ modelPath, gpu: false, threads: 1 });
  const root = mkdtempSync(path.join(os.tmpdir(), 'schema-forcing-'));
  try {
    const sim = await Simulation.create(
      scenario,
      path.join(root, 'live'),
      { model: llm, embedder },
      { conditions: townConditions(scenario.settings.costLayer) },
    );
    await sim.run((hours * 3600) / scenario.settings.secondsPerStep);
    sim.close();
    console.log(`recorded ${hours} game hours of Willow Bend in ${sim.runDir}`);
    return sim.runDir;
  } finally {
    await llm.dispose();
  }
}

/**
 * The run's model requests as the engine asks them, grouped by the step that asked (the log's
 * steps, matched by function, agent and call number as the replay provider matches them).
 */
async function requestsOf(runDir: string, embedder: Embedder) {
  const stepOf = new Map<string, number>();
  requestsByStep(path.join(runDir, LOG_FILE)).forEach((step, i) => {
    for (const call of step) stepOf.set(`${call.fn}|${call.agentId ?? ''}|${call.seq}`, i);
  });
  const calls = new Map<string, number>();
  const bySteps = new Map<number, CompletionRequest<unknown>[]>();
  const keep = (inner: LanguageModel): LanguageModel => ({
    id: inner.id,
    dispose: () => inner.dispose(),
    complete<T>(request: CompletionRequest<T>): Promise<CompletionResult<T>> {
      const pair = `${request.fn}|${request.agentId ?? ''}`;
      const seq = calls.get(pair) ?? 0;
      calls.set(pair, seq + 1);
      const step = stepOf.get(`${pair}|${seq}`) ?? -1;
      const { signal: _signal, ...asked } = request;
      bySteps.set(step, [...(bySteps.get(step) ?? []), asked as CompletionRequest<unknown>]);
      return inner.complete(request);
    },
  });
  const replay = await Simulation.replay(
    runDir,
    mkdtempSync(path.join(os.tmpdir(), 'schema-forcing-replay-')),
    embedder,
    keep,
  );
  replay.close();
  return [...bySteps.entries()].sort(([a], [b]) => a - b).map(([, requests]) => requests);
}

const models = realTestModels('llm.schema_forcing@smollm2-135m');
if (models) {
  const embedder = await createTransformersEmbedder({ modelFolder: models.embedder, threads: 1 });
  const runDir = positionals[0] ?? (await recordWillowBend(models.llm, embedder));
  const steps = await requestsOf(runDir, embedder);
  await embedder.dispose();
  const decoding = await createLlamaLanguageModel({
    modelPath: models.llm,
    gpu: false,
    threads: 1,
    forceSchemaTokens: false,
  });
  const forcing = await createLlamaLanguageModel({ modelPath: models.llm, gpu: false, threads: 1 });
  const sides = [
    { model: decoding, cpu: 0, generated: 0, answers: [] as string[] },
    { model: forcing, cpu: 0, generated: 0, answers: [] as string[] },
  ];
  let requests = 0;
  try {
    for (const [i, step] of steps.entries()) {
      // Each side goes first every other step, so neither always meets a warmer machine.
      for (const side of i % 2 ? [...sides].reverse() : sides) {
        const cpu = process.cpuUsage();
        const results = await Promise.all(step.map((r) => side.model.complete(r)));
        side.cpu += cpuSeconds(process.cpuUsage(cpu));
        for (const r of results) {
          side.generated += r.usage.completionTokens;
          side.answers.push(r.text);
        }
      }
      requests += step.length;
      if (i % 10 === 9) {
        console.log(
          `${requests} requests: ${round(sides[0].cpu)} CPU-s decoding every token, ` +
            `${round(sides[1].cpu)} feeding forced ones`,
        );
      }
    }
    const [off, on] = sides;
    reportBench({
      name: 'llm.schema_forcing@smollm2-135m',
      value: round(on.cpu / off.cpu, 3),
      unit: 'CPU-seconds feeding schema-forced tokens ÷ decoding every token, same requests',
      cpuSecondsDecoding: round(off.cpu),
      cpuSecondsForcing: round(on.cpu),
      requests,
      generatedTokensDecoding: off.generated,
      generatedTokensForcing: on.generated,
      forcedShare: round(forcing.forcedCompletionTokens / on.generated, 3),
      sameAnswers: on.answers.filter((a, i) => a === off.answers[i]).length,
      threads: 1,
      run: runDir,
      load1: round(os.loadavg()[0], 2),
    });
  } finally {
    await decoding.dispose();
    await forcing.dispose();
  }
}
