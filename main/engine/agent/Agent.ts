/**
 * One simulated resident: identity (from the persona), memory stream, spatial memory, the day's
 * schedule, the current action and the bookkeeping cognition needs (chat cooldowns, importance
 * since the last reflection). The agent's own cognitive modules may change its state; nothing
 * here touches the world or another agent.
 */
import { z } from 'zod';
import type { RetrievalTrace } from '../../../common/api/runs';
import type { Persona } from '../../../common/scenario/schema';
import { identityOf, type IdentityView } from '../prompts/identity';
import { SpatialMemory, spatialMemorySnapshotSchema } from '../world/SpatialMemory';
import type { Tile } from '../world/tile';
import { agentCostStateSchema, emptyCostState, type AgentCostState } from './costLayerState';
import { MemoryStream, memoryStreamMetaSchema } from './memory';

/** One block of the hourly schedule, in minutes of the game day. */
export interface ScheduleBlock {
  activity: string;
  /** Minute of the day the block starts (0–1439). */
  startMinute: number;
  /** Length in game minutes. */
  minutes: number;
  asleep: boolean;
}

/** One decomposed 5–15 minute task, in minutes of the game day. */
export interface Task {
  task: string;
  startMinute: number;
  minutes: number;
}

/** What the agent is doing now and where (one reverie "action"). */
export interface CurrentAction {
  /** Lower-case verb phrase completing "<name> is …", e.g. "making coffee". */
  description: string;
  /** Where it happens: an arena or object address. */
  address: string;
  emoji: string;
  predicate: string;
  object: string;
  /** The object used and the state it shows meanwhile, or null when none. */
  objectAddress: string | null;
  objectState: string | null;
  /** Game seconds since run start. */
  startedAt: number;
  endsAt: number;
  /** Which task this action serves: `<day>@<startMinute>`; a new key means a new action. */
  taskKey: string;
  /** Partner's agent id while chatting (or waiting for them), else null. */
  withAgent: string | null;
}

const tileSchema = z.object({ x: z.number().int(), y: z.number().int() });
const blockSchema = z.object({
  activity: z.string(),
  startMinute: z.number(),
  minutes: z.number(),
  asleep: z.boolean(),
});
const taskSchema = z.object({ task: z.string(), startMinute: z.number(), minutes: z.number() });
const actionSchema = z.object({
  description: z.string(),
  address: z.string(),
  emoji: z.string(),
  predicate: z.string(),
  object: z.string(),
  objectAddress: z.string().nullable(),
  objectState: z.string().nullable(),
  startedAt: z.number(),
  endsAt: z.number(),
  taskKey: z.string(),
  withAgent: z.string().nullable(),
});

/**
 * Set while the user controls the agent instead of the model (sim/residents.ts): a new resident
 * who joined the town, or an existing agent taken over.
 */
export const residentSchema = z.object({
  mode: z.enum(['new', 'takeover']),
  sprite: z.string(),
  /** The user's ongoing exchange with each agent ("Name: words" lines, oldest first). */
  transcripts: z.record(z.string(), z.array(z.string())),
});
export type ResidentInfo = z.infer<typeof residentSchema>;

/** Retrieval traces an agent keeps for the inspector, newest first (transient, not saved). */
export const MAX_RETRIEVAL_TRACES = 20;

/** A perceived event waiting for its importance rating before it joins the memory stream. */
const heldObservationSchema = z.object({
  description: z.string(),
  subject: z.string(),
  predicate: z.string(),
  object: z.string(),
  /** Game seconds when it was perceived: the memory's creation time. */
  at: z.number(),
});
export type HeldObservation = z.infer<typeof heldObservationSchema>;

/** The JSON half of an agent snapshot (embeddings travel as a binary Float32 file). */
export const agentSnapshotSchema = z.object({
  id: z.string(),
  identity: z.object({
    name: z.string(),
    age: z.number(),
    innate: z.string(),
    learned: z.string(),
    currently: z.string(),
    lifestyle: z.string(),
    dailyPlanRequirement: z.string(),
    livingArea: z.string(),
  }),
  perception: z.object({
    visionRadius: z.number(),
    attentionBandwidth: z.number(),
    retention: z.number(),
  }),
  retrievalWeights: z.object({
    recency: z.number(),
    relevance: z.number(),
    importance: z.number(),
  }),
  tile: tileSchema,
  path: z.array(tileSchema),
  day: z.number().int().nullable(),
  wakeMinute: z.number(),
  dailyPlan: z.array(z.string()),
  schedule: z.array(blockSchema),
  tasks: z.array(taskSchema),
  action: actionSchema.nullable(),
  chatCooldownUntil: z.record(z.string(), z.number()),
  importanceSinceReflection: z.number(),
  /** Absent in snapshots from before ratings were batched: nothing held. */
  heldObservations: z.array(heldObservationSchema).default([]),
  replanPending: z.boolean(),
  memory: memoryStreamMetaSchema,
  spatial: spatialMemorySnapshotSchema,
  /** Absent in snapshots from before the cost layer: parsed as the empty state. */
  costLayer: agentCostStateSchema.prefault({}),
  /** Absent in snapshots written before residents existed. */
  resident: residentSchema.nullable().optional(),
});
export type AgentSnapshot = z.infer<typeof agentSnapshotSchema>;

