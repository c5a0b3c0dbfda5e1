/**
 * What one step did, as the log keeps it, and the interventions it lists. Kept apart from
 * Simulation.ts so the pieces that build a step (groupStep.ts) and the views that read one
 * share the types without the whole simulation.
 */
import type { Conversation } from '../agent/converse';
import type { LogEvent } from './EventLog';
import type { AgentLook } from './frames';

/** A queued or applied intervention. */
export interface QueuedIntervention {
  name: string;
  args: unknown;
  /**
   * Applied between steps (Simulation.applyNow, residents) rather than queued: listed first in
   * the next step record, which replay re-applies at the start of that step.
   */
  now?: true;
}

/** What applying an intervention came to. */
export interface InterventionOutcome {
  ok: boolean;
  result?: unknown;
  error?: string;
}

/** An intervention applied between steps, as snapshots and step records keep it. */
export type AppliedNow = QueuedIntervention & InterventionOutcome & { now: true };

/** What one step did, as written to the log (`type: 'step'`). */
export interface StepRecord extends LogEvent {
  type: 'step';
  /** Index of the step (0 = the first), game seconds at its start, and that time as a label. */
  step: number;
  gameTime: number;
  clock: string;
  interventions: (QueuedIntervention & InterventionOutcome)[];
  moves: { agent: string; x: number; y: number }[];
  reactions: { agent: string; other: string; decision: string }[];
  chats: Conversation[];
  reflections: { agent: string; questions: string[]; insights: string[] }[];
  actions: {
    agent: string;
    description: string;
    address: string;
    emoji: string;
    event: [string, string, string];
    unreachable?: string;
  }[];
  /** Objects whose state changed during the step, by address. */
  objects: { address: string; state: string }[];
  /**
   * Agents whose frame (sim/frames.ts) other than the position changed during the step, as it
   * is after it; past frames are rebuilt from these.
   */
  looks: AgentLook[];
}
