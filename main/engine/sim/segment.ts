/**
 * Running steps (Simulation.run and stepOnce; steps 1–6 of Simulation.ts): a segment runs the
 * steps from the current one until every agent has done the steps asked for or a scripted
 * intervention comes, and writes their records — and checkpoints — in step order.
 *
 * Steps 2–5 run per group of agents (groupStep.ts). With `out-of-order` scheduling the scheduler
 * (scheduler.ts) lets agents that cannot see or reach each other run different steps at once;
 * a step's record is put together from its groups' parts once every agent has done it, so the
 * records are those of lock-step, where all agents form one group. A checkpoint due inside the
 * segment is the state of each agent as it passed that step.
 *
 * The simulation owns the state; it hands a segment what it needs as a {@link SegmentHost}.
 */
import type { Scenario } from '../../../common/scenario/schema';
import type { Agent } from '../agent/Agent';
import type { Mind } from '../agent/mind';
import type { TileWorld } from '../world/TileWorld';
import type { Checkpoint, SimSnapshot } from './checkpoint';
import type { Clock } from './Clock';
import { agentFrame, changedLooks, lookOf, spriteOf } from './frames';
import { runGroupStep, type GroupPart } from './groupStep';
import { holdOf, type HeldObjects } from './heldObjects';
import type { RecordingModel } from './RecordingModel';
import type { Rng } from './rng';
import { saidIn } from './runScript';
import { readyGroups, type Reach } from './scheduler';
import type {
  AgentLook,
  AppliedNow,
  InterventionOutcome,
  QueuedIntervention,
  Scheduling,
  StepRecord,
} from './types';

/** What a segment reads and changes of the simulation running it. */
export interface SegmentHost {
  readonly scenario: Scenario;
  /** The whole town, in agent order. */
  readonly agents: readonly Agent[];
  readonly world: TileWorld;
  readonly clock: Clock;
  readonly rng: Rng;
  readonly held: HeldObjects;
  readonly reach: Reach;
  readonly recording: RecordingModel;
  readonly snapshotEverySteps: number;
  readonly scheduling: Scheduling;
  /** Steps completed (their records written) so far. */
  readonly step: number;
  /** A change or a pause is waiting behind this run: it runs one step. */
  readonly awaited: boolean;
  /** Interventions to re-apply at given steps (resume, replay); a step's go when it begins. */
  readonly script: Map<number, QueuedIntervention[]>;
  /** The user's queued interventions, and changes applied since the last step, as they are. */
  readonly queue: readonly QueuedIntervention[];
  readonly appliedNow: readonly AppliedNow[];
  /** Hands over the queued interventions, leaving the queue empty. */
  takeQueue(): QueuedIntervention[];
  /** Hands over the changes applied since the last step, leaving none. */
  takeAppliedNow(): AppliedNow[];
  /** Applies a change between steps (logged; kept until {@link takeAppliedNow}). */
  applyBetweenSteps(item: QueuedIntervention): Promise<InterventionOutcome>;
  /** Validates and applies one intervention; a failure is an outcome, never a throw. */
  applyOne(item: QueuedIntervention, mind: Mind): Promise<InterventionOutcome>;
  /** What cognition works with at `step`. */
  mindAt(step: number): Mind;
  /** The whole state after the steps completed. */
  snapshot(): Checkpoint;
  /**
   * Writes the record of step `record.step`, which then counts as completed, and — when one is
   * due after it — the checkpoint `snapshot` gives for the steps completed.
   */
  writeStep(record: StepRecord, snapshot: (step: number) => Checkpoint): void;
  /** What the simulation calls to bring the running segment to an end early; null after it. */
  setStop(stop: (() => void) | null): void;
}

/**
 * How far a run may go now (the studio's play pace, and how far ahead of the written record it
 * lets agents walk): steps at or past `step` wait, and are asked about again after `retryMs`
 * (or when a group finishes). `written` is the steps whose records are written; `started` the
 * steps the furthest agent has begun. A gate only holds steps back: the records are the same.
 */
export type StepGate = (at: { written: number; started: number }) => {
  step: number;
  retryMs: number;
};

/** An agent as it was when it passed a checkpoint step, and its calls so far. */
interface AgentPass {
  agent: { json: SimSnapshot['agents'][number]; embeddings: Float32Array };
  counters: Record<string, number>;
}

/** A step some agents have done: its record so far and each group's share of it. */
interface PendingStep {
  record: StepRecord;
  parts: GroupPart[];
  objects: StepRecord['objects'];
  /** Looks at the start of the step (the segment's first: before its queued interventions). */
  looksBefore: Map<string, AgentLook>;
  looksAfter: Map<string, AgentLook>;
}

/**
 * Runs steps from the current one until all agents have done `maxSteps` of them or a scripted
 * intervention comes (an interruption ends it sooner, at the steps already started), and
 * writes their records — and checkpoints — in step order. Returns the records.
 */
