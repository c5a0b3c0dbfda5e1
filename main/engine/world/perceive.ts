/**
 * Perception (Park et al. 2023 §4.1; reverie `persona/cognitive_modules/perceive.py`): what an
 * agent notices this step. Pure and synchronous: it reads the world and the events passed in
 * and returns the new observations; storing them (importance, embedding) is the caller's job.
 *
 * Reference order, kept here:
 *   1. events on tiles in the vision square (radius in tiles), in the agent's own arena only;
 *   2. sorted by straight-line distance, nearest first;
 *   3. the `attentionBandwidth` nearest kept;
 *   4. those matching one of the agent's last `retention` observations dropped (so a skipped
 *      duplicate does not free an attention slot).
 * Ours adds to 4 (docs/deviations.md): an event the same as the agent's latest recent
 * observation of its subject is dropped as well (`lastNoticed`). Reverie's count window is
 * smaller than a busy room: with more than `retention` events in view, each stored one pushes
 * another out of the window, so a reading nook "in use" all afternoon was stored again every
 * minute or two, and counted toward reflection each time.
 */
import { withoutIs } from '../prompts/verbPhrase';
import type { TileWorld } from './TileWorld';
import { euclidean, type Tile } from './tile';
import { inRect, visionSquare } from './vision';

/** An event as memories record it: subject–predicate–object plus a sentence. */
export interface EventTriple {
  subject: string;
  predicate: string;
  object: string;
  description: string;
}

/**
 * Something an agent is doing, where it is happening. `subject` is the agent's name; the
 * description is the finished sentence ("Isabella Rodriguez is making coffee"). An idle agent
 * is `(name, 'is', 'idle', '<name> is idle')`, as reverie writes it.
 */
export interface AgentEvent extends EventTriple {
  tile: Tile;
}

/** One perceived event, with where it was seen and how far away (tiles, euclidean). */
export interface PerceivedEvent extends EventTriple {
  source: 'agent' | 'object';
  tile: Tile;
  distance: number;
}

/** How an agent perceives; every persona in the reference uses 8 / 8 / 8. */
export interface PerceptionParams {
  /** Half-side of the vision square, in tiles. */
  visionRadius: number;
  /** How many of the nearest events are attended to per step. */
  attentionBandwidth: number;
  /** How many latest observations are checked to skip repeats. */
  retention: number;
  /**
   * Only events in the agent's own arena (sector + arena zones) are seen, as in reverie, so
   * walls between rooms block sight. Default true.
   */
  sameArenaOnly?: boolean;
  /**
   * What makes an event a repeat of a recent observation. Reverie compares the
   * subject–predicate–object triple only (`get_summarized_latest_events`); `'spo+description'`
   * also requires the same sentence. Default `'spo'`.
   */
  retentionMatch?: 'spo' | 'spo+description';
}

/** The inputs of one perception. */
export interface PerceptionInput {
  world: TileWorld;
  /** The perceiving agent's tile. */
  tile: Tile;
  params: PerceptionParams;
  /** Every agent's current action (the caller decides whether to include the perceiver's own). */
  agentEvents: readonly AgentEvent[];
  /** The agent's observations, newest first; only the first `retention` are consulted. */
  recentObservations: readonly EventTriple[];
  /**
   * The agent's latest observation of each subject it noticed recently (the caller's window):
   * an event the same as its subject's is unchanged since then, so not new. Default none.
   */
  lastNoticed?: readonly EventTriple[];
}

/**
 * The events an agent newly notices this step, nearest first. Object events come from the
 * world's object states: `(object address, 'is', state, '<object name> is <state>')`, seen at
 * the object's nearest tile in view. Ties in distance are broken by tile index, then agents
 * before objects, then subject, so the result is deterministic.
 */
export function perceive(input: PerceptionInput): PerceivedEvent[] {
  const { world, tile, params, agentEvents, recentObservations } = input;
  const rect = visionSquare(world.width, world.height, tile, params.visionRadius);
  const sameArena = params.sameArenaOnly ?? true;
  const ownArena = world.arenaKey(tile);
  const visible = (t: Tile) => inRect(rect, t) && (!sameArena || world.arenaKey(t) === ownArena);

  // Deduplicate identical events seen on several tiles (an object covers many), keeping the
  // nearest sighting.
  const byKey = new Map<string, PerceivedEvent>();
  const offer = (event: PerceivedEvent) => {
    const key = eventKey(event, true);
    const previous = byKey.get(key);
    if (!previous || compareSightings(world, event, previous) < 0) byKey.set(key, event);
  };

  for (const event of agentEvents) {
    if (!world.inBounds(event.tile) || !visible(event.tile)) continue;
    offer({
      ...pickTriple(event),
      source: 'agent',
      tile: event.tile,
      distance: euclidean(tile, event.tile),
    });
  }
  for (let y = rect.y0; y <= rect.y1; y++) {
    for (let x = rect.x0; x <= rect.x1; x++) {
      const at = { x, y };
      if (sameArena && world.arenaKey(at) !== ownArena) continue;
      const address = world.addressAt(at, 'object');
      if (address === null) continue;
      // A state typed with its own "is" ("is burning") is written once: "stove is burning".
      const state = withoutIs(world.objectState(address) ?? 'idle') || 'idle';
      const name = world.objectNameAt(world.indexOf(at)) ?? address;
      offer({
        subject: address,
        predicate: 'is',
        object: state,
        description: `${name} is ${state}`,
        source: 'object',
        tile: at,
        distance: euclidean(tile, at),
      });
    }
  }

  const attended = [...byKey.values()]
    .sort((a, b) => compareSightings(world, a, b))
    .slice(0, Math.max(0, params.attentionBandwidth));
  const withDescription = params.retentionMatch === 'spo+description';
  const recent = new Set(
    [
      ...recentObservations.slice(0, Math.max(0, params.retention)),
      ...(input.lastNoticed ?? []),
    ].map((m) => eventKey(m, withDescription)),
  );
  return attended.filter((e) => !recent.has(eventKey(e, withDescription)));
}

function pickTriple(e: EventTriple): EventTriple {
  return {
    subject: e.subject,
    predicate: e.predicate,
    object: e.object,
    description: e.description,
  };
}

/** Unit separator: cannot occur in names typed by a designer, so keys never collide. */
const SEP = '\u001f';

function eventKey(e: EventTriple, withDescription: boolean): string {
  const spo = `${e.subject}${SEP}${e.predicate}${SEP}${e.object}`;
  return withDescription ? `${spo}${SEP}${e.description}` : spo;
}

function compareSightings(world: TileWorld, a: PerceivedEvent, b: PerceivedEvent): number {
  return (
    a.distance - b.distance ||
    world.indexOf(a.tile) - world.indexOf(b.tile) ||
    (a.source === b.source ? 0 : a.source === 'agent' ? -1 : 1) ||
    compareStrings(a.subject, b.subject) ||
    compareStrings(a.description, b.description)
  );
}

function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
