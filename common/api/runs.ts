/**
 * The `runs.*` part of the StudioApi: starting, watching, steering, inspecting, replaying and
 * forking simulations. Every method is served by the simulation process (main/runs) and
 * brokered unchanged by main, so the window stays responsive while the model works, and a dead
 * simulation process turns into a `crashed` status instead of a hung call.
 *
 * Runs live in `<data folder>/runs/<runId>/` (engine files plus `studio-run.json`). At most one
 * run is *live* (loaded in the simulation process) at a time; the others are stored.
 */
import { z } from 'zod';
import type { Contract } from './contract';
import { costLayerSchema, runConditionsSchema } from '../runs/conditions';
import { guardChangesSchema } from '../runs/guards';
import { scenarioShape } from '../scenario/schema';
import { modelChoiceCheck, modelChoiceFields } from './servers';

export const runIdSchema = z
  .string()
  .regex(/^[a-z0-9][a-z0-9-]{0,79}$/, 'expected a run id (lower-case letters, digits, dashes)');

export const runStatusSchema = z.enum([
  /** Being created or loaded (models loading, snapshot reading). */
  'loading',
  /** Stepping on its own at the chosen speed. */
  'running',
  /** Live and idle; steps only when asked. */
  'paused',
  /** The simulation process died while this run was live; resumable from its last snapshot. */
  'crashed',
  /** Not loaded in the simulation process. */
  'stored',
]);
export type RunStatus = z.infer<typeof runStatusSchema>;

/**
 * One cell of a Lab experiment (`<dataDir>/experiments/<id>/cells/<condition>/seed-<n>/`): an
 * ordinary run folder that belongs to the experiment, so it is forked rather than opened.
 */
export const experimentCellRefSchema = z.object({
  experimentId: z
    .string()
    .regex(/^[a-z0-9][a-z0-9._-]{0,79}$/, 'expected an experiment id (a folder name)'),
  condition: z
    .string()
    .regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/, 'expected a condition name (a folder name)'),
  seed: z.number().int(),
});
export type ExperimentCellRef = z.infer<typeof experimentCellRefSchema>;

/**
 * What a fork may choose: its name, and cost-layer switches and small-model guards that replace
 * the source's (the others, and the ablations, stay as the source had them). Forking one
 * snapshot twice, the cost layer on and off, is AGA's comparison from one moment (issue 14).
 */
const forkChoices = {
  name: z.string().max(200).optional(),
  /** Models left out: the source's. */
  ...modelChoiceFields,
  costLayer: costLayerSchema.partial().optional(),
  guards: guardChangesSchema.optional(),
};

/** Where a forked run came from: another run, or an experiment's cell; and the snapshot step. */
export const runParentSchema = z.union([
  z.object({ runId: z.string(), step: z.number().int() }),
  experimentCellRefSchema.extend({ step: z.number().int() }),
]);
export type RunParent = z.infer<typeof runParentSchema>;

/**
 * Why a run stopped against the will of the person who started it: a step that threw, models
 * that would not load, a prompt the model cannot hold. Kept in the run's folder (and its event
 * log) so the library row and the run view say it until the run is opened again.
 */
export const runFailureSchema = z.object({
  /** The step that failed (for a load: the step the run would have gone on from). */
  step: z.number().int(),
  /** What was being done: a step, or loading the models to start / reopen the run. */
  phase: z.enum(['step', 'load', 'start']),
  /** The reason, as the failing part said it. */
  reason: z.string(),
  /** What the person can do about it, in words. */
  remedy: z.string(),
  /** ISO time of the failure. */
  at: z.string(),
});
export type RunFailure = z.infer<typeof runFailureSchema>;

export const runSummarySchema = z.object({
  id: runIdSchema,
  name: z.string(),
  scenarioName: z.string(),
  /** The library document the run was started from, when started from the studio. */
  scenarioId: z.string().nullable(),
  /** ISO time the run was created. */
  createdAt: z.string(),
  /** Fork origin: the parent run (or experiment cell) and the snapshot step. */
  parent: runParentSchema.nullable(),
  status: runStatusSchema,
  /** Steps completed and the game clock at the start and at the current end. */
  steps: z.number().int(),
  startClock: z.string(),
  endClock: z.string(),
  /** Game seconds covered. */
  gameSeconds: z.number(),
  /** Prompt + completion tokens and model calls so far. */
  tokens: z.number(),
  calls: z.number().int(),
  models: z.object({ chat: z.string(), embedding: z.string() }),
  conditions: runConditionsSchema,
  /** Why the run last stopped on its own (absent when it did not, or has been opened since). */
  failure: runFailureSchema.optional(),
});
export type RunSummary = z.infer<typeof runSummarySchema>;