export async function runSegment(
  host: SegmentHost,
  maxSteps: number,
  onStep?: (record: StepRecord) => void,
  gate?: StepGate,
): Promise<StepRecord[]> {
  const start = host.step;
  const every = host.snapshotEverySteps;
  const agents = host.agents;
  let target = start + maxSteps;
  for (const s of host.script.keys()) if (s > start) target = Math.min(target, s);
  // Lock-step runs a step at a time; a change or pause waiting behind this run, one step.
  if (host.scheduling === 'lockstep' || host.awaited) target = start + 1;

  const reach = host.reach.within(Math.max(...agents.map((a) => a.perception.visionRadius)));
  const pending = new Map<number, PendingStep>();
  pending.set(start, await beginSegment(host, start));
  // A pause or change asked for while the step's interventions were applied: one step.
  if (host.awaited) target = start + 1;
  /** Agents as they passed each checkpoint step inside the segment. */
  const passes = new Map<number, AgentPass[]>();
  const next = agents.map(() => start);
  const busy = agents.map(() => false);
  /** Wakes a wait for the gate (a stop asked for must not wait out a slow pace). */
  let wake: (() => void) | null = null;
  host.setStop(() => {
    target = Math.min(target, Math.max(start + 1, ...next.map((s, i) => s + (busy[i] ? 1 : 0))));
    wake?.();
  });
  const running = new Set<Promise<void>>();
  const records: StepRecord[] = [];
  const failures: unknown[] = [];

  const launch = (members: number[]) => {
    const step = next[members[0]];
    for (const m of members) busy[m] = true;
    const task = runGroup(host, members, step, pending)
      .then(
        () => {
          for (const m of members) next[m]++;
          if ((step + 1) % every === 0) {
            const list = passes.get(step + 1) ?? agents.map(() => null as never);
            for (const m of members) {
              const agent = agents[m];
              list[m] = {
                agent: agent.toSnapshot(),
                counters: host.recording.countersOf(agent.id),
              };
            }
            passes.set(step + 1, list);
          }
        },
        (error: unknown) => {
          failures.push(error);
        },
      )
      .finally(() => {
        for (const m of members) busy[m] = false;
        running.delete(task);
      });
    running.add(task);
  };

  try {
    for (;;) {
      const held = gate?.({
        written: host.step,
        started: Math.max(...next.map((s, i) => s + (busy[i] ? 1 : 0))),
      });
      const limit = Math.min(target, held?.step ?? target);
      if (failures.length === 0) {
        if (host.scheduling === 'lockstep') {
          if (running.size === 0 && next[0] < limit) launch(agents.map((_, i) => i));
        } else {
          const view = agents.map((a, i) => ({
            step: next[i],
            busy: busy[i],
            tile: a.tile,
            nextTile: a.path[0] ?? a.tile,
          }));
          for (const group of readyGroups(view, limit, reach)) launch(group);
        }
      }
      // Write every step all agents are done with, in order.
      const done = Math.min(...next);
      while (failures.length === 0 && host.step < done) {
        const record = finishStep(host, pending, host.step, (step) => {
          const passed = passes.get(step);
          passes.delete(step);
          return passed ? snapshotAt(host, step, passed, target) : host.snapshot();
        });
        records.push(record);
        onStep?.(record);
      }
      const heldBack = failures.length === 0 && limit < target && next.some((s) => s < target);
      if (running.size === 0 && !heldBack) break;
      // Steps the gate holds back start when it says, or sooner when a group finishes.
      let timer: ReturnType<typeof setTimeout> | undefined;
      const paced =
        heldBack && held
          ? new Promise<void>((resolve) => {
              timer = setTimeout(resolve, Math.min(60_000, Math.max(1, held.retryMs)));
              wake = resolve;
            })
          : null;
      await Promise.race(paced ? [...running, paced] : running);
      clearTimeout(timer);
      wake = null;
    }
  } finally {
    host.setStop(null);
  }
  if (failures.length > 0) throw failures[0];
  return records;
}

/**
 * The first step of a segment: interventions applied since the last step, then scripted ones
 * (resume, replay; between-step ones first, applied as then), then the user's queue.
 */
async function beginSegment(host: SegmentHost, step: number): Promise<PendingStep> {
  const now = host.clock.gameSecondsAt(step);
  const record = emptyRecord(host.clock, step);
  record.interventions.push(...host.takeAppliedNow());
  const due = [...(host.script.get(step) ?? []), ...host.takeQueue()];
  host.script.delete(step);
  for (const item of due.filter((i) => i.now)) {
    await host.applyBetweenSteps(item);
    record.interventions.push(...host.takeAppliedNow());
  }
  // Frames before the step's own changes (between-step ones log their effect themselves).
  const looksBefore = new Map(host.agents.map((a) => [a.id, lookAt(host, a, now)]));
  const mind = host.mindAt(step);
  for (const item of due.filter((i) => !i.now)) {
    record.interventions.push({ ...item, ...(await host.applyOne(item, mind)) });
  }
  // What residents said since the last step shows with this step's conversations.
  record.chats.push(...saidIn(record.interventions));
  return { record, parts: [], objects: [], looksBefore, looksAfter: new Map() };
}

