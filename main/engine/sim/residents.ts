/**
 * The user steps into the town (issue #6 item 8, as in the paper's demo and AI Town): as a new
 * resident with a name and a short description, or by taking over an existing agent.
 *
 * What a resident is, kept simple on purpose:
 * - The model never acts for a resident: no planning, perception, reactions, reflection or
 *   action choice (the step loop skips them), so a resident costs no model call. A resident
 *   perceives nothing itself — the user sees the map.
 * - A resident walks where the user sends it ({@link moveResident}), one tile per step like
 *   everyone, and stands idle otherwise.
 * - Others perceive a resident through the normal event ("Neo Park is idle"), so they store
 *   observations of the user like of anyone. Agents never start a conversation with a resident
 *   (the step loop leaves residents out of the people they may react to), because the model
 *   must not speak the user's lines; the user starts it with {@link residentSay}, and the agent
 *   answers as itself from its retrieved memories (the conversation-turn prompt; with social
 *   memory on, from its summary of the user, and its relationship and feeling are updated
 *   after every exchange). Both lines become chat memories of the agent — and of the resident,
 *   so an agent taken over remembers what the user said in its name.
 * - Joining, moving, talking and leaving are applied between steps and logged like any
 *   intervention (Simulation.applyNow), so resume and replay reproduce them; the resident is
 *   saved in snapshots (`Agent.resident`).
 */
import { z } from 'zod';
import type { AgentFrame } from '../../../common/api/runs';
import {
  DEFAULT_RETRIEVAL_WEIGHTS,
  type Persona,
  type Scenario,
} from '../../../common/scenario/schema';
import { Agent, type CurrentAction } from '../agent/Agent';
import {
  conversationSeconds,
  MAX_CHAT_UTTERANCES,
  turnContext,
  type Conversation,
} from '../agent/converse';
import { costLayerOf } from '../agent/ablation';
import { ask, remember, type Mind } from '../agent/mind';
import { refreshSummary, updateAfterChat } from '../agent/socialMemory';
import { converseTurnPrompt } from '../prompts/converseTurn';
import { importancePrompt } from '../prompts/importance';
import type { TileWorld } from '../world/TileWorld';
import type { Tile } from '../world/tile';
import { agentFrame, spriteOf } from './frames';

/** What resident operations change: the simulation's agents (in order) and its world. */
export interface ResidentTown {
  readonly agents: Agent[];
  readonly world: TileWorld;
  readonly scenario: Scenario;
  /** Embedding size of the run's embedder (a new resident's memory stream). */
  readonly embeddingDims: number;
}

/** Sprite of a new resident who chose none. */
export const DEFAULT_RESIDENT_SPRITE = 'villager-1';

export const joinArgsSchema = z.discriminatedUnion('mode', [
  z.object({
    mode: z.literal('new'),
    firstName: z.string().trim().min(1).max(60),
    lastName: z.string().trim().max(60).default(''),
    description: z.string().trim().min(1).max(2000),
    sprite: z.string().trim().min(1).max(60).optional(),
  }),
  z.object({ mode: z.literal('takeover'), agentId: z.string().min(1) }),
]);
export type JoinArgs = z.input<typeof joinArgsSchema>;

const moveArgsSchema = z.object({
  agentId: z.string().min(1),
  x: z.number().int(),
  y: z.number().int(),
});
const sayArgsSchema = z.object({
  agentId: z.string().min(1),
  toAgentId: z.string().min(1),
  text: z.string().trim().min(1).max(2000),
});
const leaveArgsSchema = z.object({ agentId: z.string().min(1) });

/** The resident operations, by the name they are logged under. */
export const RESIDENT_OPS = ['join', 'moveResident', 'say', 'leave'] as const;
export type ResidentOp = (typeof RESIDENT_OPS)[number];

export function isResidentOp(name: string): name is ResidentOp {
  return (RESIDENT_OPS as readonly string[]).includes(name);
}

/** Validates `args` of `op`, naming the fields that are wrong. */
function parseArgs<S extends z.ZodType>(op: string, schema: S, args: unknown): z.infer<S> {
  const parsed = schema.safeParse(args);
  if (!parsed.success) throw new Error(`${op}: ${z.prettifyError(parsed.error)}`);
  return parsed.data;
}

/** Applies one resident operation; its result is logged and tells frames what changed. */
export async function applyResidentOp(
  town: ResidentTown,
  mind: Mind,
  op: ResidentOp,
  args: unknown,
): Promise<unknown> {
  switch (op) {
    case 'join':
      return joinTown(town, mind.now, parseArgs(op, joinArgsSchema, args));
    case 'moveResident':
      return moveResident(town, parseArgs(op, moveArgsSchema, args));
    case 'say':
      return residentSay(town, mind, parseArgs(op, sayArgsSchema, args));
    case 'leave':
      return leaveTown(town, mind.now, parseArgs(op, leaveArgsSchema, args));
  }
}

