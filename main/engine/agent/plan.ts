/**
 * Planning (Park et al. 2023 §4.3; reverie `persona/cognitive_modules/plan.py`), top down:
 * a new game day gets a wake-up hour, a broad plan and an hourly schedule; the block the agent
 * is in is decomposed into 5–15 minute tasks an hour at a time; each new task becomes an action
 * with a place from the agent's own spatial memory. Sleep is never decomposed and costs no call.
 */
import { formatAddress } from '../../../common/scenario/address';
import { actionPrompt, LOCATION_SEPARATOR, type ActionChoice } from '../prompts/action';
import { actNowPrompt } from '../prompts/actNow';
import { dailyRevisePrompt } from '../prompts/dailyRevise';
import { planDailyPrompt } from '../prompts/planDaily';
import { planDecomposePrompt } from '../prompts/planDecompose';
import { planHourlyPrompt, type HourlyBlock } from '../prompts/planHourly';
import { planWakePrompt } from '../prompts/planWake';
import { clockLabel } from '../sim/Clock';
import { costLayerOf, plans } from './ablation';
import type { Agent, CurrentAction, ScheduleBlock, Task } from './Agent';
import {
  actionCacheKey,
  cacheAction,
  lookupPolicy,
  recordAction,
  reusedAction,
  startRecording,
  startReuse,
} from './lifestylePolicy';
import { PLAN_EXPIRY_GAME_SECONDS } from './memory';
import { ask, recall, remember, type Mind } from './mind';
import { wanderingMemory } from './mindWandering';

const MINUTES_PER_DAY = 1440;
/** Decomposition horizon, game minutes: the reference decomposes the current hour. */
export const DECOMPOSE_WINDOW_MINUTES = 60;
/** Importance of the day-plan memory (reverie `_long_term_planning`: `thought_poignancy = 5`). */
export const DAY_PLAN_IMPORTANCE = 5;
/** Thoughts shown to the planning prompts, newest first. */
const RECENT_THOUGHTS_FOR_PLANNING = 5;
/** Memories the new-day revision reads (reverie retrieves ~30; kept short for small models). */
const MEMORIES_FOR_REVISION = 12;
/** Label of time the schedule leaves uncovered, before waking and after the last block. */
export const SLEEP_ACTIVITY = 'sleeping';

/** The newest thoughts and plans, newest first, for planning prompts. */
export function recentThoughts(agent: Agent): string[] {
  return agent.memory
    .latest(['thought', 'plan'], RECENT_THOUGHTS_FOR_PLANNING)
    .map((m) => m.description);
}

/**
 * {@link recentThoughts}, plus — with mind wandering on — one memory sampled from the agent's
 * memory clusters (AGA), so plans can pick up any topic of its life, not only the latest.
 */
export function planningThoughts(agent: Agent, mind: Mind): string[] {
  const thoughts = recentThoughts(agent);
  if (!costLayerOf(mind).mindWandering) return thoughts;
  const wandering = wanderingMemory(agent, mind);
  if (!wandering) return thoughts;
  return [...thoughts, `(comes to mind) ${wandering.description}`];
}

/**
 * Plans the game day that `mind.now` falls in, when the agent has not yet: on later days first
 * revises "currently" (daily.revise), then asks wake hour, broad plan and hourly schedule.
 * Returns true when it planned.
 */
export async function planNewDay(agent: Agent, mind: Mind): Promise<boolean> {
  const day = mind.clock.dayIndex(mind.now);
  if (agent.day === day) return false;
  if (!plans(mind)) {
    // Planning ablations: the day starts with no plan; each action comes from the moment.
    agent.day = day;
    return false;
  }
  const date = mind.clock.dateLabel(mind.now);
  if (agent.day !== null) {
    const memories = await recall(
      mind,
      agent,
      `${agent.name}'s plans and life`,
      MEMORIES_FOR_REVISION,
    );
    const revised = await ask(
      mind,
      agent,
      dailyRevisePrompt(agent.identity, { date, memories: memories.map((m) => m.description) }),
    );
    agent.identity = {
      ...agent.identity,
      currently: revised.currently,
      dailyPlanRequirement: revised.needs,
    };
  }
  const { wakeHour } = await ask(mind, agent, planWakePrompt(agent.identity, date));
  const thoughts = planningThoughts(agent, mind);
  const { plan } = await ask(
    mind,
    agent,
    planDailyPrompt(agent.identity, { date, wakeHour, recentThoughts: thoughts }),
  );
  const { schedule } = await ask(
    mind,
    agent,
    planHourlyPrompt(agent.identity, {
      date,
      fromHour: wakeHour,
      dailyPlan: plan,
      recentThoughts: thoughts,
    }),
  );
  agent.day = day;
  agent.wakeMinute = wakeHour * 60;
  agent.dailyPlan = plan;
  agent.schedule = layoutSchedule([], schedule, wakeHour * 60);
  agent.tasks = [];
  await remember(mind, agent, [
    {
      kind: 'plan',
      description: `This is ${agent.name}'s plan for ${date}: ${plan.join(', ')}`,
      importance: DAY_PLAN_IMPORTANCE,
      subject: agent.name,
      predicate: 'plan',
      object: date,
      expiresAt: mind.now + PLAN_EXPIRY_GAME_SECONDS,
    },
  ]);
  return true;
}