/** Runs step `step` for the agents `members` and keeps their share of its record. */
async function runGroup(
  host: SegmentHost,
  members: number[],
  step: number,
  pending: Map<number, PendingStep>,
): Promise<void> {
  let entry = pending.get(step);
  if (!entry) {
    entry = {
      record: emptyRecord(host.clock, step),
      parts: [],
      objects: [],
      looksBefore: new Map(),
      looksAfter: new Map(),
    };
    pending.set(step, entry);
  }
  const now = host.clock.gameSecondsAt(step);
  const group = members.map((i) => host.agents[i]);
  for (const a of group)
    if (!entry.looksBefore.has(a.id)) entry.looksBefore.set(a.id, lookAt(host, a, now));
  const heldBefore = group.map((a) => holdOf(a, host.world)?.address ?? null);
  const reach = host.reach.within(Math.max(...host.agents.map((a) => a.perception.visionRadius)));
  entry.parts.push(
    await runGroupStep(host.agents, members, host.mindAt(step), {
      world: host.world,
      step,
      seed: host.scenario.settings.seed,
      inReach: (a, b) => reach(a, b, 0),
    }),
  );
  entry.objects.push(...host.held.update(step, host.agents, group, heldBefore));
  const after = host.clock.gameSecondsAt(step + 1);
  for (const a of group) entry.looksAfter.set(a.id, lookAt(host, a, after));
}

/**
 * Puts together the record of `step`, which every agent has done, and has the host write it,
 * with the checkpoint when one is due (`snapshot` gives it).
 */
function finishStep(
  host: SegmentHost,
  pending: Map<number, PendingStep>,
  step: number,
  snapshot: (step: number) => Checkpoint,
): StepRecord {
  const entry = pending.get(step);
  if (!entry) throw new Error(`step ${step} finished without a record`);
  pending.delete(step);
  const { record, parts } = entry;
  const merged = <K extends keyof GroupPart>(key: K) =>
    parts
      .flatMap((p) => p[key] as GroupPart[K][number][])
      .sort((x, y) => x[0] - y[0])
      .map(([, e]) => e) as Array<GroupPart[K][number][1]>;
  record.moves = merged('moves');
  record.reactions = merged('reactions');
  record.chats.push(...merged('chats'));
  record.reflections = merged('reflections');
  record.actions = merged('actions');
  record.objects = entry.objects.sort((a, b) => (a.address < b.address ? -1 : 1));
  record.looks = changedLooks(
    entry.looksBefore,
    host.agents.map(
      (a) => entry.looksAfter.get(a.id) ?? lookAt(host, a, host.clock.gameSecondsAt(step + 1)),
    ),
  );
  host.writeStep(record, snapshot);
  return record;
}

/**
 * The state after `step` steps while some agents have gone further: each agent as it was when
 * it finished step `step − 1` (`passed`), and the objects as they were then. Queued
 * interventions are applied when the running segment ends; unless it ends here, the step
 * record they will be listed in re-applies them after a resume, so the snapshot leaves them out.
 */
function snapshotAt(
  host: SegmentHost,
  step: number,
  passed: AgentPass[],
  segmentEnd: number,
): Checkpoint {
  const { objectStates, held } = host.held.before(step);
  // Calls of no agent as they are now; each agent's as they were when it passed.
  const ids = new Set(passed.map((p) => p.agent.json.id));
  const counters = Object.fromEntries(
    Object.entries(host.recording.countersSnapshot()).filter(
      ([key]) => !ids.has(key.slice(key.indexOf('\u0000') + 1)),
    ),
  );
  for (const pass of passed) Object.assign(counters, pass.counters);
  const state: SimSnapshot = {
    version: 1,
    step,
    rng: host.rng.toSnapshot(),
    world: { objectStates },
    heldObjects: held,
    callCounters: Object.fromEntries(Object.entries(counters).sort(([a], [b]) => (a < b ? -1 : 1))),
    queue: step === segmentEnd ? structuredClone(host.queue as QueuedIntervention[]) : [],
    appliedNow: structuredClone(host.appliedNow as AppliedNow[]),
    agents: passed.map((p) => p.agent.json),
  };
  return { state, embeddings: passed.map((p) => p.agent.embeddings) };
}

/** An empty record of step `step`. */
function emptyRecord(clock: Clock, step: number): StepRecord {
  const now = clock.gameSecondsAt(step);
  return {
    type: 'step',
    step,
    gameTime: now,
    clock: clock.label(now),
    interventions: [],
    moves: [],
    reactions: [],
    chats: [],
    reflections: [],
    actions: [],
    objects: [],
    looks: [],
  };
}

/** An agent's frame fields other than its position, at game seconds `now`. */
function lookAt(host: SegmentHost, agent: Agent, now: number): AgentLook {
  return lookOf(agentFrame(agent, spriteOf(host.scenario, agent), now));
}
