/**
 * `simulacra run`: runs a scenario headless on local models (node-llama-cpp + transformers.js)
 * or on an OpenAI-compatible server, writing the run directory (NDJSON event log, checkpoints);
 * or resumes a crashed run, forks a run from one of its snapshots, or replays a recorded run
 * exactly from its log. Progress goes to stderr, the summary to stdout.
 */
import { CostLedger, withLedger } from '../../models/ledger';
import { loadEmbedder, loadLocalModel, loadServerModel } from '../models';
import type { Embedder, LanguageModel } from '../../models/types';
import { existsSync } from 'node:fs';
import path from 'node:path';
import {
  ABLATIONS,
  COST_LAYER_ON,
  costLayerSchema,
  runConditionsSchema,
  type Ablation,
  type CostLayer,
  type RunConditions,
} from '../../../common/runs/conditions';
import {
  ALL_GUARDS_ON,
  applyGuardsSpec,
  describeGuards,
  GUARDS,
  type Guards,
} from '../../../common/runs/guards';
import { checkRunnable } from '../../../common/scenario/runnable';
import { attributeIssues, ScenarioFilesError } from '../../../common/scenario/split';
import type { Scenario } from '../../../common/scenario/schema';
import { FilePolicyStore } from '../../engine/agent/policyStore';
import { readRunInfo, Simulation } from '../../engine/sim/Simulation';
import { acquireLock, releaseLock, restoreLock } from '../../runs/runFolder';
import { parseCommandArgs } from '../args';
import { EXIT_OK, UsageError, type CliCommand, type CliIO } from '../command';
import { printWarnings, reportFailure } from '../report';
import { loadScenarioSource } from '../source';

const usage = `Usage: simulacra run <pack.simpack|folder> --out <run-dir> --model <file.gguf> --embed <onnx-folder> [--hours N]
       simulacra run --resume <run-dir> --model <file.gguf> --embed <onnx-folder> [--hours N]
       simulacra run --fork <run-dir> --at <snapshot-step> --out <new-run-dir> --model … --embed … [--hours N]
       simulacra run --replay <run-dir> --out <new-run-dir> --embed <onnx-folder>

Runs the scenario for N game hours (default 1; fractions allowed, e.g. 0.25; converted to steps
with the scenario's secondsPerStep) and writes the run directory: events.ndjson (every step and
model call) and snapshots/. --resume continues a run from its last snapshot; --fork starts a new
run from a snapshot of another; --replay re-executes a recorded run from its log without a
language model. Only one process continues a run: --resume takes the run's live.lock and is
refused while another living process (the studio, another simulacra) holds it.
Re-running the logged steps after the snapshot is exact; steps past the end of the log are new,
and on llama.cpp may differ from an uninterrupted run (the model's cache state differs).
Model: --model <file.gguf>, or an OpenAI-compatible server with --model-url <base url>
--model-name <name> [--api-key <key>].
Options: --steps N (instead of --hours), --threads N (inference threads, default 1),
--context N (tokens per sequence), --snapshot-every N (steps, default 60),
--ban-incomplete-utf8 (for the generated random-weight test models, which emit broken UTF-8).
--embedder is an alias of --embed.
Conditions of a new run (stored in run.json; resume and replay keep the run's own, a fork
keeps its parent's except those given):
--cost-layer on|off|<parts>  the Affordable Generative Agents cost layer; parts: lifestyle,
                             social, wandering, comma-separated (default: scenario settings)
--policy-similarity X        cosine at which a stored plan is reused (0.5–1; default: the
                             value calibrated for the embedder on the repo's labelled
                             pairs, 0.863 for the test models' all-MiniLM-L6-v2; AGA's
                             0.97 was set for OpenAI's ada-002)
--ablation <name>            full (default), no-reflection, no-reflection-planning,
                             no-observation-reflection-planning: Park et al. §6 — the agents
                             live with the whole architecture and interviews may draw only on
                             the memory types left (observations, reflections, plans)
--behaviour-ablation <name>  the same names, but the run itself lacks those parts (no
                             reflections made, no plans, no observations stored)
--guards <words>             the small-model guards (all on by default): paper-exact (all
                             off: the papers' mechanisms as written), on, <name> or
                             no-<name>, comma-separated, applied left to right; names:
                             ${GUARDS.map((g) => g.cli).join(', ')}
                             (e.g. --guards no-echo,no-dry; see the README's guard table)
--policies <folder>          lifestyle policies kept across runs, one file per persona
                             (default: a "policies" folder beside the run directory)`;