/** One person on the map at one step. */
export const agentFrameSchema = z.object({
  id: z.string(),
  name: z.string(),
  /** Sprite id from the persona (resources/sprites.json). */
  sprite: z.string(),
  x: z.number().int(),
  y: z.number().int(),
  emoji: z.string(),
  /** "making coffee"; "idle" before the first action. */
  action: z.string(),
  /** Where the action happens (arena or object address). */
  address: z.string(),
  chattingWith: z.string().nullable(),
  asleep: z.boolean(),
  /** Controlled by the user who joined the town (not by the model). */
  resident: z.boolean(),
});
export type AgentFrame = z.infer<typeof agentFrameSchema>;

/** The whole map state after `step` steps: what the live map and the timeline draw. */
export const runFrameSchema = z.object({
  runId: runIdSchema,
  step: z.number().int(),
  /** Game seconds since run start, and as a clock label ("Monday February 13 2023, 07:10"). */
  gameTime: z.number(),
  clock: z.string(),
  agents: z.array(agentFrameSchema),
  /** Objects whose state differs from the scenario's default. */
  objects: z.array(z.object({ address: z.string(), state: z.string() })),
});
export type RunFrame = z.infer<typeof runFrameSchema>;

export const conversationSchema = z.object({
  participants: z.tuple([z.string(), z.string()]),
  /** "Name: words" lines. */
  transcript: z.array(z.string()),
  topic: z.string(),
  startedAt: z.number(),
  endsAt: z.number(),
});

/** Live figures for the status bar. */
export const runRatesSchema = z.object({
  /** Tokens the model generated per real second, over the last 20 s. */
  tokensPerSecond: z.number(),
  /** Model requests waiting or in flight. */
  queueDepth: z.number().int(),
  /**
   * Real seconds one game hour takes, over the last `overGameMinutes` game minutes stepped (at
   * most 60); null until 5 game minutes are measured — fewer say nothing.
   */
  realSecondsPerGameHour: z.number().nullable(),
  overGameMinutes: z.number().nullable(),
  /** Game minutes measured so far (towards the 5 the figure needs). */
  measuredGameMinutes: z.number(),
  /** The run's prompt + completion tokens and model calls so far, live. */
  tokens: z.number(),
  calls: z.number().int(),
});

/** What the live run is doing now, for the run view's progress line. */
export const runActivitySchema = z.object({
  /** Model calls in flight, oldest first: for whom (a person's id and name, or none), which
   * cognitive function, for how long, and how long one took in this run on average. */
  calls: z.array(
    z.object({
      agentId: z.string().nullable(),
      name: z.string().nullable(),
      fn: z.string(),
      elapsedMs: z.number(),
      expectedMs: z.number().nullable(),
    }),
  ),
  /** People who have planned the current game day, of all who plan (residents do not). */
  planned: z.object({ done: z.number().int(), of: z.number().int() }),
  /** Steps the run is asked to go: playing, or `runs.step`'s `done` of `of`; null: idle. */
  work: z
    .discriminatedUnion('kind', [
      z.object({ kind: z.literal('play') }),
      z.object({ kind: z.literal('step'), done: z.number().int(), of: z.number().int() }),
    ])
    .nullable(),
  /** The user's requests waiting for the steps in progress to end, oldest first. */
  waiting: z.array(
    z.object({
      kind: z.enum(['interview', 'intervention', 'resident']),
      /** The person the request is about, by name, if any. */
      name: z.string().nullable(),
      /** The intervention's name (whisper, setObjectState, …), for an intervention. */
      what: z.string().nullable(),
      waitedMs: z.number(),
    }),
  ),
});
export type RunActivity = z.infer<typeof runActivitySchema>;