function frameOf(town: ResidentTown, agent: Agent, now: number): AgentFrame {
  return agentFrame(agent, spriteOf(town.scenario, agent), now);
}

function findAgent(town: ResidentTown, id: string): Agent {
  const agent = town.agents.find((a) => a.id === id);
  if (!agent) throw new Error(`no agent "${id}" in this run`);
  return agent;
}

function findResident(town: ResidentTown, id: string): Agent {
  const agent = findAgent(town, id);
  if (!agent.resident) throw new Error(`"${agent.name}" is not controlled by a resident`);
  return agent;
}

/**
 * The user joins: a new resident is added after everyone else, standing on a free spawn tile
 * (else a tile of the first persona's living area); a taken-over agent stops what it was doing.
 */
export function joinTown(
  town: ResidentTown,
  now: number,
  args: z.infer<typeof joinArgsSchema>,
): { agentId: string; frame: AgentFrame } {
  if (args.mode === 'takeover') {
    const agent = findAgent(town, args.agentId);
    if (agent.resident) throw new Error(`"${agent.name}" is already controlled by a resident`);
    agent.resident = {
      mode: 'takeover',
      sprite: spriteOf(town.scenario, agent),
      transcripts: {},
    };
    agent.action = null;
    agent.path = [];
    return { agentId: agent.id, frame: frameOf(town, agent, now) };
  }
  const name = `${args.firstName} ${args.lastName}`.trim();
  if (town.agents.some((a) => a.name === name)) {
    throw new Error(`someone called "${name}" already lives in this town; pick another name`);
  }
  const tile = startTile(town);
  const world = town.world;
  const persona: Persona = {
    id: uniqueId(town, args.firstName),
    firstName: args.firstName,
    lastName: args.lastName,
    // Unknown: nothing prompts the model with a resident's identity.
    age: 0,
    innate: '',
    learned: args.description,
    currently: args.description,
    lifestyle: '',
    dailyPlanRequirement: '',
    livingArea: world.addressAt(tile, 'arena') ?? world.worldName,
    seed: args.description,
    knownPlaces: [],
    spawn: null,
    visionRadius: 8,
    attentionBandwidth: 8,
    retention: 8,
    retrievalWeights: { ...DEFAULT_RETRIEVAL_WEIGHTS },
    sprite: args.sprite ?? DEFAULT_RESIDENT_SPRITE,
  };
  const agent = Agent.fromPersona(persona, world.worldName, tile, town.embeddingDims);
  agent.resident = { mode: 'new', sprite: persona.sprite, transcripts: {} };
  town.agents.push(agent);
  return { agentId: agent.id, frame: frameOf(town, agent, now) };
}

/** `resident-<first name>`, with a number when taken. */
function uniqueId(town: ResidentTown, firstName: string): string {
  const slug = firstName
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 40);
  const base = slug ? `resident-${slug}` : 'resident';
  const taken = new Set(town.agents.map((a) => a.id));
  let id = base;
  for (let n = 2; taken.has(id); n++) id = `${base}-${n}`;
  return id;
}

/** A walkable spawn tile, taking turns between them as residents arrive. */
function startTile(town: ResidentTown): Tile {
  const { world, scenario } = town;
  let open = world.spawnTiles().filter((t) => !world.isBlocked(t));
  if (open.length === 0 && scenario.personas.length > 0) {
    open = world
      .tilesOf(scenario.personas[0].livingArea)
      .map((i) => world.tileAt(i))
      .filter((t) => !world.isBlocked(t));
  }
  if (open.length === 0) {
    throw new Error('no walkable tile to start on: the map has no spawn zone or living area');
  }
  const arrivals = town.agents.filter((a) => a.resident?.mode === 'new').length;
  return open[arrivals % open.length];
}

/**
 * Sends a resident toward a tile along the shortest path, one tile per step from the next
 * step on. An unreachable or blocked tile leaves it standing (`reachable: false`).
 */
export function moveResident(
  town: ResidentTown,
  args: z.infer<typeof moveArgsSchema>,
): { reachable: boolean; tiles: number } {
  const agent = findResident(town, args.agentId);
  const { world } = town;
  const target = { x: args.x, y: args.y };
  if (!world.inBounds(target)) {
    throw new Error(
      `moveResident: tile (${args.x}, ${args.y}) is outside the ${world.width}×${world.height} map`,
    );
  }
  const route = world.isBlocked(target) ? null : world.findPath(agent.tile, target);
  if (!route || route.kind !== 'path') {
    agent.path = [];
    return { reachable: false, tiles: 0 };
  }
  agent.path = route.path.slice(1);
  return { reachable: true, tiles: agent.path.length };
}

/**
 * The resident says `text` to a nearby agent, who answers as itself from what it recalls about
 * the resident and the exchange so far. The agent stops to talk for the time the two lines
 * take; both lines are stored as chat memories of both.
 */
/**
 * Whether `agent` can hear someone at `tile`: where it could see them (perception's square of
 * `visionRadius` tiles, in the same room). `distance` is in tiles on the longer axis.
 */
