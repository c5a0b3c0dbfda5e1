/**
 * `simulacra experiment`: N seeds × conditions over one scenario on local models or a model on
 * an OpenAI-compatible server (llama-server, Ollama, LM Studio, vLLM), then the
 * evaluation (interviews, diffusion, relationships, coordination, cost) and a report
 * (report.html, results.csv, results.json). Re-running the same command resumes: finished
 * cells and evaluations are skipped, unfinished runs continue from their last checkpoint.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { loadEmbedder, loadLocalModel, loadServerModel } from '../models';
import type { Embedder, LanguageModel } from '../../models/types';
import { runExperiment, type ExperimentPlan } from '../../engine/eval/experiment';
import { readEvaluationFile, resolveDesign, PRESETS } from '../../engine/eval/experimentConfig';
import { writeReport, num } from '../../engine/eval/report/writeReport';
import { tokensOf } from '../../engine/eval/report/summary';
import { DEFAULT_SNAPSHOT_EVERY_STEPS } from '../../engine/sim/Simulation';
import { parseCommandArgs } from '../args';
import { EXIT_OK, UsageError, type CliCommand } from '../command';
import { printWarnings, reportFailure } from '../report';
import { loadScenarioSource } from '../source';
import { formatDuration, hoursToSteps, parseHours } from './run';

const usage = `Usage: simulacra experiment <pack.simpack|folder> --conditions <file.json|preset,preset…> --out <dir>
         (--model <file.gguf> | --model-url <base url> --model-name <name> [--api-key <key>])
         --embed <onnx-folder> [--seeds N] [--hours H | --steps N] [--eval <file.json>]

Runs every condition with N seeds (the scenario's seed, +1, +2, …) for H game hours (default 1),
each cell an ordinary run directory under <dir>/cells/<condition>/seed-<n>/, then evaluates
every cell on copies of its checkpoints (interview battery, information diffusion checked
against memory, relationship density at start and end, coordination from the event log, cost
per agent per game day by cognitive function) and writes <dir>/report.html, results.csv and
results.json. Running the same command again resumes where it stopped.

--conditions: a JSON file ({"baseline", "conditions": [{"name", "ablation", "costLayer",
"guards", "model"}], "evaluation": {"facts", "places", "battery", "interviewAgents",
"diffusionPoints"}}) or presets: ${Object.keys(PRESETS).join(', ')}. The first is the baseline
unless the file says. "guards" switches small-model guards off ({"echoGuard": false, …}; all on
when absent); the paper-exact preset turns them all off (README: Small-model guards).
--eval <file.json>: evaluation settings (the "evaluation" object), replacing the file's.
Model: --model <file.gguf> runs in this process (node-llama-cpp). Or a model on a server:
--model-url <base url>       an OpenAI-compatible API root, e.g. http://127.0.0.1:8080/v1
                             (llama-server, Ollama, LM Studio, vLLM; the kind is detected)
--model-name <name>          the model as the server lists it in /v1/models
--api-key <key>              sent as "Authorization: Bearer <key>" (hosted APIs)
A condition's own "model" (a GGUF file) still runs in this process.
Options: --threads N (default 1), --context N (tokens per sequence; on a server, the fallback
when it does not report its context), --sequences N (sequences in parallel; on a server,
requests in flight, default its slots), --snapshot-every N (steps, default
${DEFAULT_SNAPSHOT_EVERY_STEPS}), --ban-incomplete-utf8 (generated test models).`;

interface ServerFlags {
  baseUrl: string;
  model: string;
  apiKey?: string;
}

/** `--model-url`, `--model-name`, `--api-key`, checked as `simulacra run` checks them. */
function serverFlags(values: {
  model?: string;
  'model-url'?: string;
  'model-name'?: string;
  'api-key'?: string;
}): ServerFlags | null {
  const url = values['model-url'];
  if (url === undefined) {
    if (values['model-name'] !== undefined || values['api-key'] !== undefined) {
      throw new UsageError('--model-name and --api-key go with --model-url');
    }
    return null;
  }
  if (values.model !== undefined) throw new UsageError('give --model or --model-url, not both');
  if (!/^https?:\/\/[^\s/?#]+/.test(url)) {
    throw new UsageError(
      `--model-url expects an http:// or https:// address (e.g. http://127.0.0.1:8080/v1); got "${url}"`,
    );
  }
  if (!values['model-name']) throw new UsageError('--model-url needs --model-name <name>');
  return {
    baseUrl: url,
    model: values['model-name'],
    ...(values['api-key'] ? { apiKey: values['api-key'] } : {}),
  };
}

/** How the plan names the server's model: `<model>@<base url>` (never a key). */
function serverModelKey(server: ServerFlags): string {
  return `${server.model}@${server.baseUrl}`;
}

function positiveInt(value: string | undefined, flag: string): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new UsageError(`${flag} expects a positive integer`);
  return n;
}