/** One memory as the inspector lists it. */
export const memoryViewSchema = z.object({
  id: z.string(),
  kind: z.enum(['observation', 'chat', 'thought', 'plan']),
  description: z.string(),
  importance: z.number(),
  createdAt: z.number(),
  createdClock: z.string(),
  lastAccessedAt: z.number(),
  /** 0 for observations; 1 + max evidence depth for thoughts. */
  depth: z.number().int(),
  evidence: z.array(z.string()),
});

/** One retrieval the agent did for a recent decision, with each memory's scores. */
export const retrievalTraceSchema = z.object({
  /** What the memories were retrieved for (the query text). */
  query: z.string(),
  at: z.number(),
  clock: z.string(),
  results: z.array(
    z.object({
      id: z.string(),
      description: z.string(),
      recency: z.number(),
      importance: z.number(),
      relevance: z.number(),
      total: z.number(),
    }),
  ),
});
export type RetrievalTrace = z.infer<typeof retrievalTraceSchema>;

/** Everything the agent inspector shows. */
export const agentDetailSchema = z.object({
  id: z.string(),
  name: z.string(),
  age: z.number(),
  innate: z.string(),
  learned: z.string(),
  currently: z.string(),
  lifestyle: z.string(),
  livingArea: z.string(),
  resident: z.boolean(),
  frame: agentFrameSchema,
  /** Address of the arena the agent stands in, if any. */
  location: z.string().nullable(),
  dailyPlan: z.array(z.string()),
  schedule: z.array(
    z.object({
      activity: z.string(),
      startMinute: z.number(),
      minutes: z.number(),
      asleep: z.boolean(),
      /** The block ended before the current game minute. */
      done: z.boolean(),
    }),
  ),
  tasks: z.array(
    z.object({ task: z.string(), startMinute: z.number(), minutes: z.number(), done: z.boolean() }),
  ),
  /** The memory stream, newest first (the whole stream; the renderer filters and searches). */
  memories: z.array(memoryViewSchema),
  /**
   * What the agent has seen that waits for its importance rating (rated several at a time, and
   * before the agent recalls anything), newest first: observations about to join the stream.
   */
  heldObservations: z.array(
    z.object({ description: z.string(), createdAt: z.number(), createdClock: z.string() }),
  ),
  /** The latest retrievals, newest first. */
  retrievals: z.array(retrievalTraceSchema),
  /** People the agent knows of, with social memory's relationship and feeling when enabled. */
  relationships: z.array(
    z.object({
      agentId: z.string(),
      name: z.string(),
      /** How often they have talked in this run. */
      conversations: z.number().int(),
      relationship: z.string().nullable(),
      feeling: z.string().nullable(),
    }),
  ),
  conversations: z.array(conversationSchema),
});
export type AgentDetail = z.infer<typeof agentDetailSchema>;

/** A log line, as stored (its shape depends on `type`; see main/engine/sim/EventLog.ts). */
export const logEventSchema = z.looseObject({ type: z.string(), step: z.number().int() });

export const runStatsSchema = z.object({
  /** Totals per cognitive function (`fn` tags from main/engine/prompts). */
  perFunction: z.array(
    z.object({
      fn: z.string(),
      calls: z.number().int(),
      promptTokens: z.number(),
      completionTokens: z.number(),
      ms: z.number(),
    }),
  ),
  /** Per game hour of the run: tokens and model time by function, conversations started. */
  perHour: z.array(
    z.object({
      hour: z.number().int(),
      clock: z.string(),
      tokensByFn: z.record(z.string(), z.number()),
      msByFn: z.record(z.string(), z.number()),
      conversations: z.number().int(),
    }),
  ),
  /** Conversation counts between every pair, in agent order. */
  relationships: z.object({
    agents: z.array(z.object({ id: z.string(), name: z.string() })),
    conversations: z.array(z.array(z.number().int())),
  }),
});
export type RunStats = z.infer<typeof runStatsSchema>;

const base64 = z.string().regex(/^[A-Za-z0-9+/]*={0,2}$/, 'expected base64 data');
const runRef = z.object({ runId: runIdSchema });

