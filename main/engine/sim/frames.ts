/**
 * Map frames for the run view (common/api/runs.ts `RunFrame`): where everyone stands and what
 * they are doing after some step, and the objects not in their default state.
 *
 * The live frame is read off the simulation. A past frame is rebuilt from the nearest
 * checkpoint at or before the step plus the log after it: step records (interventions, moves,
 * `looks` — the agents whose frame fields other than the position changed in the step — and
 * object changes) and changes applied between steps (their log lines carry their effect on the
 * frame). Step records store looks rather than re-deriving them from actions and chats so a
 * rebuilt frame equals the live one whatever cognition does (chats, waits, residents).
 */
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import type { AgentFrame, RunFrame } from '../../../common/api/runs';
import type { Scenario } from '../../../common/scenario/schema';
import {
  agentSnapshotSchema,
  isSleepAction,
  type CurrentAction,
  type ResidentInfo,
} from '../agent/Agent';
import { TileWorld, tileWorldSnapshotSchema } from '../world/TileWorld';
import type { Tile } from '../world/tile';
import { checkpointStateFile, listCheckpoints } from './checkpoint';
import { Clock } from './Clock';
import { logCache } from './logCache';
import {
  BETWEEN_STEP_TYPES,
  CHECKPOINT_LINE,
  LOG_FILE,
  readRunParent,
  readRunScenario,
} from './runFiles';
import type { AgentLook, LogEvent, StepRecord } from './types';

/** A frame as the engine produces it; the run service adds the run id. */
export type Frame = Omit<RunFrame, 'runId'>;

/** What a frame needs of an agent: a live {@link Agent} or an agent snapshot both fit. */
export interface FrameSource {
  id: string;
  identity: { name: string };
  tile: Tile;
  action: CurrentAction | null;
  resident?: ResidentInfo | null;
}

/** The sprite an agent is drawn with: the resident's choice, else its persona's. */
export function spriteOf(scenario: Scenario, agent: FrameSource): string {
  return agent.resident?.sprite ?? scenario.personas.find((p) => p.id === agent.id)?.sprite ?? '';
}

/** One agent's frame at game seconds `now`. */
export function agentFrame(agent: FrameSource, sprite: string, now: number): AgentFrame {
  const a = agent.action;
  return {
    id: agent.id,
    name: agent.identity.name,
    sprite,
    x: agent.tile.x,
    y: agent.tile.y,
    emoji: a?.emoji ?? '',
    action: a?.description ?? 'idle',
    address: a?.address ?? '',
    // A wait names the other agent too; only a chat still going on is "chatting".
    chattingWith: a && a.predicate === 'chat with' && a.endsAt > now ? a.withAgent : null,
    asleep: isSleepAction(a),
    resident: !!agent.resident,
  };
}

/** The frame fields of `frame` other than its position. */
export function lookOf(frame: AgentFrame): AgentLook {
  const { x: _x, y: _y, ...look } = frame;
  return look;
}

/** The looks in `after` that differ from (or are missing in) `before`, in `after`'s order. */
export function changedLooks(
  before: ReadonlyMap<string, AgentLook>,
  after: readonly AgentLook[],
): AgentLook[] {
  return after.filter((look) => {
    const old = before.get(look.id);
    return !old || (Object.keys(look) as (keyof AgentLook)[]).some((k) => old[k] !== look[k]);
  });
}

/** Object states that differ from the scenario's defaults, by address. */
export function objectsOf(world: TileWorld): Frame['objects'] {
  return Object.entries(world.toSnapshot().objectStates)
    .map(([address, state]) => ({ address, state }))
    .sort((a, b) => (a.address < b.address ? -1 : a.address > b.address ? 1 : 0));
}

/**
 * What a live frame is read from: a Simulation (sim/Simulation.ts) fits, named by what it
 * offers so this view does not import the simulation.
 */
export interface LiveTown {
  readonly scenario: Scenario;
  readonly agents: readonly FrameSource[];
  readonly world: TileWorld;
  readonly clock: Clock;
  /** Steps completed so far, and game seconds at the beginning of the next step. */
  readonly step: number;
  readonly gameTime: number;
}

/** Every agent's frame in a simulation at game seconds `now`, in agent order. */
export function agentFrames(sim: LiveTown, now = sim.gameTime): AgentFrame[] {
  return sim.agents.map((a) => agentFrame(a, spriteOf(sim.scenario, a), now));
}