/** `--cost-layer` part names → cost layer switches. */
const COST_LAYER_PARTS = {
  lifestyle: 'lifestylePolicy',
  social: 'socialMemory',
  wandering: 'mindWandering',
} as const;

/**
 * The run conditions of `--cost-layer`, `--policy-similarity`, `--ablation` and
 * `--behaviour-ablation`. Without
 * `--cost-layer` the scenario's own switches apply (`settings.costLayer`), else none (baseline).
 */
export function parseConditions(
  flags: {
    costLayer?: string;
    policySimilarity?: string;
    ablation?: string;
    behaviourAblation?: string;
    guards?: string;
  },
  scenarioSwitches?: Pick<CostLayer, 'lifestylePolicy' | 'socialMemory' | 'mindWandering'>,
): RunConditions {
  let costLayer: Partial<CostLayer> = flags.costLayer === undefined ? { ...scenarioSwitches } : {};
  const spec = flags.costLayer?.trim().toLowerCase();
  if (spec === 'on') costLayer = { ...COST_LAYER_ON };
  else if (spec !== undefined && spec !== 'off') {
    for (const part of spec.split(',').map((p) => p.trim())) {
      if (!(part in COST_LAYER_PARTS)) {
        throw new UsageError(
          `--cost-layer expects on, off or parts from ${Object.keys(COST_LAYER_PARTS).join(', ')}; got "${part}"`,
        );
      }
      costLayer[COST_LAYER_PARTS[part as keyof typeof COST_LAYER_PARTS]] = true;
    }
  }
  if (flags.policySimilarity !== undefined) {
    const x = Number(flags.policySimilarity);
    if (flags.policySimilarity.trim() === '' || !Number.isFinite(x) || x < 0.5 || x > 1) {
      throw new UsageError('--policy-similarity expects a number from 0.5 to 1 (e.g. 0.97)');
    }
    costLayer.policySimilarity = x;
  }
  const ablationOf = (flag: string, value: string | undefined): Ablation => {
    const name = value ?? 'full';
    if (!(ABLATIONS as readonly string[]).includes(name)) {
      throw new UsageError(`${flag} expects one of ${ABLATIONS.join(', ')}; got "${name}"`);
    }
    return name as Ablation;
  };
  return runConditionsSchema.parse({
    ablation: ablationOf('--ablation', flags.ablation),
    behaviourAblation: ablationOf('--behaviour-ablation', flags.behaviourAblation),
    costLayer: costLayerSchema.parse(costLayer),
    guards: guardsOf(flags.guards, ALL_GUARDS_ON),
  });
}

/** `--guards` applied to `start` (all on for a new run, the parent's for a fork). */
function guardsOf(spec: string | undefined, start: Guards): Guards {
  if (spec === undefined) return start;
  try {
    return applyGuardsSpec(start, spec);
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}

/**
 * A fork's conditions: the parent's, with what the flags name replaced (`--cost-layer off` on
 * a fork continues the same snapshot without the cost layer; `--policy-similarity` alone
 * changes only the threshold).
 */
export function forkConditions(
  parent: RunConditions,
  flags: Parameters<typeof parseConditions>[0],
): RunConditions {
  const given = parseConditions(flags, parent.costLayer);
  return {
    costLayer: {
      ...given.costLayer,
      policySimilarity:
        flags.policySimilarity === undefined
          ? parent.costLayer.policySimilarity
          : given.costLayer.policySimilarity,
      // The parent's settings for its embedder, fixed when it started (no flag sets eps).
      wanderEpsilon: parent.costLayer.wanderEpsilon,
    },
    ablation: flags.ablation === undefined ? parent.ablation : given.ablation,
    behaviourAblation:
      flags.behaviourAblation === undefined ? parent.behaviourAblation : given.behaviourAblation,
    guards: guardsOf(flags.guards, parent.guards),
  };
}

/** Default length of a run: one game hour. */
const DEFAULT_HOURS = 1;

function positiveInt(value: string | undefined, flag: string): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new UsageError(`${flag} expects a positive integer`);
  return n;
}

/** Parses `--hours`: a positive number, fractions allowed. */
export function parseHours(value: string): number {
  const n = Number(value);
  if (value.trim() === '' || !Number.isFinite(n) || n <= 0) {
    throw new UsageError('--hours expects a positive number of game hours (e.g. 0.25)');
  }
  return n;
}

/** Steps covering `hours` of game time at `secondsPerStep` (rounded, at least one). */
export function hoursToSteps(hours: number, secondsPerStep: number): number {
  return Math.max(1, Math.round((hours * 3600) / secondsPerStep));
}