/** The interventions a user can make, applied at once (between steps) and logged. */
export const interventionSchema = z.discriminatedUnion('name', [
  z.object({
    name: z.literal('whisper'),
    args: z.object({ agentId: z.string(), text: z.string().min(1).max(2000) }),
  }),
  z.object({
    name: z.literal('setObjectState'),
    args: z.object({ address: z.string().min(1), state: z.string().min(1).max(200) }),
  }),
  z.object({
    name: z.literal('rememberedInterview'),
    args: z.object({ agentId: z.string(), question: z.string().min(1).max(2000) }),
  }),
]);
export type InterventionRequest = z.infer<typeof interventionSchema>;

export const runsMethods = {
  'runs.list': {
    input: z.object({ scenarioId: z.string().optional() }),
    output: z.array(runSummarySchema),
  },
  /**
   * Creates a run of `scenario` and makes it the live one (paused at step 0). Loads the models
   * (kept loaded for the next run with the same files).
   */
  'runs.create': {
    input: z
      .object({
        scenario: scenarioShape,
        scenarioId: z.string().max(200).nullable().default(null),
        name: z.string().max(200).optional(),
        /** The models: a file or a model on a server each (servers.ts). */
        ...modelChoiceFields,
        /** Overrides the scenario's start time ("YYYY-MM-DDTHH:MM"). */
        startTime: z.string().optional(),
        conditions: runConditionsSchema.prefault({}),
      })
      .superRefine(modelChoiceCheck(true)),
    output: runSummarySchema,
  },
  /** Makes a stored or crashed run the live one, resuming from its last snapshot. */
  'runs.open': {
    /** Models left out: the ones the run was recorded with. */
    input: runRef.extend(modelChoiceFields).superRefine(modelChoiceCheck(false)),
    output: z.object({ summary: runSummarySchema, frame: runFrameSchema }),
  },
  /** Stops the live run after its current step, writes a snapshot and unloads it. */
  'runs.close': { input: runRef, output: runSummarySchema },
  /** Steps on its own; `stepsPerSecond` caps the pace (0 = as fast as the model allows). */
  'runs.play': {
    input: runRef.extend({ stepsPerSecond: z.number().min(0).max(100).default(0) }),
    output: z.object({}),
  },
  'runs.pause': { input: runRef, output: runFrameSchema },
  /** Runs `steps` steps (the run must be paused) and returns the frame after them. */
  'runs.step': {
    input: runRef.extend({ steps: z.number().int().min(1).max(10_000).default(1) }),
    output: runFrameSchema,
  },
  /** The frame after `step` steps (default: now). Past frames are rebuilt from the log. */
  'runs.frame': {
    input: runRef.extend({ step: z.number().int().min(0).optional() }),
    output: runFrameSchema,
  },
  /** What the timeline needs: length, snapshot steps (fork points) and hour marks. */
  'runs.timeline': {
    input: runRef,
    output: z.object({
      steps: z.number().int(),
      secondsPerStep: z.number(),
      startClock: z.string(),
      snapshots: z.array(z.number().int()),
      /** Step at which each game hour starts, with its label. */
      hours: z.array(z.object({ step: z.number().int(), clock: z.string() })),
    }),
  },
  /** Log events with `fromStep ≤ step ≤ toStep`, optionally of some types, oldest first. */
  'runs.events': {
    input: runRef.extend({
      fromStep: z.number().int().min(-1).default(-1),
      toStep: z.number().int().optional(),
      types: z.array(z.string()).optional(),
      limit: z.number().int().min(1).max(10_000).default(1000),
    }),
    output: z.array(logEventSchema),
  },
  'runs.agent': {
    input: runRef.extend({ agentId: z.string().min(1) }),
    output: agentDetailSchema,
  },
  /**
   * Asks an agent a question without advancing time. With `remember`, the exchange becomes a
   * memory (applied as an intervention and logged); without, the agent is left unchanged.
   */
  'runs.interview': {
    input: runRef.extend({
      agentId: z.string().min(1),
      question: z.string().min(1).max(2000),
      remember: z.boolean().default(false),
    }),
    output: z.object({ answer: z.string() }),
  },
  /** Applies an intervention now (between steps) and logs it; the result or the error. */
  'runs.intervene': {
    input: runRef.extend({ intervention: interventionSchema }),
    output: z.object({
      ok: z.boolean(),
      result: z.unknown().optional(),
      error: z.string().optional(),
    }),
  },
  /**
   * A new run under runs/ from the latest snapshot at or before `step` of run `runId`, or of an
   * experiment cell (`source`; no `step`: its latest snapshot). It becomes live. The source's
   * folder is only read, so forking a cell leaves the experiment's results and resume intact.
   */
  'runs.fork': {
    input: z.union([
      runRef
        .extend({ step: z.number().int().min(0), ...forkChoices })
        .superRefine(modelChoiceCheck(false)),
      z
        .object({
          source: experimentCellRefSchema,
          step: z.number().int().min(0).optional(),
          ...forkChoices,
        })
        .superRefine(modelChoiceCheck(false)),
    ]),
    output: runSummarySchema,
  },
  'runs.delete': { input: runRef, output: z.object({}) },
  /** The run folder (event log, snapshots, scenario) as a zip. */
  'runs.export': {
    input: runRef,
    output: z.object({ fileName: z.string(), data: base64 }),
  },
  'runs.stats': { input: runRef, output: runStatsSchema },
  /**
   * The town the run simulates: its own copy (`scenario.json` in the run folder), which the map
   * and the timeline draw; later edits of the library document do not change it.
   */
  'runs.scenario': { input: runRef, output: scenarioShape },
  /**
   * The user steps into the town: as a new resident (a name and a short description that
   * becomes their identity) or by taking over an existing agent. Returns the agent id the user
   * now controls; agents perceive and remember them like anyone else.
   */
  'runs.join': {
    input: runRef.extend({
      as: z.discriminatedUnion('mode', [
        z.object({
          mode: z.literal('new'),
          firstName: z.string().min(1).max(60),
          lastName: z.string().max(60).default(''),
          description: z.string().min(1).max(2000),
          sprite: z.string().max(60).optional(),
        }),
        z.object({ mode: z.literal('takeover'), agentId: z.string().min(1) }),
      ]),
    }),
    output: z.object({ agentId: z.string() }),
  },
  /** Walks the user's resident toward a tile (path found like any agent's); steps as the run steps. */
  'runs.moveResident': {
    input: runRef.extend({
      agentId: z.string().min(1),
      x: z.number().int().min(0),
      y: z.number().int().min(0),
    }),
    output: z.object({ reachable: z.boolean(), tiles: z.number().int() }),
  },
  /** The user's resident says something to a nearby agent, who answers as itself. */
  'runs.say': {
    input: runRef.extend({
      agentId: z.string().min(1),
      toAgentId: z.string().min(1),
      text: z.string().min(1).max(2000),
    }),
    output: z.object({ reply: z.string(), end: z.boolean() }),
  },
  /** The user leaves; a new resident leaves the town, a taken-over agent goes back to the model. */
  'runs.leave': {
    input: runRef.extend({ agentId: z.string().min(1) }),
    output: z.object({}),
  },
} as const;