/**
 * Re-plans the rest of the day from the current hour (after a whisper): the schedule before it
 * stays, a new hourly schedule is asked for the rest, and current tasks are dropped.
 */
export async function replanRestOfDay(agent: Agent, mind: Mind): Promise<void> {
  if (!plans(mind)) {
    // No schedule to revise; the whisper's thought is in memory for the next moment.
    agent.replanPending = false;
    return;
  }
  const fromHour = Math.floor(mind.clock.minuteOfDay(mind.now) / 60);
  const { schedule } = await ask(
    mind,
    agent,
    planHourlyPrompt(agent.identity, {
      date: mind.clock.dateLabel(mind.now),
      fromHour,
      dailyPlan: agent.dailyPlan,
      recentThoughts: planningThoughts(agent, mind),
    }),
  );
  const kept = agent.schedule
    .filter((b) => b.startMinute < fromHour * 60)
    .map((b) => ({ ...b, minutes: Math.min(b.minutes, fromHour * 60 - b.startMinute) }));
  agent.schedule = layoutSchedule(kept, schedule, fromHour * 60);
  agent.tasks = [];
  agent.replanPending = false;
}

/**
 * Lays model blocks end to end from `fromMinute` after `kept`, fitted to the day: time before
 * the first block is sleep, a block running past midnight is cut there, and time the model left
 * uncovered at the end is sleep (the prompt asks it to end with sleep).
 */
export function layoutSchedule(
  kept: readonly ScheduleBlock[],
  blocks: readonly HourlyBlock[],
  fromMinute: number,
): ScheduleBlock[] {
  const out: ScheduleBlock[] = [...kept];
  const keptEnd = kept.length
    ? kept[kept.length - 1].startMinute + kept[kept.length - 1].minutes
    : 0;
  if (fromMinute > keptEnd) {
    out.push({
      activity: SLEEP_ACTIVITY,
      startMinute: keptEnd,
      minutes: fromMinute - keptEnd,
      asleep: true,
    });
  }
  let at = fromMinute;
  for (const block of blocks) {
    if (at >= MINUTES_PER_DAY) break;
    const minutes = Math.min(block.hours * 60, MINUTES_PER_DAY - at);
    out.push({ activity: block.activity, startMinute: at, minutes, asleep: block.asleep });
    at += minutes;
  }
  if (at < MINUTES_PER_DAY) {
    out.push({
      activity: SLEEP_ACTIVITY,
      startMinute: at,
      minutes: MINUTES_PER_DAY - at,
      asleep: true,
    });
  }
  return out;
}

/** The schedule block covering `minute` of the day (the schedule covers the whole day). */
export function blockAt(agent: Agent, minute: number): ScheduleBlock {
  const block = agent.schedule.find(
    (b) => minute >= b.startMinute && minute < b.startMinute + b.minutes,
  );
  if (!block) throw new Error(`${agent.name} has no schedule block at minute ${minute}`);
  return block;
}

/**
 * The decomposed task covering `minute`, decomposing the next window of the current block when
 * none does. `context` (e.g. a conversation just held) is passed to the decomposition prompt.
 */
export async function taskAt(
  agent: Agent,
  mind: Mind,
  minute: number,
  context = '',
): Promise<Task> {
  const covering = agent.tasks.find(
    (t) => minute >= t.startMinute && minute < t.startMinute + t.minutes,
  );
  if (covering) return covering;
  const block = blockAt(agent, minute);
  const start = Math.floor(minute);
  const end = Math.min(start + DECOMPOSE_WINDOW_MINUTES, block.startMinute + block.minutes);
  agent.tasks = await decompose(agent, mind, block.activity, start, end - start, context);
  return agent.tasks[0];
}

/**
 * Decomposes `activity` into tasks laid end to end over [start, start + minutes): a task
 * running past the window is cut, and the last task stretches to the end when the model's
 * tasks fall short. With the lifestyle policy on, a plain decomposition (no `context`) reuses a
 * stored policy when one fits, and otherwise is recorded to become one.
 */
