/**
 * The figures behind the run view's charts (common/api/runs.ts `RunStats`), computed from a
 * run's event log: model calls, tokens and time per cognitive function; tokens and time per
 * game hour by function, with the conversations started in that hour; and how often every pair
 * of people talked. A fork counts what its own log holds (the calls made after the fork).
 */
import path from 'node:path';
import type { RunStats } from '../../../common/api/runs';
import type { Scenario } from '../../../common/scenario/schema';
import { Clock } from './Clock';
import { logCache } from './logCache';
import { LOG_FILE, readRunScenario, type LoggedConversation } from './runFiles';
import type { LogEvent } from './types';

/** A log already read, with the scenario of its run. */
export interface StatsSource {
  events: readonly LogEvent[];
  scenario: Scenario;
}

const STATS_TYPES: ReadonlySet<string> = new Set(['llm', 'step', 'join']);

interface LlmLine {
  step: number;
  fn: string;
  usage?: { promptTokens?: number; completionTokens?: number };
  ms?: number;
}

/** Statistics of the run in `source` (a run directory, or its events and scenario). */
export function runStats(source: string | StatsSource): RunStats {
  const { events, scenario } =
    typeof source === 'string'
      ? {
          events: logCache.read(path.join(source, LOG_FILE), STATS_TYPES),
          scenario: readRunScenario(source),
        }
      : source;
  const clock = new Clock(scenario.settings.startTime, scenario.settings.secondsPerStep);
  // Game hours are clock hours: hour 0 is the one the run starts in.
  const startSecond = Math.round(clock.minuteOfDay(0) * 60);
  const firstHour = Math.floor(startSecond / 3600);
  const hourOf = (gameSeconds: number) =>
    Math.floor((startSecond + Math.max(0, gameSeconds)) / 3600) - firstHour;

  const perFunction = new Map<string, RunStats['perFunction'][number]>();
  const hours: {
    tokensByFn: Record<string, number>;
    msByFn: Record<string, number>;
    conversations: number;
  }[] = [];
  const hour = (h: number) => {
    while (hours.length <= h) hours.push({ tokensByFn: {}, msByFn: {}, conversations: 0 });
    return hours[h];
  };
  const people = scenario.personas.map((p) => ({
    id: p.id,
    name: `${p.firstName} ${p.lastName}`.trim(),
  }));
  const chats: LoggedConversation[] = [];

  for (const e of events) {
    if (e.type === 'llm') {
      const call = e as unknown as LlmLine;
      const prompt = call.usage?.promptTokens ?? 0;
      const completion = call.usage?.completionTokens ?? 0;
      const ms = call.ms ?? 0;
      const total = perFunction.get(call.fn) ?? {
        fn: call.fn,
        calls: 0,
        promptTokens: 0,
        completionTokens: 0,
        ms: 0,
      };
      total.calls++;
      total.promptTokens += prompt;
      total.completionTokens += completion;
      total.ms += ms;
      perFunction.set(call.fn, total);
      const h = hour(hourOf(clock.gameSecondsAt(call.step)));
      h.tokensByFn[call.fn] = (h.tokensByFn[call.fn] ?? 0) + prompt + completion;
      h.msByFn[call.fn] = (h.msByFn[call.fn] ?? 0) + ms;
    } else if (e.type === 'step') {
      hour(hourOf(e.gameTime as number));
      for (const chat of (e.chats as LoggedConversation[] | undefined) ?? []) {
        hour(hourOf(chat.startedAt)).conversations++;
        chats.push(chat);
      }
    } else if (e.type === 'join' && e.ok) {
      // A resident who joined as a new person (sim/residents.ts) talks like anyone else.
      const frame = (e.result as { frame?: { id: string; name: string } } | undefined)?.frame;
      if (frame && !people.some((p) => p.id === frame.id)) {
        people.push({ id: frame.id, name: frame.name });
      }
    }
  }

  const index = new Map(people.map((p, i) => [p.id, i]));
  const matrix = people.map(() => people.map(() => 0));
  for (const { participants } of chats) {
    const a = index.get(participants[0]);
    const b = index.get(participants[1]);
    if (a === undefined || b === undefined || a === b) continue;
    matrix[a][b]++;
    matrix[b][a]++;
  }

  return {
    perFunction: [...perFunction.values()].sort((a, b) => (a.fn < b.fn ? -1 : 1)),
    perHour: hours.map((h, i) => ({
      hour: i,
      clock: clock.label((firstHour + i) * 3600 - startSecond),
      ...h,
    })),
    relationships: { agents: people, conversations: matrix },
  };
}