export const runsEvents = {
  /** After every step of the live run. */
  'runs.onDidStep': z.object({
    runId: runIdSchema,
    frame: runFrameSchema,
    /** Conversations that happened in this step (speech bubbles). */
    chats: z.array(conversationSchema),
    /** Interventions applied in this step with their outcome. */
    interventions: z.array(
      z.object({ name: z.string(), ok: z.boolean(), error: z.string().optional() }),
    ),
    rates: runRatesSchema,
  }),
  /**
   * While the live run works (playing, stepping, answering): what the model is doing and for
   * whom, the frame as it is now — each person where they are, which may be steps ahead of the
   * last written record (`frame.step`) — and the live figures. About once a second.
   */
  'runs.onDidProgress': z.object({
    runId: runIdSchema,
    frame: runFrameSchema,
    activity: runActivitySchema,
    rates: runRatesSchema,
  }),
  /** Status changes of a run; `crashed` carries what happened, a failure says why and what to do. */
  'runs.onDidChangeStatus': z.object({
    runId: runIdSchema,
    status: runStatusSchema,
    step: z.number().int(),
    message: z.string().optional(),
    failure: runFailureSchema.optional(),
  }),
} as const;

export const runsContract = { methods: runsMethods, events: runsEvents } satisfies Contract;
export type RunsContract = typeof runsContract;