/** A simulated person. Construct with {@link Agent.fromPersona} or {@link Agent.fromSnapshot}. */
export class Agent {
  readonly id: string;
  identity: IdentityView;
  perception: { visionRadius: number; attentionBandwidth: number; retention: number };
  retrievalWeights: { recency: number; relevance: number; importance: number };
  memory: MemoryStream;
  spatial: SpatialMemory;
  tile: Tile;
  /** Tiles still to walk, next first (the current tile excluded). */
  path: Tile[] = [];
  /** Game day index the schedule belongs to, or null before the first plan. */
  day: number | null = null;
  /** Minute of the day the agent wakes up. */
  wakeMinute = 0;
  dailyPlan: string[] = [];
  schedule: ScheduleBlock[] = [];
  tasks: Task[] = [];
  action: CurrentAction | null = null;
  /** Partner id → game seconds until which no new chat with them starts. */
  chatCooldownUntil: Record<string, number> = {};
  /** Importance summed over memories added since the last reflection (Park et al. §4.2). */
  importanceSinceReflection = 0;
  /**
   * Perceived events waiting to be rated together before they join the memory stream, oldest
   * first (mind.ts `rateHeldObservations`).
   */
  heldObservations: HeldObservation[] = [];
  /** Set by a whisper: re-plan the rest of the day at the next step. */
  replanPending = false;
  /** The user controlling this agent, or null when the model does. */
  resident: ResidentInfo | null = null;
  /**
   * The latest retrievals with their scores, newest first (at most {@link MAX_RETRIEVAL_TRACES}),
   * for the inspector. Transient: not in snapshots, so a resumed run starts with none.
   */
  retrievals: RetrievalTrace[] = [];
  /** Social memory, lifestyle policies and action cache (AGA cost layer; empty when off). */
  costLayer: AgentCostState = emptyCostState();

  private constructor(id: string, memory: MemoryStream, spatial: SpatialMemory, init: AgentInit) {
    this.id = id;
    this.memory = memory;
    this.spatial = spatial;
    this.identity = init.identity;
    this.perception = init.perception;
    this.retrievalWeights = init.retrievalWeights;
    this.tile = init.tile;
  }

  /** The display name, also the subject of the agent's events. */
  get name(): string {
    return this.identity.name;
  }

  /**
   * A fresh agent for `persona` standing on `tile`, knowing its living area and known places.
   * Seed memories are added by agent/seed.ts (they need the embedder).
   */
  static fromPersona(persona: Persona, world: string, tile: Tile, embeddingDims: number): Agent {
    const spatial = new SpatialMemory(world);
    spatial.learn(persona.livingArea);
    for (const place of persona.knownPlaces) spatial.learn(place);
    return new Agent(persona.id, new MemoryStream(embeddingDims), spatial, {
      identity: identityOf(persona),
      perception: {
        visionRadius: persona.visionRadius,
        attentionBandwidth: persona.attentionBandwidth,
        retention: persona.retention,
      },
      retrievalWeights: { ...persona.retrievalWeights },
      tile,
    });
  }

  /** What the agent is doing, as others perceive it: "<name> is <description>". */
  activityLabel(): string {
    return this.action ? this.action.description : 'idle';
  }

  /** True while the current action is a sleep block. */
  isAsleep(): boolean {
    return isSleepAction(this.action);
  }

  /** The whole state; `embeddings` is the memory matrix (rows × dims float32). */
  toSnapshot(): { json: AgentSnapshot; embeddings: Float32Array } {
    const memory = this.memory.toSnapshot();
    return {
      json: structuredClone({
        id: this.id,
        identity: this.identity,
        perception: this.perception,
        retrievalWeights: this.retrievalWeights,
        tile: { x: this.tile.x, y: this.tile.y },
        path: this.path.map((t) => ({ x: t.x, y: t.y })),
        day: this.day,
        wakeMinute: this.wakeMinute,
        dailyPlan: this.dailyPlan,
        schedule: this.schedule,
        tasks: this.tasks,
        action: this.action,
        chatCooldownUntil: this.chatCooldownUntil,
        importanceSinceReflection: this.importanceSinceReflection,
        heldObservations: this.heldObservations,
        replanPending: this.replanPending,
        memory: memory.meta,
        spatial: this.spatial.toSnapshot(),
        costLayer: this.costLayer,
        resident: this.resident,
      }),
      embeddings: memory.embeddings,
    };
  }

  /** Rebuilds an agent saved by {@link toSnapshot}; validates the JSON first. */
  static fromSnapshot(json: unknown, embeddings: Float32Array): Agent {
    const s = agentSnapshotSchema.parse(json);
    const agent = new Agent(
      s.id,
      MemoryStream.fromSnapshot({ meta: s.memory, embeddings }),
      SpatialMemory.fromSnapshot(s.spatial),
      {
        identity: s.identity,
        perception: s.perception,
        retrievalWeights: s.retrievalWeights,
        tile: s.tile,
      },
    );
    agent.path = s.path;
    agent.day = s.day;
    agent.wakeMinute = s.wakeMinute;
    agent.dailyPlan = s.dailyPlan;
    agent.schedule = s.schedule;
    agent.tasks = s.tasks;
    agent.action = s.action;
    agent.chatCooldownUntil = s.chatCooldownUntil;
    agent.importanceSinceReflection = s.importanceSinceReflection;
    agent.heldObservations = s.heldObservations;
    agent.replanPending = s.replanPending;
    agent.costLayer = s.costLayer;
    agent.resident = s.resident ?? null;
    return agent;
  }
}

/** True for the action of a sleep block (also read from snapshots, e.g. by sim/frames.ts). */
export function isSleepAction(action: Pick<CurrentAction, 'predicate' | 'object'> | null): boolean {
  return action?.predicate === 'is' && action.object === 'sleeping';
}

interface AgentInit {
  identity: IdentityView;
  perception: Agent['perception'];
  retrievalWeights: Agent['retrievalWeights'];
  tile: Tile;
}