export async function decompose(
  agent: Agent,
  mind: Mind,
  activity: string,
  start: number,
  minutes: number,
  context: string,
): Promise<Task[]> {
  const lifestyle = costLayerOf(mind).lifestylePolicy;
  // Whatever was being recorded or replayed is over: its window is being re-planned.
  if (lifestyle) agent.costLayer.policyRun = null;
  const day = mind.clock.dayIndex(mind.now);
  let embedding: number[] | null = null;
  if (lifestyle && context === '') {
    const found = await lookupPolicy(agent, mind, activity, knownLocations(agent, mind));
    embedding = found.embedding;
    if (found.hit) {
      const reused = layoutTasks(found.policy.tasks, start, minutes);
      startReuse(agent, found.policy, found.embedding, day, reused);
      mind.costLayer?.note({
        kind: 'policy.hit',
        agentId: agent.id,
        plan: activity,
        policyId: found.policy.id,
        similarity: found.similarity,
      });
      return reused;
    }
    mind.costLayer?.note({
      kind: 'policy.miss',
      agentId: agent.id,
      plan: activity,
      similarity: found.similarity,
      reason: found.reason,
    });
  }
  const { tasks } = await ask(
    mind,
    agent,
    planDecomposePrompt(agent.identity, {
      date: mind.clock.dateLabel(mind.now),
      activity,
      startClock: clockLabel(start),
      minutes,
      context,
    }),
  );
  const out = layoutTasks(tasks, start, minutes);
  if (embedding) startRecording(agent, activity, embedding, day, out);
  return out;
}

/** Lays `tasks` end to end over [start, start + minutes) (see {@link decompose}). */
function layoutTasks(
  tasks: readonly { task: string; minutes: number }[],
  start: number,
  minutes: number,
): Task[] {
  const out: Task[] = [];
  let at = start;
  const end = start + minutes;
  for (const t of tasks) {
    if (at >= end) break;
    const length = Math.min(t.minutes, end - at);
    out.push({ task: t.task, startMinute: at, minutes: length });
    at += length;
  }
  const last = out[out.length - 1];
  last.minutes = end - last.startMinute;
  return out;
}

/**
 * Every place the agent knows that exists on the map, as "sector > arena > object" (or
 * "sector > arena" for an arena with no known object), the current arena's places first.
 */
export function knownLocations(agent: Agent, mind: Mind): string[] {
  const world = mind.world;
  const here = world.details(agent.tile);
  const local: string[] = [];
  const rest: string[] = [];
  for (const sector of agent.spatial.sectors()) {
    for (const arena of agent.spatial.arenas(sector)) {
      const arenaAddress = formatAddress(world.worldName, sector, arena);
      if (!world.hasAddress(arenaAddress)) continue;
      const into = here && here.sector === sector && here.arena === arena ? local : rest;
      const objects = agent.spatial
        .objects(sector, arena)
        .filter((o) => world.hasAddress(formatAddress(arenaAddress, o)));
      if (objects.length === 0) into.push([sector, arena].join(LOCATION_SEPARATOR));
      for (const o of objects) into.push([sector, arena, o].join(LOCATION_SEPARATOR));
    }
  }
  return [...local, ...rest];
}

/** Turns a "sector > arena[ > object]" choice back into addresses. */
export function locationAddresses(
  worldName: string,
  location: string,
): { address: string; objectAddress: string | null } {
  const parts = location.split(LOCATION_SEPARATOR);
  const address = formatAddress(worldName, ...parts);
  return { address, objectAddress: parts.length === 3 ? address : null };
}

/**
 * True when the agent sleeps at `mind.now`: by its schedule, or — without planning — while its
 * current (unplanned) action is sleep.
 */
export function restsNow(agent: Agent, mind: Mind): boolean {
  if (!plans(mind)) return agent.isAsleep() && (agent.action?.endsAt ?? 0) > mind.now;
  return blockAt(agent, mind.clock.minuteOfDay(mind.now)).asleep;
}

/** Memories the unplanned (ablation) action prompt reads, newest first. */
const MEMORIES_FOR_MOMENT = 5;

/**
 * The action the agent should start now, or null to keep the current one. An action lasts until
 * its task ends; sleep goes to the living area with no model call.
 */
