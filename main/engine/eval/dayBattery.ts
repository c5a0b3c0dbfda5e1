/**
 * The behaviour battery of one simulated day (issue 13 "Verify"): read from a run's folder, per
 * resident — when they got up, how many different things they did, where they went, the
 * conversations they started and how those ended (the model's own "end", or the line limit),
 * reflections, lifestyle-policy reuses, and whether they lay in their bed's tile at night.
 * Everything comes from the event log and the frames rebuilt from it, so the battery reads any
 * run, live or finished.
 */
import path from 'node:path';
import { bedOf } from '../agent/plan';
import { SLEEP_ACTIVITY } from '../agent/schedule';
import { EventLog } from '../sim/EventLog';
import { frameAt } from '../sim/frames';
import { LOG_FILE, readRunScenario } from '../sim/runFiles';
import type { StepRecord } from '../sim/Simulation';
import { TileWorld } from '../world/TileWorld';

/** One resident's day. */
export interface ResidentDay {
  id: string;
  name: string;
  /** Clock time ("07:30") of the first action other than sleep, or null when they never woke. */
  wakeUp: string | null;
  /** Different action descriptions other than sleep. */
  activities: number;
  /** Arena addresses stood in, first visit first. */
  places: string[];
  /** Conversations this resident opened. */
  chatsStarted: number;
  /** Conversations they took part in that a speaker ended, and those the line limit ended. */
  chatsEndedByModel: number;
  chatsEndedByCap: number;
  reflections: number;
  /** Decompositions taken from a stored lifestyle policy instead of the model. */
  policyReuses: number;
  /** At `nightStep`: asleep, and on the bed's tile (null when the living area has no bed). */
  asleepAtNight: boolean;
  inBedAtNight: boolean | null;
}

/**
 * The battery of the run in `runDir` (from its first logged step: a fork reads its own day, up to
 * `nightStep`), with "night" read after `nightStep` steps since the start of the run's line (its
 * parent's included).
 */
export function dayBattery(runDir: string, nightStep: number): ResidentDay[] {
  const scenario = readRunScenario(runDir);
  const world = TileWorld.fromScenario(scenario);
  const { events } = EventLog.read(path.join(runDir, LOG_FILE));
  // The day read ends at night: a longer run (a 24-hour bench day) is read up to it.
  const steps = events.filter((e): e is StepRecord => e.type === 'step' && e.step < nightStep);
  // A fork's log starts at its parent's snapshot: the day read is the fork's own.
  const start = frameAt(runDir, steps[0]?.step ?? 0);
  const night = frameAt(runDir, nightStep);
  return scenario.personas.map((persona) => {
    const id = persona.id;
    const startFrame = start.agents.find((a) => a.id === id);
    const nightFrame = night.agents.find((a) => a.id === id);
    const places: string[] = [];
    const visit = (x: number, y: number) => {
      const arena = world.addressAt({ x, y }, 'arena');
      if (arena && !places.includes(arena)) places.push(arena);
    };
    if (startFrame) visit(startFrame.x, startFrame.y);
    let wakeUp: string | null = null;
    const activities = new Set<string>();
    let chatsStarted = 0;
    let chatsEndedByModel = 0;
    let chatsEndedByCap = 0;
    let reflections = 0;
    for (const step of steps) {
      for (const move of step.moves) if (move.agent === id) visit(move.x, move.y);
      for (const action of step.actions) {
        if (action.agent !== id || action.description === SLEEP_ACTIVITY) continue;
        wakeUp ??= step.clock.slice(-5);
        activities.add(action.description);
      }
      for (const chat of step.chats) {
        if (!chat.participants.includes(id)) continue;
        if (chat.participants[0] === id) chatsStarted++;
        if (chat.endedBy === 'model') chatsEndedByModel++;
        if (chat.endedBy === 'cap') chatsEndedByCap++;
      }
      reflections += step.reflections.filter((r) => r.agent === id).length;
    }
    const policyReuses = events.filter(
      (e) =>
        e.type === 'cost' &&
        e.kind === 'policy.hit' &&
        e.agentId === id &&
        Number(e.step) < nightStep,
    ).length;
    const bed = bedOf(persona.livingArea, world);
    const bedTiles = bed ? world.tilesOf(bed) : [];
    return {
      id,
      name: `${persona.firstName} ${persona.lastName}`.trim(),
      wakeUp,
      activities: activities.size,
      places,
      chatsStarted,
      chatsEndedByModel,
      chatsEndedByCap,
      reflections,
      policyReuses,
      asleepAtNight: nightFrame?.action === SLEEP_ACTIVITY,
      inBedAtNight: bed
        ? !!nightFrame && bedTiles.includes(world.indexOf({ x: nightFrame.x, y: nightFrame.y }))
        : null,
    };
  });
}

/** The battery as a plain-text table, one resident a line. */
export function formatDayBattery(rows: readonly ResidentDay[]): string {
  const header =
    'resident             wake   acts places chats(started/model-end/cap-end) reflections reuses night';
  const lines = rows.map((r) =>
    [
      r.name.padEnd(20),
      (r.wakeUp ?? '-').padEnd(6),
      String(r.activities).padStart(4),
      String(r.places.length).padStart(6),
      `${r.chatsStarted}/${r.chatsEndedByModel}/${r.chatsEndedByCap}`.padStart(34),
      String(r.reflections).padStart(11),
      String(r.policyReuses).padStart(6),
      ` ${r.inBedAtNight === null ? 'no bed' : r.inBedAtNight ? 'in bed' : 'NOT in bed'}${r.asleepAtNight ? ', asleep' : ', awake'}`,
    ].join(' '),
  );
  return [header, ...lines].join('\n');
}
