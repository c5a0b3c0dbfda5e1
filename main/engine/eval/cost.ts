/**
 * Token and time cost of a run, from its event log's `llm` lines alone (ARCHITECTURE §7 "tokens
 * per agent per game day by cognitive function"). Only calls that belong to the run count:
 * those with a replay sequence number (`seq`). Interviews asked through `Simulation.interview`
 * are logged without one (they do not change the run) and are totalled apart. Calls re-served
 * from the log after a resume (`fromLog`) stand for the original calls, which the resume
 * removed from the log, so they count.
 *
 * Game days covered = step lines × secondsPerStep / 86 400.
 */
import type { LogEvent } from '../sim/EventLog';

/** Totals of one group of calls. */
export interface CostTotals {
  calls: number;
  promptTokens: number;
  cachedTokens: number;
  completionTokens: number;
  ms: number;
}

/** The cost table of one run. */
export interface RunCost {
  agents: number;
  steps: number;
  gameDays: number;
  total: CostTotals;
  byFunction: Record<string, CostTotals>;
  byAgent: Record<string, CostTotals>;
  /** total / (agents × gameDays), per function; tokens and ms per agent per game day. */
  perAgentDay: Record<string, CostTotals>;
  /** Calls outside the run (interviews without a sequence number). */
  outsideRun: CostTotals;
}

export const SECONDS_PER_GAME_DAY = 86_400;

export function emptyTotals(): CostTotals {
  return { calls: 0, promptTokens: 0, cachedTokens: 0, completionTokens: 0, ms: 0 };
}

export function addCall(t: CostTotals, usage: Partial<CostTotals>, ms: number): void {
  t.calls++;
  t.promptTokens += usage.promptTokens ?? 0;
  t.cachedTokens += usage.cachedTokens ?? 0;
  t.completionTokens += usage.completionTokens ?? 0;
  t.ms += ms;
}

function scaled(t: CostTotals, by: number): CostTotals {
  const f = by > 0 ? 1 / by : 0;
  return {
    calls: t.calls * f,
    promptTokens: t.promptTokens * f,
    cachedTokens: t.cachedTokens * f,
    completionTokens: t.completionTokens * f,
    ms: t.ms * f,
  };
}

function sorted<T>(map: Map<string, T>): Record<string, T> {
  return Object.fromEntries([...map].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/** Agent key for calls without an agent (town-level calls). */
export const NO_AGENT_KEY = '(none)';

/** The cost table of a run's events. */
export function runCost(
  events: readonly LogEvent[],
  agents: number,
  secondsPerStep: number,
): RunCost {
  const total = emptyTotals();
  const outsideRun = emptyTotals();
  const byFunction = new Map<string, CostTotals>();
  const byAgent = new Map<string, CostTotals>();
  let steps = 0;
  for (const e of events) {
    if (e.type === 'step') steps++;
    if (e.type !== 'llm' || typeof e.fn !== 'string') continue;
    const usage = (e.usage ?? {}) as Partial<CostTotals>;
    const ms = typeof e.ms === 'number' ? e.ms : 0;
    if (typeof e.seq !== 'number') {
      addCall(outsideRun, usage, ms);
      continue;
    }
    const agent = typeof e.agentId === 'string' ? e.agentId : NO_AGENT_KEY;
    if (!byFunction.has(e.fn)) byFunction.set(e.fn, emptyTotals());
    if (!byAgent.has(agent)) byAgent.set(agent, emptyTotals());
    addCall(total, usage, ms);
    addCall(byFunction.get(e.fn)!, usage, ms);
    addCall(byAgent.get(agent)!, usage, ms);
  }
  const gameDays = (steps * secondsPerStep) / SECONDS_PER_GAME_DAY;
  const agentDays = agents * gameDays;
  const perAgentDay: Record<string, CostTotals> = { total: scaled(total, agentDays) };
  for (const [fn, t] of byFunction) perAgentDay[fn] = scaled(t, agentDays);
  return {
    agents,
    steps,
    gameDays,
    total,
    byFunction: sorted(byFunction),
    byAgent: sorted(byAgent),
    perAgentDay,
    outsideRun,
  };
}
