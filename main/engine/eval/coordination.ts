/**
 * Coordination (Park et al. 2023 §7.1, the Valentine's party): who was at place P during the
 * game-time window W, read from the event log — no model is asked. Positions come from each
 * step record's `moves` (one tile per step) starting from the agents' tiles at the step-0
 * checkpoint; an agent counts as present in a step when, after that step's moves, it stands on
 * a tile of P. Independently, it counts as "headed there" in a step when the action it is
 * carrying out has an address inside P (it may still be walking).
 *
 * P is a sector or arena address ("Town:cafe" or "Town:cafe:dining"); W is [from, to) in game
 * seconds since run start, written in the config as local date-times like the scenario's
 * start time.
 */
import type { LogEvent } from '../sim/EventLog';
import type { Tile } from '../world/tile';

/** Where and when to look. */
export interface PlaceWindow {
  /** Label for the report (defaults to the place). */
  label?: string;
  place: string;
  /** Local date-times "YYYY-MM-DDTHH:MM[:SS]". */
  from: string;
  to: string;
}

/** One agent's presence in a window. */
export interface Presence {
  agentId: string;
  present: boolean;
  /** Steps in the window spent standing inside the place. */
  stepsPresent: number;
  /** First such step, or null. */
  firstStep: number | null;
  /** Steps in the window whose current action is located inside the place. */
  stepsHeadedThere: number;
}

/** The result for one window. */
export interface CoordinationResult {
  label: string;
  place: string;
  from: string;
  to: string;
  /** Steps of the log that fall inside the window. */
  stepsInWindow: number;
  attendees: number;
  presence: Presence[];
}

/** Game seconds since `startTime` of the local date-time `iso` (both "YYYY-MM-DDTHH:MM[:SS]"). */
export function gameSecondsOfIso(startTime: string, iso: string): number {
  const parse = (s: string, field: string) => {
    const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?$/.exec(s);
    if (!m) throw new Error(`${field}: expected a date-time like 2024-04-15T12:00, got "${s}"`);
    const [, y, mo, d, h, mi, sec] = m;
    return (
      Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(sec ?? 0)) / 1000
    );
  };
  return parse(iso, 'window time') - parse(startTime, 'start time');
}

/** True when `address` is `place` or lies inside it. */
export function isInside(address: string | null | undefined, place: string): boolean {
  return !!address && (address === place || address.startsWith(`${place}:`));
}

interface StepLine {
  step: number;
  gameTime: number;
  moves: { agent: string; x: number; y: number }[];
  actions: { agent: string; address: string }[];
}

function stepLines(events: readonly LogEvent[]): StepLine[] {
  return events
    .filter((e) => e.type === 'step')
    .map((e) => e as unknown as StepLine)
    .sort((a, b) => a.step - b.step);
}

/**
 * Presence of every agent at `window.place` during the window.
 * @param start each agent's tile before the first logged step (agent order = report order)
 * @param addressOf the arena address of a tile (null where no arena is painted)
 */
export function coordination(
  events: readonly LogEvent[],
  window: PlaceWindow,
  startTime: string,
  start: ReadonlyMap<string, Tile>,
  addressOf: (tile: Tile) => string | null,
): CoordinationResult {
  const from = gameSecondsOfIso(startTime, window.from);
  const to = gameSecondsOfIso(startTime, window.to);
  if (!(to > from)) {
    throw new Error(`window "${window.label ?? window.place}": "to" must be after "from"`);
  }
  const tiles = new Map(start);
  const actionAt = new Map<string, string>();
  const presence = new Map<string, Presence>(
    [...start.keys()].map((id) => [
      id,
      { agentId: id, present: false, stepsPresent: 0, firstStep: null, stepsHeadedThere: 0 },
    ]),
  );
  let stepsInWindow = 0;
  for (const line of stepLines(events)) {
    for (const m of line.moves) tiles.set(m.agent, { x: m.x, y: m.y });
    for (const a of line.actions) actionAt.set(a.agent, a.address);
    if (line.gameTime < from || line.gameTime >= to) continue;
    stepsInWindow++;
    for (const [id, p] of presence) {
      const tile = tiles.get(id);
      if (tile && isInside(addressOf(tile), window.place)) {
        p.stepsPresent++;
        p.present = true;
        p.firstStep ??= line.step;
      }
      if (isInside(actionAt.get(id), window.place)) p.stepsHeadedThere++;
    }
  }
  const list = [...presence.values()];
  return {
    label: window.label ?? window.place,
    place: window.place,
    from: window.from,
    to: window.to,
    stepsInWindow,
    attendees: list.filter((p) => p.present).length,
    presence: list,
  };
}
