/**
 * The event panel's lines, read from the run's log: the interventions of each step, kept
 * interviews, joins, forks and failures, described for a person (names, not ids).
 */
import type { LogEvent } from './runState';

/** How many log events the event panel keeps. */
export const EVENT_PANEL_LIMIT = 200;
/**
 * Log event types the event panel reads. Interventions are recorded inside `step` records (their
 * `interventions` list); interviews, joins and forks have lines of their own.
 */
export const PANEL_EVENT_TYPES = [
  'step',
  'interview',
  'intervention',
  'join',
  'leave',
  'say',
  'fork',
  'run.failed',
];

/** Log lines of the user's resident: each carries `name`, `args` and the outcome, as an intervention. */
const RESIDENT_LINES: ReadonlySet<string> = new Set(['join', 'say', 'leave']);

/** One line of the event panel. */
export interface EventEntry {
  step: number;
  kind: string;
  text: string;
  ok: boolean;
}

function str(v: unknown): string {
  return typeof v === 'string' ? v : v === undefined || v === null ? '' : JSON.stringify(v);
}

/** Describes an intervention's arguments for a person ("Isabella: the party is at 5"). */
function describeArgs(name: string, args: unknown, who: (id: unknown) => string): string {
  const a = (typeof args === 'object' && args !== null ? args : {}) as Record<string, unknown>;
  if (name === 'setObjectState') return `${str(a.address)} → ${str(a.state)}`;
  if (name === 'whisper') return `${who(a.agentId)} hears “${str(a.text)}”`;
  if (name === 'rememberedInterview') return `${who(a.agentId)} asked “${str(a.question)}”`;
  // The user's resident (Join.tsx): a newcomer or a person taken over, their words, leaving.
  if (name === 'join')
    return a.mode === 'takeover'
      ? `you play ${who(a.agentId)}`
      : `${[str(a.firstName), str(a.lastName)].filter(Boolean).join(' ')} joined the town`;
  if (name === 'say') return `${who(a.agentId)} to ${who(a.toAgentId)}: “${str(a.text)}”`;
  if (name === 'leave') return `you stopped playing ${who(a.agentId)}`;
  return str(args);
}

/**
 * People the log itself names: each resident who joined (the join line's result holds their id
 * and frame), so their lines read with a name even after they left the map.
 */
export function namesFromLog(events: readonly LogEvent[]): Map<string, string> {
  const names = new Map<string, string>();
  for (const e of events) {
    if (e.type !== 'join' || e.ok === false) continue;
    const result = (e.result ?? {}) as { agentId?: unknown; frame?: { name?: unknown } };
    if (typeof result.agentId === 'string' && typeof result.frame?.name === 'string')
      names.set(result.agentId, result.frame.name);
  }
  return names;
}

/** The panel's lines from raw log events: interventions of each step, then other records. */
export function eventEntries(
  events: readonly LogEvent[],
  names: ReadonlyMap<string, string> = new Map(),
): EventEntry[] {
  const out: EventEntry[] = [];
  const known = new Map([...namesFromLog(events), ...names]);
  const who = (id: unknown) => known.get(str(id)) ?? str(id);
  const intervention = (step: number, raw: unknown) => {
    const i = (raw ?? {}) as { name?: unknown; args?: unknown; ok?: unknown; error?: unknown };
    const name = str(i.name);
    const text =
      describeArgs(name, i.args, who) + (i.ok === false ? ` (refused: ${str(i.error)})` : '');
    out.push({ step, kind: name, text, ok: i.ok !== false });
  };
  for (const e of events) {
    if (e.type === 'step') {
      const list = Array.isArray(e.interventions) ? (e.interventions as unknown[]) : [];
      // Changes applied between steps (`now`) have their own `intervention` line already.
      for (const raw of list)
        if (!(raw as { now?: unknown } | null)?.now) intervention(e.step, raw);
    } else if (e.type === 'intervention' || RESIDENT_LINES.has(e.type)) {
      intervention(e.step, e);
    } else if (e.type === 'interview') {
      // Only interviews that were kept (they changed the person's memory); the others were
      // questions that left the run as it was.
      if (!e.remembered) continue;
      out.push({
        step: e.step,
        kind: 'interview (remembered)',
        text: `${who(e.agentId)}: “${str(e.question)}” → “${str(e.answer)}”`,
        ok: true,
      });
    } else if (e.type === 'fork') {
      // Listed at the fork point (the engine files the line just before the first new step).
      const p = (e.parent ?? {}) as { step?: unknown };
      const at = typeof p.step === 'number' ? p.step : e.step;
      out.push({ step: at, kind: 'fork', text: `forked at step ${at}`, ok: true });
    } else if (e.type === 'run.failed') {
      out.push({
        step: e.step,
        kind: e.phase === 'load' ? 'models did not load' : 'step failed',
        text: `${str(e.reason)} — ${str(e.remedy)}`,
        ok: false,
      });
    } else {
      const { type, step, ...rest } = e;
      out.push({ step, kind: type, text: str(rest), ok: true });
    }
  }
  return out;
}