/** The live frame: the simulation after `sim.step` steps. */
export function currentFrame(sim: LiveTown): Frame {
  const now = sim.gameTime;
  return {
    step: sim.step,
    gameTime: now,
    clock: sim.clock.label(now),
    agents: agentFrames(sim, now),
    objects: objectsOf(sim.world),
  };
}

/** Log lines a frame is rebuilt from. */
const FRAME_TYPES: ReadonlySet<string> = new Set(['step', CHECKPOINT_LINE, ...BETWEEN_STEP_TYPES]);

/**
 * The frame after `step` steps of the run in `runDir`, rebuilt from the nearest checkpoint at or
 * before it and the log. A fork's steps before its fork point come from its parent run. Throws
 * a RangeError for a step the run has not reached.
 */
export function frameAt(runDir: string, step: number): Frame {
  if (!Number.isInteger(step) || step < 0) {
    throw new RangeError(`expected a step ≥ 0, got ${step}`);
  }
  const checkpoint = listCheckpoints(runDir)
    .filter((s) => s <= step)
    .pop();
  if (checkpoint === undefined) {
    const parent = readRunParent(runDir);
    if (parent && step <= parent.step) return frameAt(parent.runDir, step);
    throw new RangeError(`${runDir} has no checkpoint at or before step ${step}`);
  }
  const { scenario, clock, world } = runOf(runDir);
  const base = checkpointFrame(runDir, checkpoint, scenario, clock);
  world.restoreSnapshot({ objectStates: base.objectStates });
  const agents = new Map(base.agents.map((a) => [a.id, a]));

  const events = logCache.read(path.join(runDir, LOG_FILE), FRAME_TYPES);
  // The snapshot holds everything logged before its marker (changes between steps included).
  const marker = events.findLastIndex((e) => e.type === CHECKPOINT_LINE && e.step === checkpoint);
  let reached = checkpoint;
  for (const e of events.slice(marker + 1)) {
    if (e.step < checkpoint) continue;
    if (e.type === 'step') {
      if (e.step >= step) break;
      applyStep(e as StepRecord, world, agents);
      reached = e.step + 1;
    } else if (BETWEEN_STEP_TYPES.has(e.type) && e.step <= step) {
      applyBetweenSteps(e, world, agents);
    }
  }
  if (reached < step) {
    throw new RangeError(`${runDir} has ${reached} steps; no frame after step ${step}`);
  }
  const now = clock.gameSecondsAt(step);
  return {
    step,
    gameTime: now,
    clock: clock.label(now),
    agents: [...agents.values()],
    objects: objectsOf(world),
  };
}

/** What frames read of a run that does not change while it goes on, by run directory. */
const runs = new Map<string, { scenario: Scenario; clock: Clock; world: TileWorld }>();

function runOf(runDir: string) {
  let run = runs.get(runDir);
  if (!run) {
    const scenario = readRunScenario(runDir);
    run = {
      scenario,
      clock: new Clock(scenario.settings.startTime, scenario.settings.secondsPerStep),
      // Reused for every frame of the run: each rebuild first restores a checkpoint's states.
      world: TileWorld.fromScenario(scenario),
    };
    runs.set(runDir, run);
  }
  return run;
}

/** What a frame needs of a snapshot: validated without the memory streams. */
const frameStateSchema = z.object({
  world: tileWorldSnapshotSchema,
  agents: z.array(
    agentSnapshotSchema.pick({
      id: true,
      identity: true,
      tile: true,
      action: true,
      resident: true,
    }),
  ),
});

interface CheckpointFrame {
  mtimeMs: number;
  objectStates: Record<string, string>;
  agents: AgentFrame[];
}

/**
 * Checkpoint frames recently read, by state file (a snapshot of a long run holds every memory,
 * so its JSON is worth reading once while the user scrubs between two checkpoints).
 */
const checkpointFrames = new Map<string, CheckpointFrame>();
const CHECKPOINT_FRAMES_KEPT = 16;

