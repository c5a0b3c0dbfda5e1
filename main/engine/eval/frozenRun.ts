/**
 * A run frozen at one of its checkpoints, loaded into memory for questioning. Evaluation must not
 * disturb the run it measures (issue #7): nothing here writes to the run directory, the agents
 * are private copies rebuilt from the snapshot, and interviews use the engine's own
 * `interview()` with `rememberIt = false` (no memory, no access-time change). Every model call
 * is handed to `onCall` so the evaluation's own cost can be logged apart from the run's.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import {
  runConditionsSchema,
  storedRunConditions,
  type RunConditions,
} from '../../../common/runs/conditions';
import type { Scenario } from '../../../common/scenario/schema';
import type {
  CompletionRequest,
  CompletionResult,
  Embedder,
  LanguageModel,
} from '../../models/types';
import { Agent } from '../agent/Agent';
import { interview } from '../agent/interview';
import { ask, type Mind } from '../agent/mind';
import type { PromptSpec } from '../prompts/PromptSpec';
import { listCheckpoints, readCheckpoint } from '../sim/checkpoint';
import { Clock } from '../sim/Clock';
import { TileWorld } from '../world/TileWorld';

/** One evaluation model call, for the evaluation log. */
export interface EvalCall {
  step: number;
  fn: string;
  agentId?: string;
  usage: CompletionResult['usage'];
  ms: number;
  output: string;
}

/** Reads a run directory's scenario.json, with a clear error when it is not a run. */
export function readRunScenario(runDir: string): Scenario {
  const file = path.join(runDir, 'scenario.json');
  if (!existsSync(file)) throw new Error(`${runDir} is not a run directory (no scenario.json)`);
  return JSON.parse(readFileSync(file, 'utf8')) as Scenario;
}

/**
 * The conditions stored in a run's run.json (ablation, cost layer); a run without them ran the
 * baseline. Interviews use them so a frozen agent thinks as it did in its run.
 */
export function readRunConditions(runDir: string): RunConditions {
  const file = path.join(runDir, 'run.json');
  if (!existsSync(file)) throw new Error(`${runDir} is not a run directory (no run.json)`);
  const info = JSON.parse(readFileSync(file, 'utf8')) as { conditions?: unknown };
  const parsed = runConditionsSchema.safeParse(storedRunConditions(info.conditions ?? {}));
  if (!parsed.success) {
    throw new Error(
      `${file}: conditions: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`,
    );
  }
  return parsed.data;
}

/** A checkpoint of a run, loaded as an in-memory copy. */
export class FrozenRun {
  private constructor(
    readonly runDir: string,
    readonly step: number,
    readonly scenario: Scenario,
    readonly clock: Clock,
    readonly world: TileWorld,
    readonly agents: Agent[],
    readonly conditions: RunConditions,
    private readonly model: LanguageModel,
    private readonly embedder: Embedder,
  ) {}

  /**
   * Loads the checkpoint taken after `step` steps.
   * @throws Error naming the run and the step when there is no such checkpoint.
   */
  static load(
    runDir: string,
    step: number,
    deps: { model: LanguageModel; embedder: Embedder },
    onCall: (call: EvalCall) => void = () => {},
  ): FrozenRun {
    const steps = listCheckpoints(runDir);
    if (!steps.includes(step)) {
      throw new Error(
        `${runDir} has no checkpoint at step ${step} (it has: ${steps.join(', ') || 'none'})`,
      );
    }
    const scenario = readRunScenario(runDir);
    const conditions = readRunConditions(runDir);
    const { state, embeddings } = readCheckpoint(runDir, step);
    const world = TileWorld.fromSnapshot(scenario, state.world);
    const agents = state.agents.map((a, i) => Agent.fromSnapshot(a, embeddings[i]));
    const clock = new Clock(scenario.settings.startTime, scenario.settings.secondsPerStep);
    const inner = deps.model;
    const logging: LanguageModel = {
      id: inner.id,
      tokenizer: inner.tokenizer,
      async complete<T>(request: CompletionRequest<T>) {
        const result = await inner.complete(request);
        onCall({
          step,
          fn: request.fn,
          ...(request.agentId !== undefined ? { agentId: request.agentId } : {}),
          usage: { ...result.usage },
          ms: result.ms,
          output: result.text,
        });
        return result;
      },
      dispose: async () => {},
    };
    return new FrozenRun(
      runDir,
      step,
      scenario,
      clock,
      world,
      agents,
      conditions,
      logging,
      deps.embedder,
    );
  }

  /** Game seconds since run start at this checkpoint. */
  get gameTime(): number {
    return this.clock.gameSecondsAt(this.step);
  }

  /** The agent with this id. */
  agent(id: string): Agent {
    const agent = this.agents.find((a) => a.id === id);
    if (!agent) throw new Error(`no agent "${id}" in ${this.runDir}`);
    return agent;
  }

  /** What cognition is given at this checkpoint. */
  mind(): Mind {
    return {
      model: this.model,
      embedder: this.embedder,
      clock: this.clock,
      now: this.gameTime,
      world: this.world,
      seed: this.scenario.settings.seed,
      reflectionThreshold: this.scenario.settings.reflectionThreshold,
      conditions: this.conditions,
    };
  }

  /** Asks a free-form interview question; the agent keeps no trace of it. */
  async interview(agentId: string, question: string): Promise<string> {
    const { answer } = await interview(this.agent(agentId), this.mind(), question, false);
    return answer;
  }

  /** Sends one structured prompt for an agent (the evaluation's own question modules). */
  ask<T>(agentId: string, spec: PromptSpec<T>): Promise<T> {
    return ask(this.mind(), this.agent(agentId), spec);
  }
}