export function earshot(
  world: TileWorld,
  agent: Agent,
  tile: Tile,
): { distance: number; within: boolean } {
  const distance = Math.max(Math.abs(agent.tile.x - tile.x), Math.abs(agent.tile.y - tile.y));
  const within =
    distance <= agent.perception.visionRadius &&
    world.arenaKey(agent.tile) === world.arenaKey(tile);
  return { distance, within };
}

export async function residentSay(
  town: ResidentTown,
  mind: Mind,
  args: z.infer<typeof sayArgsSchema>,
): Promise<{ reply: string; end: boolean; conversation: Conversation; frame: AgentFrame }> {
  const resident = findResident(town, args.agentId);
  const agent = findAgent(town, args.toAgentId);
  if (agent.resident) throw new Error(`"${agent.name}" is controlled by a resident, not the model`);
  if (agent.isAsleep()) throw new Error(`"${agent.name}" is asleep`);
  const a = agent.action;
  if (a?.withAgent && a.withAgent !== resident.id && a.endsAt > mind.now) {
    throw new Error(`"${agent.name}" is busy with someone else; try again in a moment`);
  }
  const { world } = town;
  const { distance, within } = earshot(world, agent, resident.tile);
  if (!within) {
    const radius = agent.perception.visionRadius;
    const where = world.addressAt(agent.tile, 'arena') ?? world.worldName;
    throw new Error(
      `"${agent.name}" is out of earshot of "${resident.name}" (${distance} tiles away, in ${where}); walk into the same room within ${radius} tiles to talk`,
    );
  }

  const transcripts = resident.resident!.transcripts;
  const said = `${resident.name}: ${args.text}`;
  const transcript = [...(transcripts[agent.id] ?? []), said];
  const place = mind.world.addressAt(agent.tile, 'arena') ?? mind.world.worldName;
  // As in agent/converse.ts: the line is conditioned on what the agent retrieves for it, and
  // with social memory on, on its summary of the person too.
  const view = costLayerOf(mind).socialMemory ? await refreshSummary(agent, resident, mind) : null;
  const turn = await ask(
    mind,
    agent,
    converseTurnPrompt(agent.identity, {
      now: mind.clock.label(mind.now),
      place,
      partnerName: resident.name,
      transcript,
      ...(await turnContext(mind, agent, resident, transcript, view)),
    }),
  );
  const answered = `${agent.name}: ${turn.utterance}`;
  transcript.push(answered);
  if (turn.end) delete transcripts[agent.id];
  else transcripts[agent.id] = transcript.slice(-MAX_CHAT_UTTERANCES);

  const lines = [
    { speaker: resident, listener: agent, words: args.text },
    { speaker: agent, listener: resident, words: turn.utterance },
  ];
  const { importance } = await ask(
    mind,
    agent,
    importancePrompt(agent.identity, {
      kind: 'chat',
      description: `${resident.name} and ${agent.name} talked: ${said} / ${answered}`,
    }),
  );
  const drafts = lines.map(({ speaker, listener, words }) => ({
    kind: 'chat' as const,
    description: `${speaker.name} said to ${listener.name}: "${words}"`,
    importance,
    subject: speaker.name,
    predicate: 'chat with',
    object: listener.name,
  }));
  await remember(mind, agent, drafts);
  await remember(mind, resident, drafts);
  // The user may walk away at any line, so relationship and feeling follow every exchange.
  if (view) await updateAfterChat(agent, resident, mind, transcript);

  const endsAt = mind.now + conversationSeconds([said, answered]);
  const talking: CurrentAction = {
    description: `conversing with ${resident.name}`,
    address: place,
    emoji: '💬',
    predicate: 'chat with',
    object: resident.name,
    objectAddress: null,
    objectState: null,
    startedAt: mind.now,
    endsAt,
    taskKey: a?.taskKey ?? 'chat',
    withAgent: resident.id,
  };
  agent.action = talking;
  agent.path = [];
  return {
    reply: turn.utterance,
    end: turn.end,
    conversation: {
      participants: [resident.id, agent.id],
      transcript: [said, answered],
      topic: args.text.length > 80 ? `${args.text.slice(0, 77)}...` : args.text,
      startedAt: mind.now,
      endsAt,
    },
    frame: frameOf(town, agent, mind.now),
  };
}

/**
 * The user leaves: a new resident leaves the town (`removed`), a taken-over agent goes back
 * to the model, which picks its next action at the next step.
 */
export function leaveTown(
  town: ResidentTown,
  now: number,
  args: z.infer<typeof leaveArgsSchema>,
): { removed?: string; frame?: AgentFrame } {
  const agent = findResident(town, args.agentId);
  if (agent.resident!.mode === 'new') {
    town.agents.splice(town.agents.indexOf(agent), 1);
    return { removed: agent.id };
  }
  agent.resident = null;
  agent.action = null;
  agent.path = [];
  return { frame: frameOf(town, agent, now) };
}
