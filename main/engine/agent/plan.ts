/**
 * Planning (Park et al. 2023 §4.3; reverie `persona/cognitive_modules/plan.py`), top down:
 * a new game day gets a wake-up hour, a broad plan and an hourly schedule; the block the agent
 * is in is decomposed once, for its whole remaining length, into 5–60 minute tasks (reverie
 * `generate_task_decomp(persona, act_desp, act_dura)`); each new task becomes an action
 * with a place from the agent's own spatial memory. Sleep is never decomposed and costs no call.
 */
import { formatAddress } from '../../../common/scenario/address';
import { actionPrompt, LOCATION_SEPARATOR, type ActionChoice } from '../prompts/action';
import { actNowPrompt } from '../prompts/actNow';
import { keptPlan } from '../prompts/planDaily';
import { planDecomposePrompt, SHORTEST_TASK_MINUTES } from '../prompts/planDecompose';
import { isExampleActivity } from '../prompts/planHourly';
import { planWakePrompt } from '../prompts/planWake';
import { progressive } from '../prompts/verbPhrase';
import { clockLabel } from '../sim/Clock';
import { objectStateOf } from '../world/objectState';
import { conditionsOf, costLayerOf, plans } from './ablation';
import type { Agent, CurrentAction, ScheduleBlock, Task } from './Agent';
import { askDayPlan, guardedPlan } from './dayPlanItems';
import { reviseForNewDay } from './dayRevision';
import {
  closeRecording,
  lookupPolicy,
  recordAction,
  reusedAction,
  startRecording,
  startReuse,
} from './lifestylePolicy';
import { PLAN_EXPIRY_GAME_SECONDS } from './memory';
import { ask, remember, type Mind } from './mind';
import { earlierChoice, keepChoice } from './placeChoices';
import { placesFor } from './placeRelevance';
import {
  awakeActivities,
  bedtimeFor,
  layoutSchedule,
  layoutTasks,
  SLEEP_ACTIVITY,
} from './schedule';
import { planningThoughts } from './planMemory';
import { askSchedule } from './scheduleVariety';

/** Importance of the day-plan memory (reverie `_long_term_planning`: `thought_poignancy = 5`). */
export const DAY_PLAN_IMPORTANCE = 5;
/**
 * Plans the game day that `mind.now` falls in, when the agent has not yet: asks the wake hour,
 * the broad plan and the hourly schedule. On later days it first revises "currently" and today's
 * needs from dated statements (see {@link reviseForNewDay}) and keeps the broad plan it had
 * (reverie `_long_term_planning`: a new day keeps `daily_req`), so only the hourly schedule is
 * asked anew: a routine can come round again, and the lifestyle policy can serve it.
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
    await reviseForNewDay(
      agent,
      mind,
      date,
      mind.clock.dateLabel(mind.clock.gameSecondsOf(day - 1, 0)),
    );
  }
  const { wakeHour } = await ask(
    mind,
    agent,
    planWakePrompt(agent.identity, date, conditionsOf(mind).guards),
  );
  const thoughts = await planningThoughts(agent, mind);
  // On later days the day plan stays as it was, as in reverie; the revised status and plan
  // note, and the recent thoughts, reach the day through its hourly schedule. Keyed on the plan
  // itself, not on `agent.day`: a day run with planning off (an ablation) leaves none to keep.
  const plan =
    agent.dailyPlan.length > 0
      ? guardedPlan(keptPlan(agent.dailyPlan, wakeHour), mind)
      : await askDayPlan(agent, mind, { date, wakeHour, recentThoughts: thoughts });
  // With the lifestyle policy on, the new day's schedule is shown yesterday's as the resident's
  // routine (AGA's premise: a resident's days are much alike, so their decompositions can be
  // reused). Asked without it, a small model samples a new day each morning and yesterday's
  // policies fit none of its blocks (docs/deviations.md "Yesterday's routine"). A block copied
  // from a worked example is the example's day, not shown back as theirs (`workedExamples`).
  const copiedExample = (a: string) =>
    conditionsOf(mind).guards.workedExamples && isExampleActivity(a);
  const yesterday =
    agent.day !== null && costLayerOf(mind).lifestylePolicy
      ? awakeActivities(agent.schedule).filter((a) => !copiedExample(a))
      : [];
  const schedule = await askSchedule(agent, mind, {
    date,
    fromHour: wakeHour,
    dailyPlan: plan,
    recentThoughts: thoughts,
    ...(yesterday.length ? { yesterday } : {}),
  });
  agent.day = day;
  agent.wakeMinute = wakeHour * 60;
  agent.dailyPlan = plan;
  agent.schedule = layoutSchedule(
    [],
    schedule,
    wakeHour * 60,
    bedtimeFor(agent.identity.lifestyle, conditionsOf(mind).guards),
    conditionsOf(mind).guards.mergeRepeats,
  );
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
  const schedule = await askSchedule(agent, mind, {
    date: mind.clock.dateLabel(mind.now),
    fromHour,
    dailyPlan: agent.dailyPlan,
    recentThoughts: await planningThoughts(agent, mind),
  });
  const kept = agent.schedule
    .filter((b) => b.startMinute < fromHour * 60)
    .map((b) => ({ ...b, minutes: Math.min(b.minutes, fromHour * 60 - b.startMinute) }));
  agent.schedule = layoutSchedule(
    kept,
    schedule,
    fromHour * 60,
    bedtimeFor(agent.identity.lifestyle, conditionsOf(mind).guards),
    conditionsOf(mind).guards.mergeRepeats,
  );
  agent.tasks = [];
  agent.replanPending = false;
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
 * The decomposed task covering `minute`; when none does, the rest of the current block (from
 * `minute` to its end) is decomposed at once, as reverie decomposes a whole block.
 */