export const experimentCommand: CliCommand = {
  name: 'experiment',
  summary: 'run seeds × conditions, evaluate them and write a report',
  usage,
  async run(args, io) {
    const { values, positionals, help } = parseCommandArgs(
      args,
      {
        conditions: { type: 'string' },
        out: { type: 'string' },
        model: { type: 'string' },
        'model-url': { type: 'string' },
        'model-name': { type: 'string' },
        'api-key': { type: 'string' },
        embed: { type: 'string' },
        embedder: { type: 'string' },
        seeds: { type: 'string' },
        hours: { type: 'string' },
        steps: { type: 'string' },
        eval: { type: 'string' },
        threads: { type: 'string' },
        context: { type: 'string' },
        sequences: { type: 'string' },
        'snapshot-every': { type: 'string' },
        'ban-incomplete-utf8': { type: 'boolean' },
      },
      { min: 1, max: 1, names: 'one pack or scenario folder' },
    );
    if (help) {
      io.out(usage);
      return EXIT_OK;
    }
    if (!values.conditions) throw new UsageError('--conditions <file.json|presets> is required');
    if (!values.out) throw new UsageError('--out <dir> is required');
    if (values.embed !== undefined && values.embedder !== undefined) {
      throw new UsageError('give --embed or --embedder (its alias), not both');
    }
    const embedFolder = values.embed ?? values.embedder;
    if (!embedFolder) throw new UsageError('--embed <onnx-folder> is required');
    if (values.hours !== undefined && values.steps !== undefined) {
      throw new UsageError('give --hours or --steps, not both');
    }
    const hours = values.hours !== undefined ? parseHours(values.hours) : 1;
    const fixedSteps = positiveInt(values.steps, '--steps');
    const seedCount = positiveInt(values.seeds, '--seeds') ?? 1;
    const threads = positiveInt(values.threads, '--threads') ?? 1;
    const contextSize = positiveInt(values.context, '--context');
    const sequences = positiveInt(values.sequences, '--sequences');
    const snapshotEvery = positiveInt(values['snapshot-every'], '--snapshot-every');
    const server = serverFlags(values);
    // What a condition without its own model runs on: a file, or the server's model by one
    // string that the plan records, so resuming on another model or server is refused.
    const defaultModel = server ? serverModelKey(server) : values.model;

    const subject = positionals[0];
    const started = Date.now();
    const models = new Map<string, Promise<LanguageModel>>();
    let embedder: Embedder | null = null;
    try {
      const design = resolveDesign(values.conditions);
      if (values.eval) design.evaluation = readEvaluationFile(values.eval);
      if (!defaultModel && design.conditions.some((c) => !c.model)) {
        throw new UsageError(
          '--model <file.gguf> or --model-url <base url> is required (some conditions name no model)',
        );
      }
      // Before anything is written: every model file must exist.
      for (const c of design.conditions) {
        if (!c.model && server) continue;
        const file = c.model ?? values.model!;
        if (!existsSync(file)) {
          throw new Error(
            `${file}: no such model file (${c.model ? `condition "${c.name}"` : '--model'})`,
          );
        }
      }
      // Every condition names its model in the plan, so resuming with another --model (or
      // server) is refused instead of mixing models within one condition.
      design.conditions = design.conditions.map((c) => ({
        ...c,
        model: c.model
          ? path.resolve(c.model)
          : server
            ? defaultModel!
            : path.resolve(values.model!),
      }));
      const { scenario, warnings } = await loadScenarioSource(subject);
      printWarnings(warnings, io);
      const base = scenario.settings.seed;
      const seeds = Array.from({ length: seedCount }, (_, i) => (base + i) % 2 ** 32);
      const plan: ExperimentPlan = {
        scenario,
        conditions: design.conditions,
        baseline: design.baseline,
        seeds,
        steps: fixedSteps ?? hoursToSteps(hours, scenario.settings.secondsPerStep),
        snapshotEverySteps: snapshotEvery ?? DEFAULT_SNAPSHOT_EVERY_STEPS,
        evaluation: design.evaluation,
      };
      io.err(
        `experiment: ${design.conditions.length} condition(s) × ${seeds.length} seed(s), ` +
          `${plan.steps} steps each, into ${values.out}`,
      );
      embedder = await loadEmbedder({ modelFolder: embedFolder, threads });
      const load = (ref: string | undefined): Promise<LanguageModel> => {
        const onServer = server !== null && (ref ?? defaultModel) === defaultModel;
        const key = onServer ? defaultModel! : path.resolve(ref ?? values.model!);
        let model = models.get(key);
        if (!model) {
          model = onServer
            ? loadServerModel({
                ...server,
                contextTokens: contextSize ?? null,
                parallel: sequences ?? null,
              })
            : loadLocalModel({
                modelPath: key,
                threads,
                ...(contextSize ? { contextSize } : {}),
                ...(sequences ? { sequences } : {}),
                banIncompleteUtf8: values['ban-incomplete-utf8'] === true,
              });
          models.set(key, model);
        }
        return model;
      };
      // Before anything is written: the server must answer, as a model file must exist.
      if (server && design.conditions.some((c) => c.model === defaultModel)) await load(undefined);
      const result = await runExperiment(plan, values.out, load, embedder, (line) => io.err(line));
      const report = writeReport(result, values.out);
      io.out(`report: ${report.html}`);
      io.out(`results: ${report.csv}, ${report.json}`);
      for (const c of report.summary.conditions) {
        io.out(
          `${c.name}${c.isBaseline ? ' (baseline)' : ''}: ${num(tokensOf(c.perAgentDay.total))} tokens ` +
            `and ${num(c.perAgentDay.total.calls)} calls per agent per game day` +
            `${c.ratio === null ? '' : `, ${c.ratio.toFixed(2)}× the baseline`}; density ` +
            `${c.density.start.toFixed(2)} → ${c.density.end.toFixed(2)}` +
            `${c.conditionsRecorded ? '' : ' (condition not applied by this engine)'}`,
        );
      }
      io.out(`wall time: ${formatDuration((Date.now() - started) / 1000)}`);
      return EXIT_OK;
    } catch (err) {
      if (err instanceof UsageError) throw err;
      return reportFailure(err, io, 'experiment', subject);
    } finally {
      for (const m of models.values()) await (await m.catch(() => null))?.dispose();
      await embedder?.dispose();
    }
  },
};