function checkpointFrame(
  runDir: string,
  step: number,
  scenario: Scenario,
  clock: Clock,
): CheckpointFrame {
  const file = checkpointStateFile(runDir, step);
  const { mtimeMs } = statSync(file);
  const cached = checkpointFrames.get(file);
  if (cached && cached.mtimeMs === mtimeMs) {
    // Most recently used last.
    checkpointFrames.delete(file);
    checkpointFrames.set(file, cached);
    return cached;
  }
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    const reason = (error as Error).message;
    throw new Error(`${file} (snapshot after step ${step}): not valid JSON (${reason})`, {
      cause: error,
    });
  }
  const parsed = frameStateSchema.safeParse(raw);
  if (!parsed.success) throw new Error(`${file}: ${z.prettifyError(parsed.error)}`);
  const state = parsed.data;
  const entry: CheckpointFrame = {
    mtimeMs,
    objectStates: state.world.objectStates,
    agents: state.agents.map((a) =>
      agentFrame(a, spriteOf(scenario, a), clock.gameSecondsAt(step)),
    ),
  };
  checkpointFrames.delete(file);
  checkpointFrames.set(file, entry);
  if (checkpointFrames.size > CHECKPOINT_FRAMES_KEPT) {
    checkpointFrames.delete(checkpointFrames.keys().next().value as string);
  }
  return entry;
}

/** Forgets what frames cached (the log, scenarios, checkpoint frames): a run deleted, tests. */
export function clearFrameCaches(): void {
  runs.clear();
  checkpointFrames.clear();
  logCache.clear();
}

/** The effect of an applied intervention on the frame, as its logged result tells it. */
function applyOutcome(
  name: string,
  outcome: { ok: boolean; result?: unknown },
  world: TileWorld,
  agents: Map<string, AgentFrame>,
): void {
  if (!outcome.ok) return;
  const result = (outcome.result ?? {}) as {
    address?: string;
    state?: string;
    frame?: AgentFrame;
    removed?: string;
  };
  if (name === 'setObjectState' && result.address && result.state) {
    world.setObjectState(result.address, result.state);
  }
  // Residents joining, leaving or being taken over (sim/residents.ts) log their new frame.
  if (result.frame) agents.set(result.frame.id, result.frame);
  if (result.removed) agents.delete(result.removed);
}

function applyBetweenSteps(e: LogEvent, world: TileWorld, agents: Map<string, AgentFrame>): void {
  applyOutcome(e.name as string, e as unknown as { ok: boolean; result?: unknown }, world, agents);
}

function applyStep(record: StepRecord, world: TileWorld, agents: Map<string, AgentFrame>): void {
  // In step order: queued interventions, moves, then what the step left (looks, objects).
  // Between-step entries (`now`) were applied from their own log lines.
  for (const item of record.interventions) {
    if (!item.now) applyOutcome(item.name, item, world, agents);
  }
  for (const move of record.moves) {
    const frame = agents.get(move.agent);
    if (frame) agents.set(move.agent, { ...frame, x: move.x, y: move.y });
  }
  for (const look of record.looks ?? []) {
    const frame = agents.get(look.id);
    if (frame) agents.set(look.id, { ...look, x: frame.x, y: frame.y });
  }
  for (const change of record.objects) world.setObjectState(change.address, change.state);
}

/** What a timeline needs (common/api/runs.ts `runs.timeline`). */
export interface Timeline {
  /** Steps logged so far. */
  steps: number;
  secondsPerStep: number;
  startClock: string;
  /** Steps with a checkpoint: where a fork can start. */
  snapshots: number[];
  /** The run's first step, then the step at which each later game hour starts. */
  hours: { step: number; clock: string }[];
}

/** The timeline of the run in `runDir` as logged so far. */
export function timeline(runDir: string): Timeline {
  const scenario = readRunScenario(runDir);
  const clock = new Clock(scenario.settings.startTime, scenario.settings.secondsPerStep);
  const records = logCache.read(path.join(runDir, LOG_FILE), new Set(['step', 'fork']));
  // A fork's log starts with a `fork` line at its fork step − 1.
  const steps = records.reduce((n, e) => Math.max(n, e.step + 1), 0);
  return {
    steps,
    secondsPerStep: clock.secondsPerStep,
    startClock: clock.label(0),
    snapshots: listCheckpoints(runDir),
    hours: hourMarks(clock, steps),
  };
}

/** Step 0, then the first step of every game hour up to `steps`. */
export function hourMarks(clock: Clock, steps: number): Timeline['hours'] {
  const marks = [{ step: 0, clock: clock.label(0) }];
  const intoHour = Math.round(clock.minuteOfDay(0) * 60) % 3600;
  for (let start = 3600 - intoHour; ; start += 3600) {
    const step = Math.ceil(start / clock.secondsPerStep);
    if (step > steps) break;
    if (step > marks[marks.length - 1].step) {
      marks.push({ step, clock: clock.label(clock.gameSecondsAt(step)) });
    }
  }
  return marks;
}
