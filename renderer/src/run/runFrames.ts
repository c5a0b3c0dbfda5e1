/**
 * Pure helpers over live frames: the speech bubbles a step leaves, how the timeline grows as the
 * run steps, the snapshot a fork starts from, and the game time a step brings a run to.
 */
import type { RunFrame } from '../../../common/api/runs';
import type { Bubble, StepEvent, Timeline } from './runState';

/** Steps a speech bubble stays up (a step is ~10 game seconds; long enough to read). */
export const BUBBLE_STEPS = 6;

/** The agent in `frame` a conversation participant names (by id, else by name). */
export function participantId(frame: RunFrame | null, who: string): string {
  const a = frame?.agents.find((x) => x.id === who) ?? frame?.agents.find((x) => x.name === who);
  return a?.id ?? who;
}

/**
 * Bubbles after a step: expired ones dropped, one per speaker of each chat of the step (the
 * line they said last, "Name: words" with the name taken off).
 */
export function nextBubbles(
  current: Bubble[],
  frame: RunFrame,
  chats: StepEvent['chats'],
): Bubble[] {
  const kept = current.filter((b) => b.untilStep >= frame.step);
  for (const chat of chats) {
    for (const who of chat.participants) {
      const id = participantId(frame, who);
      const name = frame.agents.find((a) => a.id === id)?.name ?? who;
      const line = [...chat.transcript].reverse().find((l) => l.startsWith(`${name}:`));
      if (!line) continue;
      const text = line.slice(name.length + 1).trim();
      const i = kept.findIndex((b) => b.agent === id);
      const bubble = { agent: id, text, untilStep: frame.step + BUBBLE_STEPS };
      if (i >= 0) kept[i] = bubble;
      else kept.push(bubble);
    }
  }
  return kept;
}

/** The timeline after a live step: the run grew to `step`. */
export function growTimeline(timeline: Timeline | null, step: number): Timeline | null {
  if (!timeline || step <= timeline.steps) return timeline;
  return { ...timeline, steps: step };
}

/** The snapshot a fork from `step` starts at: the latest one at or before it. */
export function forkPoint(snapshots: readonly number[], step: number): number | null {
  let best: number | null = null;
  for (const s of snapshots) if (s <= step && (best === null || s > best)) best = s;
  return best;
}

/**
 * The game seconds a run covered itself at `frame`, as the service counts a summary's
 * `gameSeconds`: from its fork point for a fork (`frame.gameTime` counts from the town's start).
 */
export function ownGameSeconds(frame: Pick<RunFrame, 'step' | 'gameTime'>, from: number): number {
  if (frame.step <= 0) return 0;
  return (frame.gameTime * Math.max(0, frame.step - from)) / frame.step;
}
