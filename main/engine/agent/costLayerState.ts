/**
 * What the AGA cost layer keeps per agent, saved in the agent's snapshot: social memory per
 * acquaintance, the lifestyle policies the agent may reuse, the decomposition being recorded or
 * replayed from a policy, and the place choices the agent may reuse (placeChoices.ts). Snapshots
 * written before the cost layer existed parse to the empty state.
 */
import { z } from 'zod';

/** The `action` call's answer (prompts/action.ts `ActionChoice`), as stored. */
export const actionChoiceSchema = z.object({
  location: z.string(),
  emoji: z.string(),
  objectState: z.string(),
});

/** One object a policy used and the state it had, which must hold again for reuse. */
export const policyConditionSchema = z.object({ object: z.string(), state: z.string() });

/** A stored plan decomposition with its actions (AGA lifestyle policy). */
export const lifestylePolicySchema = z.object({
  /** Hash of plan and tasks: the same decomposition gets the same id in every run. */
  id: z.string(),
  /** The schedule activity that was decomposed. */
  plan: z.string(),
  /** Unit-length embedding of `plan`: the key reuse is decided on. */
  embedding: z.array(z.number()),
  /**
   * The decomposition's tasks with the action each was carried out as; null for the tasks a
   * chat or wait came before (the block was re-planned around it), whose place is chosen when
   * the policy is replayed (lifestylePolicy.ts `closeRecording`).
   */
  tasks: z.array(
    z.object({ task: z.string(), minutes: z.number(), action: actionChoiceSchema.nullable() }),
  ),
  condition: z.array(policyConditionSchema),
  /** Game clock label when it was stored (for the inspector). */
  storedAt: z.string(),
  /**
   * The embedder that produced `embedding` (costLayerCalibration.ts `embedderIdentity`): only
   * that embedder's cosines can be compared with it. Absent in policies stored before issue 22:
   * their embedder is unknown and they are never reused (they stay in the store).
   */
  embedder: z.string().optional(),
});
export type LifestylePolicy = z.infer<typeof lifestylePolicySchema>;

/** The decomposition in progress: being recorded as a new policy, or replayed from one. */
export const policyRunSchema = z.object({
  mode: z.enum(['record', 'reuse']),
  policyId: z.string().nullable(),
  plan: z.string(),
  embedding: z.array(z.number()),
  day: z.number().int(),
  /** The schedule block decomposed, `<day>@<startMinute>` (absent in older snapshots). */
  block: z.string().default(''),
  tasks: z.array(
    z.object({
      task: z.string(),
      startMinute: z.number(),
      minutes: z.number(),
      action: actionChoiceSchema.nullable(),
      /** The action was started and its place reached by a path (absent: older snapshots). */
      done: z.boolean().default(false),
    }),
  ),
  condition: z.array(policyConditionSchema),
});
export type PolicyRun = z.infer<typeof policyRunSchema>;

/** One acquaintance in social memory (AGA): relationship, feeling and the summary events. */
export const socialEntrySchema = z.object({
  relationship: z.string(),
  feeling: z.string(),
  summary: z.string(),
  /** Ids of the memories the summary covers; a retrieved id not here triggers an update. */
  sources: z.array(z.string()),
  /** Game seconds of the last update, or null while all is "unknown". */
  updatedAt: z.number().nullable(),
});
export type SocialEntry = z.infer<typeof socialEntrySchema>;

export const agentCostStateSchema = z.object({
  /** Acquaintance agent id → social memory entry. */
  social: z.record(z.string(), socialEntrySchema).default({}),
  policies: z.array(lifestylePolicySchema).default([]),
  policyRun: policyRunSchema.nullable().default(null),
  /**
   * `action` answers with the task and the area they were asked in, oldest first
   * (placeChoices.ts). Snapshots from before it kept an exact-input cache instead, which is
   * dropped: its keys were hashes, from which no task can be compared.
   */
  placeChoices: z
    .array(z.object({ task: z.string(), here: z.string(), action: actionChoiceSchema }))
    .default([]),
  /**
   * Policies stored or reused while decomposing one schedule block: a second decomposition of
   * the same block (the rest of it, after a re-plan) may not reuse them — that would count the
   * block's own plan as a saving.
   */
  blockPolicies: z
    .object({ block: z.string(), ids: z.array(z.string()) })
    .nullable()
    .default(null),
});
export type AgentCostState = z.infer<typeof agentCostStateSchema>;

/** The state of an agent that has used no part of the cost layer yet. */
export function emptyCostState(): AgentCostState {
  return { social: {}, policies: [], policyRun: null, placeChoices: [], blockPolicies: null };
}