/** `1h 05m`, `12m 30s`, `45s`. */
export function formatDuration(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const sec = s % 60;
  if (h > 0) return `${h}h ${String(m).padStart(2, '0')}m`;
  if (m > 0) return `${m}m ${String(sec).padStart(2, '0')}s`;
  return `${sec}s`;
}

/** Progress on stderr: redrawn with \r on a terminal, else one line every ~10%. */
class Progress {
  private readonly started = Date.now();
  private lastDecile = 0;
  private readonly tty = process.stderr.isTTY === true && !process.env.VITEST;

  constructor(
    private readonly io: CliIO,
    private readonly total: number,
    private readonly ledger: CostLedger,
  ) {}

  update(done: number, clockLabel: string): void {
    const elapsed = (Date.now() - this.started) / 1000;
    const rate = elapsed > 0 ? done / elapsed : 0;
    const tokens = this.ledger.totals.completionTokens;
    const eta = rate > 0 ? formatDuration((this.total - done) / rate) : '?';
    const line =
      `step ${done}/${this.total} ${clockLabel} | ${rate.toFixed(2)} steps/s | ` +
      `${elapsed > 0 ? (tokens / elapsed).toFixed(1) : '0.0'} tok/s | ETA ${eta}`;
    if (this.tty) {
      process.stderr.write(`\r${line}\u001b[K`);
      if (done >= this.total) process.stderr.write('\n');
      return;
    }
    const decile = Math.floor((done * 10) / this.total);
    if (decile > this.lastDecile || done >= this.total) {
      this.lastDecile = decile;
      this.io.err(line);
    }
  }
}

