/**
 * What the cost layer tells the run it belongs to: a note for the event log on every decision
 * that replaces a model call (so a replay can be checked against the original and the cost
 * ledger can count savings), and every newly stored lifestyle policy (so the run can keep it
 * in the cross-run policy store).
 */
import type { Agent } from './Agent';
import type { LifestylePolicy } from './costLayerState';
import type { PolicyMissReason } from './lifestylePolicy';

/** One cost-layer decision, as written to the event log (`type: 'cost'`). */
export type CostLayerNote =
  | { kind: 'policy.hit'; agentId: string; plan: string; policyId: string; similarity: number }
  | {
      kind: 'policy.miss';
      agentId: string;
      plan: string;
      /** Best similarity found (null with no comparable policy) and why none was reused. */
      similarity: number | null;
      reason: PolicyMissReason;
    }
  | { kind: 'policy.stored'; agentId: string; plan: string; policyId: string }
  /** A recorded decomposition that did not work (an action's place was unreachable). */
  | { kind: 'policy.dropped'; agentId: string; plan: string; reason: 'unreachable' }
  /** The cross-run store could not take a new policy (the run keeps it). */
  | { kind: 'policy.unsaved'; agentId: string; policyId: string; error: string }
  /** An earlier `action` answer reused: for `from`, the same task or one `similarity` alike. */
  | { kind: 'action.cached'; agentId: string; task: string; from: string; similarity: number }
  | { kind: 'wander'; agentId: string; memoryIds: string[]; clusters: number };

export interface CostLayerHooks {
  note(note: CostLayerNote): void;
  policyStored(agent: Agent, policy: LifestylePolicy): void;
}