export async function nextAction(agent: Agent, mind: Mind): Promise<CurrentAction | null> {
  const { clock, now } = mind;
  if (agent.action && agent.action.endsAt > now) return null;
  if (!plans(mind)) return momentAction(agent, mind);
  const day = clock.dayIndex(now);
  const minute = clock.minuteOfDay(now);
  const block = blockAt(agent, minute);
  if (block.asleep) {
    return sleepAction(agent, mind, {
      endsAt: clock.gameSecondsOf(day, block.startMinute + block.minutes),
      taskKey: `${day}@${block.startMinute}`,
    });
  }
  const task = await taskAt(agent, mind, minute);
  const choice = costLayerOf(mind).lifestylePolicy
    ? await reuseOrChooseAction(agent, mind, task, day)
    : await chooseAction(agent, mind, task.task);
  return actionOf(mind, task.task, choice, {
    endsAt: clock.gameSecondsOf(day, task.startMinute + task.minutes),
    taskKey: `${day}@${task.startMinute}`,
  });
}

/** Asks where and how to do `task` among the places the agent knows (one `action` call). */
async function chooseAction(agent: Agent, mind: Mind, task: string): Promise<ActionChoice> {
  const locations = knownLocations(agent, mind);
  if (locations.length === 0) {
    throw new Error(
      `${agent.name} knows no place on the map (living area ${agent.identity.livingArea})`,
    );
  }
  const here = mind.world.addressAt(agent.tile, 'arena') ?? mind.world.worldName;
  return ask(
    mind,
    agent,
    actionPrompt(agent.identity, {
      now: mind.clock.label(mind.now),
      task,
      currentPlace: here,
      locations,
    }),
  );
}

/**
 * The lifestyle-policy path of choosing an action: the replayed policy's stored action, else an
 * exact-match cached answer, else the model's; the answer is recorded into the decomposition
 * being recorded and cached.
 */
async function reuseOrChooseAction(
  agent: Agent,
  mind: Mind,
  task: Task,
  day: number,
): Promise<ActionChoice> {
  const locations = knownLocations(agent, mind);
  const reused = reusedAction(agent, task, day, locations);
  if (reused) return reused;
  const here = mind.world.addressAt(agent.tile, 'arena') ?? mind.world.worldName;
  const key = actionCacheKey(task.task, here, locations);
  let choice: ActionChoice | undefined = agent.costLayer.actionCache[key];
  if (choice) {
    mind.costLayer?.note({ kind: 'action.cached', agentId: agent.id, task: task.task });
  } else {
    choice = await chooseAction(agent, mind, task.task);
  }
  cacheAction(agent, key, choice);
  const { objectAddress } = locationAddresses(mind.world.worldName, choice.location);
  recordAction(agent, mind, task, day, choice, objectAddress);
  return choice;
}

/** The action for `task` done as `choice` says, from now until `timing.endsAt`. */
function actionOf(
  mind: Mind,
  task: string,
  choice: ActionChoice,
  timing: { endsAt: number; taskKey: string },
): CurrentAction {
  const { address, objectAddress } = locationAddresses(mind.world.worldName, choice.location);
  return {
    description: task,
    address,
    emoji: choice.emoji,
    predicate: choice.predicate,
    object: choice.object,
    objectAddress,
    objectState: objectAddress ? choice.objectState : null,
    startedAt: mind.now,
    endsAt: timing.endsAt,
    taskKey: timing.taskKey,
    withAgent: null,
  };
}

/** Sleep: in the agent's living area, no object, no model call. */
function sleepAction(
  agent: Agent,
  mind: Mind,
  timing: { endsAt: number; taskKey: string },
): CurrentAction {
  return {
    description: SLEEP_ACTIVITY,
    address: agent.identity.livingArea,
    emoji: '💤',
    predicate: 'is',
    object: 'sleeping',
    objectAddress: null,
    objectState: null,
    startedAt: mind.now,
    endsAt: timing.endsAt,
    taskKey: timing.taskKey,
    withAgent: null,
  };
}

/**
 * The planning ablations' action: with no schedule, the agent decides what to do from the
 * current moment alone (`act.now`), then where and how (`action`); sleep needs no place call.
 */
async function momentAction(agent: Agent, mind: Mind): Promise<CurrentAction> {
  const { clock, now } = mind;
  const day = clock.dayIndex(now);
  const minute = Math.floor(clock.minuteOfDay(now));
  const here = mind.world.addressAt(agent.tile, 'arena') ?? mind.world.worldName;
  const moment = await ask(
    mind,
    agent,
    actNowPrompt(agent.identity, {
      now: clock.label(now),
      place: here,
      previous: agent.activityLabel(),
      recent: agent.memory
        .latest(['observation', 'chat', 'thought', 'plan'], MEMORIES_FOR_MOMENT)
        .map((m) => m.description),
    }),
  );
  const endsAt = now + moment.minutes * 60;
  const taskKey = `${day}@${minute}`;
  if (moment.asleep) return sleepAction(agent, mind, { endsAt, taskKey });
  const choice = await chooseAction(agent, mind, moment.activity);
  return actionOf(mind, moment.activity, choice, { endsAt, taskKey });
}