export async function taskAt(agent: Agent, mind: Mind, minute: number): Promise<Task> {
  const covering = agent.tasks.find(
    (t) => minute >= t.startMinute && minute < t.startMinute + t.minutes,
  );
  if (covering) return covering;
  const block = blockAt(agent, minute);
  const start = Math.floor(minute);
  const end = block.startMinute + block.minutes;
  agent.tasks = await decompose(agent, mind, block.activity, start, end - start, '');
  return agent.tasks[0];
}

/** Key of the schedule block covering `minute` of `day`: `<day>@<startMinute>`. */
export function blockKeyAt(agent: Agent, day: number, minute: number): string {
  return `${day}@${blockAt(agent, minute).startMinute}`;
}

/** Something that interrupts the current decomposition: a chat or a wait. */
export interface Interruption {
  /** The task it becomes, e.g. "conversing with Bo Park". */
  task: string;
  /** Game seconds since run start. */
  startedAt: number;
  endsAt: number;
  /** What the re-decomposition of the rest is told, e.g. "just talked with Bo Park about …". */
  context: string;
}

/**
 * Re-plans the rest of the current block around an interruption (reverie `_create_react` →
 * `generate_new_decomp_schedule`, used for both chats and waits): the tasks before it stay,
 * the interruption takes its time, and the block's remaining minutes are decomposed again
 * with the interruption as context.
 */
export async function replanAround(agent: Agent, mind: Mind, event: Interruption): Promise<void> {
  // Without planning there is no decomposition to revise: the next moment decides afresh.
  if (!plans(mind)) return;
  // The decomposition being recorded ends here, interrupted (kept as far as it worked), also
  // when the interruption runs to the end of the block and nothing is decomposed again.
  if (costLayerOf(mind).lifestylePolicy) closeRecording(agent, mind, true);
  const { clock } = mind;
  const startMinute = Math.floor(clock.minuteOfDay(event.startedAt));
  const endMinute = Math.ceil(
    clock.minuteOfDay(event.startedAt) + (event.endsAt - event.startedAt) / 60,
  );
  const block = blockAt(agent, startMinute);
  const blockEnd = block.startMinute + block.minutes;
  const before = agent.tasks
    .filter((t) => t.startMinute < startMinute)
    .map((t) => ({ ...t, minutes: Math.min(t.minutes, startMinute - t.startMinute) }))
    .filter((t) => t.minutes > 0);
  const inserted = { task: event.task, startMinute, minutes: Math.max(1, endMinute - startMinute) };
  // The interruption lasts to the end of its task's last minute, so its task is not taken up
  // again as a new action in the seconds between its end and the next task.
  const action = agent.action;
  if (action && action.startedAt === event.startedAt && action.endsAt === event.endsAt) {
    action.endsAt = clock.gameSecondsOf(
      clock.dayIndex(event.startedAt),
      inserted.startMinute + inserted.minutes,
    );
  }
  if (block.asleep || endMinute >= blockEnd) {
    agent.tasks = [...before, inserted];
    return;
  }
  const after = await decompose(
    agent,
    mind,
    block.activity,
    endMinute,
    blockEnd - endMinute,
    interruptionContext(event.context, agent.tasks, [...before, inserted]),
  );
  agent.tasks = [...before, inserted, ...after];
}

