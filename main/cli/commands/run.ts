/**
 * `simulacra run`: runs a scenario headless on local models (node-llama-cpp + transformers.js),
 * writing the run directory (NDJSON event log, checkpoints); or resumes a crashed run; or
 * replays a recorded run exactly from its log.
 */
import { CostLedger, withLedger } from '../../models/ledger';
import { createLlamaLanguageModel } from '../../models/llama/llama-language-model';
import { createTransformersEmbedder } from '../../models/transformers/transformers-embedder';
import type { Embedder, LanguageModel } from '../../models/types';
import { Simulation } from '../../engine/sim/Simulation';
import { parseCommandArgs } from '../args';
import { EXIT_OK, UsageError, type CliCommand } from '../command';
import { printWarnings, reportFailure } from '../report';
import { loadScenarioSource } from '../source';

const usage = `Usage: simulacra run <pack.simpack|folder> --out <run-dir> --model <file.gguf> --embedder <onnx-folder> [--steps N]
       simulacra run --resume <run-dir> --model <file.gguf> --embedder <onnx-folder> [--steps N]
       simulacra run --replay <run-dir> --out <new-run-dir> --embedder <onnx-folder>

Runs the scenario for N steps (default 360) and writes the run directory: events.ndjson (every
step and model call) and snapshots/. --resume continues a run from its last snapshot; --replay
re-executes a recorded run from its log without a language model.
Options: --threads N (inference threads, default 1), --snapshot-every N (steps, default 60),
--ban-incomplete-utf8 (for the generated random-weight test models, which emit broken UTF-8).`;

function positiveInt(value: string | undefined, flag: string, fallback: number): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new UsageError(`${flag} expects a positive integer`);
  return n;
}

export const runCommand: CliCommand = {
  name: 'run',
  summary: 'run a scenario headless (or resume / replay a run) on local models',
  usage,
  async run(args, io) {
    const { values, positionals, help } = parseCommandArgs(
      args,
      {
        out: { type: 'string' },
        model: { type: 'string' },
        embedder: { type: 'string' },
        steps: { type: 'string' },
        threads: { type: 'string' },
        'snapshot-every': { type: 'string' },
        resume: { type: 'string' },
        replay: { type: 'string' },
        'ban-incomplete-utf8': { type: 'boolean' },
      },
      { min: 0, max: 1, names: 'at most one pack or folder' },
    );
    if (help) {
      io.out(usage);
      return EXIT_OK;
    }
    const steps = positiveInt(values.steps, '--steps', 360);
    const threads = positiveInt(values.threads, '--threads', 1);
    if (!values.embedder) throw new UsageError('--embedder <onnx-folder> is required');
    const needsModel = values.replay === undefined;
    if (needsModel && !values.model) throw new UsageError('--model <file.gguf> is required');
    if (values.replay === undefined && values.resume === undefined) {
      if (positionals.length !== 1) throw new UsageError('name one pack or folder to run');
      if (!values.out) throw new UsageError('--out <run-dir> is required');
    }
    if (values.replay !== undefined && !values.out) {
      throw new UsageError('--out <new-run-dir> is required with --replay');
    }

    let model: LanguageModel | null = null;
    let embedder: Embedder | null = null;
    try {
      embedder = await createTransformersEmbedder({ modelFolder: values.embedder, threads });
      if (values.replay !== undefined) {
        const sim = await Simulation.replay(values.replay, values.out!, embedder);
        io.out(`replayed ${sim.step} steps of ${values.replay} into ${values.out}`);
        return EXIT_OK;
      }
      const ledger = new CostLedger();
      const llama = await createLlamaLanguageModel({
        modelPath: values.model!,
        threads,
        banIncompleteUtf8: values['ban-incomplete-utf8'] === true,
      });
      model = llama;
      const deps = { model: withLedger(llama, ledger), embedder };
      let sim: Simulation;
      if (values.resume !== undefined) {
        sim = Simulation.resume(values.resume, deps);
        io.out(`resumed ${values.resume} at step ${sim.step}`);
      } else {
        const { scenario, warnings } = await loadScenarioSource(positionals[0]);
        printWarnings(warnings, io);
        sim = await Simulation.create(scenario, values.out!, deps, {
          snapshotEverySteps: positiveInt(values['snapshot-every'], '--snapshot-every', 60),
        });
      }
      await sim.run(steps);
      sim.checkpoint();
      io.out(`ran to step ${sim.step} (${sim.clock.label(sim.gameTime)}) in ${sim.runDir}`);
      for (const [fn, row] of Object.entries(ledger.byFunction())) {
        io.out(
          `  ${fn}: ${row.calls} calls, ${row.promptTokens} prompt (${row.cachedTokens} cached) + ${row.completionTokens} completion tokens`,
        );
      }
      return EXIT_OK;
    } catch (err) {
      return reportFailure(err, io, 'run', positionals[0] ?? values.resume ?? values.replay);
    } finally {
      await model?.dispose();
      await embedder?.dispose();
    }
  },
};