export const runCommand: CliCommand = {
  name: 'run',
  summary: 'run a scenario headless (or resume / fork / replay a run)',
  usage,
  async run(args, io) {
    const { values, positionals, help } = parseCommandArgs(
      args,
      {
        out: { type: 'string' },
        model: { type: 'string' },
        'model-url': { type: 'string' },
        'model-name': { type: 'string' },
        'api-key': { type: 'string' },
        embed: { type: 'string' },
        embedder: { type: 'string' },
        hours: { type: 'string' },
        steps: { type: 'string' },
        threads: { type: 'string' },
        context: { type: 'string' },
        'snapshot-every': { type: 'string' },
        resume: { type: 'string' },
        fork: { type: 'string' },
        at: { type: 'string' },
        replay: { type: 'string' },
        'ban-incomplete-utf8': { type: 'boolean' },
        'cost-layer': { type: 'string' },
        'policy-similarity': { type: 'string' },
        ablation: { type: 'string' },
        'behaviour-ablation': { type: 'string' },
        guards: { type: 'string' },
        policies: { type: 'string' },
      },
      { min: 0, max: 1, names: 'at most one pack or folder' },
    );
    if (help) {
      io.out(usage);
      return EXIT_OK;
    }
    // What to run: exactly one source.
    const sources = [
      positionals.length > 0 ? 'a pack or folder' : null,
      values.resume !== undefined ? '--resume' : null,
      values.fork !== undefined ? '--fork' : null,
      values.replay !== undefined ? '--replay' : null,
    ].filter((s) => s !== null);
    if (sources.length === 0) {
      throw new UsageError('name a pack or folder to run, or --resume, --fork or --replay');
    }
    if (sources.length > 1) throw new UsageError(`give only one of ${sources.join(', ')}`);
    const mode =
      values.replay !== undefined
        ? 'replay'
        : values.resume !== undefined
          ? 'resume'
          : values.fork !== undefined
            ? 'fork'
            : 'new';

    if (values.hours !== undefined && values.steps !== undefined) {
      throw new UsageError('give --hours or --steps, not both');
    }
    const hours = values.hours !== undefined ? parseHours(values.hours) : undefined;
    const fixedSteps = positiveInt(values.steps, '--steps');
    const threads = positiveInt(values.threads, '--threads') ?? 1;
    const contextSize = positiveInt(values.context, '--context');
    const snapshotEvery = positiveInt(values['snapshot-every'], '--snapshot-every');
    if (values.embed !== undefined && values.embedder !== undefined) {
      throw new UsageError('give --embed or --embedder (its alias), not both');
    }
    const embedFolder = values.embed ?? values.embedder;
    if (!embedFolder) throw new UsageError('--embed <onnx-folder> is required');
    if (mode !== 'resume' && !values.out) throw new UsageError('--out <run-dir> is required');
    if (mode === 'resume' && values.out) {
      throw new UsageError('--resume continues the run in its own directory; drop --out');
    }
    let at: number | undefined;
    if (mode === 'fork') {
      if (values.at === undefined) throw new UsageError('--fork needs --at <snapshot-step>');
      at = Number(values.at);
      if (!/^\d+$/.test(values.at) || !Number.isSafeInteger(at)) {
        throw new UsageError('--at expects a snapshot step (e.g. 120 or 000120)');
      }
    } else if (values.at !== undefined) {
      throw new UsageError('--at only goes with --fork');
    }
    const conditionFlags = [
      'cost-layer',
      'policy-similarity',
      'ablation',
      'behaviour-ablation',
      'guards',
    ] as const;
    const given = conditionFlags.filter((f) => values[f] !== undefined).map((f) => `--${f}`);
    if (mode !== 'new' && mode !== 'fork' && given.length > 0) {
      throw new UsageError(
        `${given.join(', ')} set up a new run or a fork; --${mode} keeps the conditions in the run's run.json`,
      );
    }
    const conditionFlagValues = {
      costLayer: values['cost-layer'],
      policySimilarity: values['policy-similarity'],
      ablation: values.ablation,
      behaviourAblation: values['behaviour-ablation'],
      guards: values.guards,
    };
    parseConditions(conditionFlagValues); // flag errors before any model loads
    if (mode === 'replay' && values.policies !== undefined) {
      throw new UsageError(
        '--replay starts from the policies the run started with; drop --policies',
      );
    }
    // Cross-run lifestyle policies: beside the run directory unless given.
    const runDir = values.out ?? values.resume;
    const policyStore =
      runDir !== undefined
        ? new FilePolicyStore(
            values.policies ?? path.join(path.dirname(path.resolve(runDir)), 'policies'),
          )
        : undefined;
    const remote = values['model-url'] !== undefined;
    if (mode === 'replay') {
      if (values.model || remote) {
        throw new UsageError('--replay answers every call from the log; drop the model');
      }
    } else {
      if (values.model && remote) throw new UsageError('give --model or --model-url, not both');
      if (!values.model && !remote) {
        throw new UsageError('--model <file.gguf> or --model-url <base url> is required');
      }
      if (remote && !values['model-name']) {
        throw new UsageError('--model-url needs --model-name <name>');
      }
    }
    if (!remote && (values['model-name'] !== undefined || values['api-key'] !== undefined)) {
      throw new UsageError('--model-name and --api-key go with --model-url');
    }

    const subject = positionals[0] ?? values.resume ?? values.fork ?? values.replay;
    let model: LanguageModel | null = null;
    let embedder: Embedder | null = null;
    const started = Date.now();
    /** The resumed run's folder and the stale lock taken over ('' for none), while held. */
    let lock: { dir: string; stale: string; resumed: boolean } | null = null;
    try {
      // Refusals that need no model come first: a run live in another process, a town that
      // cannot run. (A damaged run is refused by the resume, before it writes anything.)
      let scenario: Scenario | null = null;
      if (mode === 'resume') {
        const dir = values.resume!;
        if (!existsSync(path.join(dir, 'run.json'))) {
          throw new Error(`${dir}: no run here (expected a run folder holding run.json)`);
        }
        lock = { dir, stale: acquireLock(dir, process.pid), resumed: false };
      } else if (mode === 'new') {
        const loaded = await loadScenarioSource(positionals[0]);
        printWarnings(loaded.warnings, io);
        const blockers = checkRunnable(loaded.scenario);
        if (blockers.length > 0) {
          throw new ScenarioFilesError(attributeIssues(blockers), positionals[0]);
        }
        scenario = loaded.scenario;
      }
      embedder = await loadEmbedder({ modelFolder: embedFolder, threads });
      if (mode === 'replay') {
        const sim = await Simulation.replay(values.replay!, values.out!, embedder);
        io.out(`replayed ${sim.step} steps of ${values.replay} into ${values.out}`);
        io.out(`wall time: ${formatDuration((Date.now() - started) / 1000)}`);
        return EXIT_OK;
      }
      const ledger = new CostLedger();
      if (remote) {
        model = await loadServerModel({
          baseUrl: values['model-url']!,
          model: values['model-name']!,
          ...(values['api-key'] ? { apiKey: values['api-key'] } : {}),
        });
      } else {
        model = await loadLocalModel({
          modelPath: values.model!,
          threads,
          ...(contextSize ? { contextSize } : {}),
          banIncompleteUtf8: values['ban-incomplete-utf8'] === true,
        });
      }
      const deps = { model: withLedger(model, ledger), embedder, policyStore };
      let sim: Simulation;
      if (mode === 'resume') {
        sim = Simulation.resume(values.resume!, deps);
        lock!.resumed = true;
        io.err(`resumed ${values.resume} at step ${sim.step}`);
      } else if (mode === 'fork') {
        const parent = readRunInfo(values.fork!).conditions;
        sim = Simulation.fork(values.fork!, at!, values.out!, deps, {
          conditions: forkConditions(parent, conditionFlagValues),
        });
        io.err(`forked ${values.fork} at step ${at} into ${values.out}`);
      } else {
        sim = await Simulation.create(scenario!, values.out!, deps, {
          ...(snapshotEvery ? { snapshotEverySteps: snapshotEvery } : {}),
          conditions: parseConditions(conditionFlagValues, scenario!.settings.costLayer),
        });
      }
      const secondsPerStep = sim.scenario.settings.secondsPerStep;
      const steps = fixedSteps ?? hoursToSteps(hours ?? DEFAULT_HOURS, secondsPerStep);
      const firstStep = sim.step;
      const startTime = sim.gameTime;

      // Ctrl-C: finish the steps in progress, checkpoint, print the summary.
      const onSignal = () => {
        io.err('stopping after this step (Ctrl-C again to abort)');
        sim.pause();
        process.off('SIGINT', onSignal);
      };
      process.on('SIGINT', onSignal);
      const progress = new Progress(io, steps, ledger);
      let done = 0;
      try {
        // One run of all the steps, so agents out of each other's reach need not wait for each
        // other at every step (sim/scheduler.ts); progress follows the steps as they are written.
        await sim.run(steps, () => {
          done++;
          progress.update(done, sim.clock.label(sim.gameTime));
        });
      } finally {
        process.off('SIGINT', onSignal);
      }
      // A snapshot of the last step; steps of the log a resume did not re-run stay in the log.
      sim.close();

      const totals = ledger.totals;
      io.out(`run: ${sim.runDir} (${sim.scenario.name})`);
      io.out(`conditions: ${describeConditions(sim.info.conditions)}`);
      if (sim.info.calibration) io.out(`similarity: ${sim.info.calibration.note}`);
      io.out(
        `steps: ${firstStep} → ${sim.step} (${sim.step - firstStep} run), game time ` +
          `${sim.clock.label(startTime)} → ${sim.clock.label(sim.gameTime)} ` +
          `(${formatDuration(sim.gameTime - startTime)})`,
      );
      io.out(
        `model calls: ${totals.calls}${totals.failures ? ` (${totals.failures} failed)` : ''}, ` +
          `${totals.promptTokens} prompt (${totals.cachedTokens} cached) + ` +
          `${totals.completionTokens} completion tokens`,
      );
      for (const [fn, row] of Object.entries(ledger.byFunction())) {
        io.out(
          `  ${fn}: ${row.calls} calls, ${row.promptTokens} prompt (${row.cachedTokens} cached) + ${row.completionTokens} completion tokens`,
        );
      }
      io.out(`wall time: ${formatDuration((Date.now() - started) / 1000)}`);
      return EXIT_OK;
    } catch (err) {
      return reportFailure(err, io, 'run', subject);
    } finally {
      await model?.dispose();
      await embedder?.dispose();
      // A resume that never started puts back the stale lock it took over (the run still shows
      // as crashed in the studio); one that ran leaves the run unlocked.
      if (lock) {
        if (lock.resumed) releaseLock(lock.dir, process.pid);
        else restoreLock(lock.dir, lock.stale);
      }
    }
  },
};

/**
 * One line for the summary: "ablation full; cost layer: lifestyle (0.863), social", with
 * "; behaviour ablation <name>" after the ablation when one is set, and the guards last
 * ("; all guards on", "; paper-exact (no guards)", "; guards off: echo").
 */
export function describeConditions(c: RunConditions): string {
  const parts = [
    c.costLayer.lifestylePolicy
      ? `lifestyle (${c.costLayer.policySimilarity ?? "the embedder's threshold"})`
      : null,
    c.costLayer.socialMemory ? 'social' : null,
    c.costLayer.mindWandering ? 'wandering' : null,
  ].filter((p) => p !== null);
  const behaviour =
    c.behaviourAblation === 'full' ? '' : `; behaviour ablation ${c.behaviourAblation}`;
  const costLayer = parts.length ? parts.join(', ') : 'off';
  return `ablation ${c.ablation}${behaviour}; cost layer: ${costLayer}; ${describeGuards(c.guards)}`;
}