/**
 * What the re-decomposition after an interruption is told (reverie
 * `generate_new_decomp_schedule` shows the block's originally planned tasks and the tasks done
 * up to the interruption, the interruption last): `why`, then both lists as "HH:MM task".
 */
export function interruptionContext(
  why: string,
  planned: readonly Task[],
  done: readonly Task[],
): string {
  const list = (tasks: readonly Task[]) =>
    tasks.map((t) => `${clockLabel(t.startMinute)} ${t.task}`).join(', ');
  return [
    why,
    ...(planned.length ? [`planned before: ${list(planned)}`] : []),
    `done so far: ${list(done)}`,
  ].join('; ');
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
  // Whatever was being recorded or replayed is over: a new block begins (the recording ran its
  // course) or this one is re-planned around an interruption (`context`).
  if (lifestyle) closeRecording(agent, mind, context !== '');
  const mergeRepeats = conditionsOf(mind).guards.mergeRepeats;
  // Too short for two tasks (the remainder of a block after an interruption, say): the
  // activity is its one task, and nothing is asked (issue 22: no call for what needs none).
  if (minutes < 2 * SHORTEST_TASK_MINUTES)
    return layoutTasks([{ task: activity, minutes }], start, minutes, mergeRepeats);
  const day = mind.clock.dayIndex(mind.now);
  const block = blockKeyAt(agent, day, start);
  let embedding: number[] | null = null;
  if (lifestyle && context === '') {
    const found = await lookupPolicy(agent, mind, activity, knownLocations(agent, mind), block);
    embedding = found.embedding;
    if (found.hit) {
      const reused = layoutTasks(found.policy.tasks, start, minutes, mergeRepeats);
      startReuse(agent, found.policy, found.embedding, day, reused, block);
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
    planDecomposePrompt(
      agent.identity,
      {
        date: mind.clock.dateLabel(mind.now),
        activity,
        startClock: clockLabel(start),
        minutes,
        context,
      },
      { endAtRepeat: conditionsOf(mind).guards.taskRepeats },
    ),
  );
  const out = layoutTasks(tasks, start, minutes, mergeRepeats);
  if (embedding) startRecording(agent, activity, embedding, day, out, block);
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
    if (costLayerOf(mind).lifestylePolicy) closeRecording(agent, mind, false);
    return sleepAction(agent, mind, {
      endsAt: clock.gameSecondsOf(day, block.startMinute + block.minutes),
      taskKey: `${day}@${block.startMinute}`,
    });
  }
  const task = await taskAt(agent, mind, minute);
  const choice = costLayerOf(mind).lifestylePolicy
    ? await reuseOrChooseAction(agent, mind, task, block.activity, day)
    : await chooseAction(
        agent,
        mind,
        task.task,
        await placesOffered(agent, mind, task.task, block.activity),
      );
  return actionOf(mind, task.task, choice, {
    endsAt: clock.gameSecondsOf(day, task.startMinute + task.minutes),
    taskKey: `${day}@${task.startMinute}`,
  });
}

/**
 * The places the `action` prompt offers for `task` within its schedule block `block`: the
 * known places most relevant to it (see placeRelevance.ts).
 */
async function placesOffered(
  agent: Agent,
  mind: Mind,
  task: string,
  block?: string,
): Promise<string[]> {
  const locations = knownLocations(agent, mind);
  if (locations.length === 0) {
    throw new Error(
      `${agent.name} knows no place on the map (living area ${agent.identity.livingArea})`,
    );
  }
  return placesFor(agent, mind, task, locations, block);
}

