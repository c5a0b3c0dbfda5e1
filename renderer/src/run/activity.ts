/**
 * What the live run is doing, in words, for the run view's progress line (issue 25): "Agnes:
 * planning the day · about 40 s left · 2 of 3 planned · also Tobias". Built from the service's
 * `runs.onDidProgress` activity: the model calls in flight (person, cognitive function, time),
 * who has planned the day, the steps asked for and the user's requests waiting their turn.
 */
import type { RunActivity } from '../../../common/api/runs';
import { duration } from './format';

/** Each cognitive function (the `fn` tag of main/engine/prompts) as what the person is doing. */
const DOING: Record<string, string> = {
  'plan.wake': 'deciding when to get up',
  'plan.daily': 'planning the day',
  'plan.hourly': 'planning the day hour by hour',
  'plan.decompose': 'breaking the next activity into tasks',
  'daily.revise': 'looking back on yesterday',
  action: 'choosing where to do the next task',
  'act.now': 'deciding what to do right now',
  importance: 'judging how much a moment matters',
  react: 'deciding how to react',
  'converse.turn': 'talking',
  'converse.summary': 'summing up a conversation',
  'converse.thoughts': 'thinking over a conversation',
  'converse.relationship': 'thinking about a relationship',
  'reflect.questions': 'reflecting on the day',
  'reflect.insights': 'drawing insights from memories',
  'social.summary': 'recalling what happened with someone',
  'social.update': 'updating feelings about someone',
  wander: 'letting the mind wander',
  whisper: 'taking in your whisper',
  interview: 'answering your question',
};

/** A cognitive function in words; an unknown one by its tag. */
export function doing(fn: string): string {
  return DOING[fn] ?? `thinking (${fn})`;
}

/** A person's first name, as the progress line is short. */
function firstName(name: string): string {
  return name.trim().split(/\s+/)[0] || name;
}

/**
 * How long a call has left: "about 40 s left" from the run's mean for its function; before one
 * has finished, how long it has run ("12 s so far"; null in its first second).
 */
export function timeLeft(call: { elapsedMs: number; expectedMs: number | null }): string | null {
  if (call.expectedMs === null)
    return call.elapsedMs < 1000 ? null : `${duration(call.elapsedMs / 1000)} so far`;
  const left = (call.expectedMs - call.elapsedMs) / 1000;
  if (left < 1) return 'longer than usual';
  return `about ${duration(left)} left`;
}

/** What a waiting request is, in words ("Your question to Agnes"). */
function requestLabel(w: RunActivity['waiting'][number]): string {
  const to = w.name ? ` to ${firstName(w.name)}` : '';
  if (w.kind === 'interview') return `Your question${to}`;
  if (w.kind === 'resident') return 'Your resident’s move';
  if (w.what === 'whisper') return `Your whisper${to}`;
  if (w.what === 'setObjectState') return 'Your change to an object';
  return `Your change${w.name ? ` for ${firstName(w.name)}` : ''}`;
}

/** The status bar's count of model calls: "1 running · 2 waiting". */
export function callsLabel(running: number, open: number): string {
  const waiting = Math.max(0, open - running);
  return waiting > 0
    ? `${running} running · ${waiting} waiting`
    : `${running} ${running === 1 ? 'call' : 'calls'} running`;
}

/**
 * The progress line's parts, most important first; empty when there is nothing to say (the run
 * idles). The caller joins them with " · ".
 */
export function activityParts(activity: RunActivity): string[] {
  const parts: string[] = [];
  const { calls, planned, work, waiting } = activity;
  if (work?.kind === 'step' && work.of > 1) parts.push(`Step ${work.done + 1} of ${work.of}`);
  const first = calls[0];
  if (first) {
    const who = first.name ? `${firstName(first.name)}: ` : '';
    parts.push(`${who}${doing(first.fn)}`);
    const left = timeLeft(first);
    if (left) parts.push(left);
  }
  if (planned.done < planned.of && (work || calls.some((c) => c.fn.startsWith('plan.')))) {
    parts.push(`${planned.done} of ${planned.of} planned`);
  }
  const others = [
    ...new Set(calls.slice(1).map((c) => (c.name ? firstName(c.name) : null))),
  ].filter((n): n is string => n !== null && n !== (first?.name ? firstName(first.name) : null));
  if (others.length) parts.push(`also ${others.join(', ')}`);
  if (!first && work) parts.push('no model call in flight');
  for (const w of waiting) parts.push(`${requestLabel(w)} waits for the steps in progress`);
  return parts;
}