/** Asks where and how to do `task` among `offered` places (one `action` call). */
async function chooseAction(
  agent: Agent,
  mind: Mind,
  task: string,
  offered: string[],
): Promise<ActionChoice> {
  const here = mind.world.addressAt(agent.tile, 'arena') ?? mind.world.worldName;
  return ask(
    mind,
    agent,
    actionPrompt(agent.identity, {
      now: mind.clock.label(mind.now),
      task,
      currentPlace: here,
      locations: offered,
    }),
  );
}

/**
 * The lifestyle-policy path of choosing an action: the replayed policy's stored action, else an
 * earlier answer for the same task in the same or other words (placeChoices.ts), else the
 * model's; the answer is recorded into the decomposition being recorded and kept.
 */
async function reuseOrChooseAction(
  agent: Agent,
  mind: Mind,
  task: Task,
  block: string,
  day: number,
): Promise<ActionChoice> {
  const reused = reusedAction(agent, task, day, knownLocations(agent, mind));
  if (reused) return reused;
  const here = mind.world.addressAt(agent.tile, 'arena') ?? mind.world.worldName;
  const offered = await placesOffered(agent, mind, task.task, block);
  const earlier = await earlierChoice(agent, mind, task.task, here, offered);
  let choice: ActionChoice;
  if (earlier) {
    choice = earlier.action;
    mind.costLayer?.note({
      kind: 'action.cached',
      agentId: agent.id,
      task: task.task,
      from: earlier.task,
      similarity: Number(earlier.similarity.toFixed(3)),
    });
  } else {
    choice = await chooseAction(agent, mind, task.task, offered);
  }
  keepChoice(agent, task.task, here, choice);
  const { objectAddress } = locationAddresses(mind.world.worldName, choice.location);
  recordAction(agent, mind, task, day, choice, objectAddress);
  return choice;
}

/**
 * The action for `task` done as `choice` says, from now until `timing.endsAt`: its description
 * is the task in -ing form (it completes "<name> is …"), its event triple the same sentence
 * ("<name>", "is", "making tea"), as the product's own actions are ("is sleeping", "is idle"),
 * and the object's state a state phrase (world/objectState.ts).
 */
export function actionOf(
  mind: Mind,
  task: string,
  choice: ActionChoice,
  timing: { endsAt: number; taskKey: string },
): CurrentAction {
  const { address, objectAddress } = locationAddresses(mind.world.worldName, choice.location);
  // The task completes "<name> is …": "make tea and eat breakfast" → "making tea and …".
  const description = progressive(task);
  return {
    description,
    address,
    emoji: choice.emoji,
    predicate: 'is',
    object: description,
    objectAddress,
    objectState: objectAddress ? objectStateOf(choice.objectState) : null,
    startedAt: mind.now,
    endsAt: timing.endsAt,
    taskKey: timing.taskKey,
    withAgent: null,
  };
}

/** State a bed shows while slept in. */
export const BED_SLEEPING_STATE = 'being slept in';

/**
 * The bed of a living area (an arena address): its first object named "bed" (a whole word: not
 * "bedroom"), or null when it has none.
 */
export function bedOf(livingArea: string, world: Mind['world']): string | null {
  const prefix = `${livingArea}:`;
  return (
    world
      .addresses('object')
      .find((a) => a.startsWith(prefix) && /\bbed\b/i.test(a.slice(prefix.length))) ?? null
  );
}

/**
 * Sleep: in the bed of the agent's living area (the arena when it has no bed), no model call.
 * Reverie lets the model place sleep and it lands on the bed; here sleep costs no call, so
 * the bed is found by name.
 */
function sleepAction(
  agent: Agent,
  mind: Mind,
  timing: { endsAt: number; taskKey: string },
): CurrentAction {
  const bed = bedOf(agent.identity.livingArea, mind.world);
  return {
    description: SLEEP_ACTIVITY,
    address: bed ?? agent.identity.livingArea,
    emoji: '💤',
    predicate: 'is',
    object: 'sleeping',
    objectAddress: bed,
    objectState: bed ? BED_SLEEPING_STATE : null,
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
  const offered = await placesOffered(agent, mind, moment.activity);
  const choice = await chooseAction(agent, mind, moment.activity, offered);
  return actionOf(mind, moment.activity, choice, { endsAt, taskKey });
}
