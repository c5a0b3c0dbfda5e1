/**
 * Lifestyle policy (Affordable Generative Agents): a plan decomposition that worked — the plan
 * text, its tasks with the place and event chosen for each, and the objects it used with the
 * states they had — is stored under the embedding of the plan text and the identity of the
 * embedder that made it. When the agent later has a plan whose embedding has cosine similarity
 * ≥ the threshold with a stored one of the same embedder, and that policy's condition holds in
 * the current world (every object it used still exists, is in a known place, and is in the
 * state it was in — or is held by the agent itself), the decomposition and its actions are
 * reused without a model call. The threshold is the one calibrated for the running embedder
 * (AGA's 0.97, set on ada-002, when it is not calibrated: costLayerCalibration.ts).
 *
 * A decomposition becomes a policy once it ran its course: every task's action was started and
 * the place it names was reachable (the run reports each outcome through {@link settleAction}).
 * One with an unreachable place did not work and is dropped. One a chat or a wait interrupted
 * (the block is re-planned around it) is kept too when what it got to do worked: the
 * decomposition is still the agent's way of doing that activity, the interruption came from
 * outside it, and AGA's own code stores every decomposition the moment it is made. Its tasks
 * after the interruption keep no action; their places are chosen when it is replayed. (Dropping
 * these lost the routines residents meet each other in: on SmolLM2, Willow Bend seed 44, 6 of
 * the 19 decompositions day 1 made were cut short by a chat, among them "read a book in the
 * library" and "read a book in the cafe", which day 2 asked again word for word.) A policy is
 * never reused for the block it came from (see `blockPolicies`). The `action` answers themselves
 * are also reused for the same task in other words (placeChoices.ts).
 *
 * Determinism: policies live in the agent's snapshot and a run starts from the copy of the
 * store it was created with (`policies.json` in the run directory), so resume and replay make
 * the same decisions; every hit and miss is noted in the event log.
 */
import { createHash } from 'node:crypto';
import { LOCATION_SEPARATOR, type ActionChoice } from '../prompts/action';
import { progressive } from '../prompts/verbPhrase';
import { costLayerOf } from './ablation';
import type { Agent, Task } from './Agent';
import type { LifestylePolicy, PolicyRun } from './costLayerState';
import { embedderIdentity, similaritySetting } from './costLayerCalibration';
import type { Mind } from './mind';
import { sameActivity } from './sameActivity';
import { activityVectors } from './textVectors';
import { cosine } from './vectors';

/**
 * Policies kept per agent, newest last; the oldest goes first when full. Bounds the snapshot
 * (each policy carries its embedding) and the lookup over a long run.
 */
export const POLICY_LIMIT = 300;

/** An embedding as stored: 7 significant digits (float32 precision), so snapshots stay small. */
export function storedEmbedding(vector: ArrayLike<number>): number[] {
  return Array.from(vector, (x) => Number(x.toPrecision(7)));
}

/**
 * Why no policy was reused: `none` stored, the best one not `similarity`-alike enough, the alike
 * ones' `condition` does not hold in the world, alike but for another `meal` (sameActivity.ts),
 * or every stored one learned by another `embedder` (or an unknown one).
 */
export type PolicyMissReason = 'none' | 'similarity' | 'condition' | 'embedder' | 'meal';

/** The result of looking for a policy: the tasks to reuse, or the plan embedding to record. */
export type PolicyLookup =
  | { hit: true; policy: LifestylePolicy; similarity: number; embedding: number[] }
  | {
      hit: false;
      embedding: number[];
      similarity: number | null;
      reason: PolicyMissReason;
    };

/**
 * True when `policy` can run now: every object it used exists, is in one of the agent's known
 * places, and is in the state it had when stored (or the agent itself holds it); every place it
 * chose is still one the agent knows. An object's state is its resting one ({@link restingState}).
 */
export function conditionHolds(
  agent: Agent,
  policy: Pick<LifestylePolicy, 'condition' | 'tasks'>,
  known: ReadonlySet<string>,
  mind: Pick<Mind, 'world' | 'objectHeld'>,
): boolean {
  if (!policy.tasks.every((t) => t.action === null || knowsPlace(known, t.action.location)))
    return false;
  return policy.condition.every(({ object, state }) => {
    const now = restingState(mind, object);
    if (now === undefined) return false;
    return now === state || agent.action?.objectAddress === object;
  });
}

/**
 * The state an object is in apart from whoever is using it: the default it goes back to while
 * a resident holds it (their "in use" or "being read" lasts only while they stay), else its
 * state. A condition recorded while someone else sat in the reading nook asked for it to be
 * "in use" again, and failed once it was free: on SmolLM2 (Willow Bend seed 44) two day-2
 * decompositions word for word the same as day 1's ("write a book", "go to the library") were
 * asked of the model again for that.
 */
function restingState(mind: Pick<Mind, 'world' | 'objectHeld'>, object: string) {
  return mind.objectHeld?.(object)
    ? mind.world.defaultObjectState(object)
    : mind.world.objectState(object);
}

/**
 * Whether `location` ("sector > arena[ > object]") is among the agent's `known` places, or is a
 * room it now knows object by object: a room is offered as a place of its own only until its
 * objects are known (plan.ts `knownLocations`), so a policy recorded on a first visit ("Larkspur
 * College > lecture hall") would otherwise never hold again once the lectern is known — on
 * SmolLM2, a day-2 "make tea and eat breakfast" identical to day 1's missed for that reason.
 */
function knowsPlace(known: ReadonlySet<string>, location: string): boolean {
  if (known.has(location)) return true;
  const inside = `${location}${LOCATION_SEPARATOR}`;
  for (const place of known) if (place.startsWith(inside)) return true;
  return false;
}

/** Notes that `policyId` was stored or reused for `block`, so that block cannot reuse it. */
function markBlockPolicy(agent: Agent, block: string, policyId: string): void {
  const current = agent.costLayer.blockPolicies;
  if (current?.block === block) {
    if (!current.ids.includes(policyId)) current.ids.push(policyId);
  } else {
    agent.costLayer.blockPolicies = { block, ids: [policyId] };
  }
}

/**
 * Finds the most similar stored policy for `plan` whose condition holds. `known` are the
 * agent's known locations as the `action` prompt offers them; `block` is the schedule block
 * being decomposed, whose own policies are left out.
 */
export async function lookupPolicy(
  agent: Agent,
  mind: Mind,
  plan: string,
  known: readonly string[],
  block: string,
): Promise<PolicyLookup> {
  const [vector] = await activityVectors.of(mind.embedder, [plan]);
  const embedding = storedEmbedding(vector);
  const threshold = similaritySetting('policySimilarity', mind.embedder, costLayerOf(mind)).value;
  const identity = embedderIdentity(mind.embedder);
  const own = agent.costLayer.blockPolicies;
  const sameBlock = new Set(own?.block === block ? own.ids : []);
  const candidates = agent.costLayer.policies.filter((policy) => !sameBlock.has(policy.id));
  const ranked = candidates
    // Another embedder's cosines mean something else (the store outlives embedder changes),
    // and a policy stored before embedders were recorded may come from any: left alone.
    .filter(
      (policy) => policy.embedder === identity && policy.embedding.length === embedding.length,
    )
    .map((policy) => ({ policy, similarity: cosine(embedding, policy.embedding) }))
    .sort((x, y) => y.similarity - x.similarity);
  if (ranked.length === 0) {
    const reason = candidates.length > 0 ? 'embedder' : 'none';
    return { hit: false, embedding, similarity: null, reason };
  }
  const knownSet = new Set(known);
  for (const { policy, similarity } of ranked) {
    if (similarity < threshold) break;
    // A breakfast routine does not serve lunch, however alike MiniLM finds them (sameActivity.ts).
    if (!sameActivity(policy.plan, plan, similarity, threshold)) continue;
    if (conditionHolds(agent, policy, knownSet, mind)) {
      return { hit: true, policy, similarity, embedding };
    }
  }
  const best = ranked[0].similarity;
  const reason = ranked.some((r) => sameActivity(r.policy.plan, plan, r.similarity, threshold))
    ? 'condition'
    : best < threshold
      ? 'similarity'
      : 'meal';
  return { hit: false, embedding, similarity: best, reason };
}

/** Starts replaying `policy` for the laid-out `tasks` of game day `day`. */
export function startReuse(
  agent: Agent,
  policy: LifestylePolicy,
  embedding: number[],
  day: number,
  tasks: readonly Task[],
  block: string,
): void {
  agent.costLayer.policyRun = {
    mode: 'reuse',
    policyId: policy.id,
    plan: policy.plan,
    embedding,
    day,
    block,
    tasks: tasks.map((t, i) => ({ ...t, action: policy.tasks[i].action, done: false })),
    condition: policy.condition,
  };
  markBlockPolicy(agent, block, policy.id);
}

/** Starts recording the model's decomposition `tasks` of `plan` as a candidate policy. */
export function startRecording(
  agent: Agent,
  plan: string,
  embedding: number[],
  day: number,
  tasks: readonly Task[],
  block: string,
): void {
  agent.costLayer.policyRun = {
    mode: 'record',
    policyId: null,
    plan,
    embedding,
    day,
    block,
    tasks: tasks.map((t) => ({ ...t, action: null, done: false })),
    condition: [],
  };
}

function slotOf(run: PolicyRun | null, task: Task, day: number) {
  if (!run || run.day !== day) return undefined;
  return run.tasks.find((t) => t.startMinute === task.startMinute && t.task === task.task);
}

/**
 * The stored action for `task` when the agent is replaying a policy and its place is still
 * known; otherwise null (and a replay whose place vanished is abandoned).
 */
export function reusedAction(
  agent: Agent,
  task: Task,
  day: number,
  known: readonly string[],
): ActionChoice | null {
  const run = agent.costLayer.policyRun;
  if (run?.mode !== 'reuse') return null;
  const slot = slotOf(run, task, day);
  if (!slot?.action) return null;
  if (!known.includes(slot.action.location)) {
    agent.costLayer.policyRun = null;
    return null;
  }
  return slot.action;
}

/**
 * Records the action chosen for `task` in the decomposition being recorded; the policy is
 * stored once every task has been carried out ({@link settleAction}).
 */
export function recordAction(
  agent: Agent,
  mind: Mind,
  task: Task,
  day: number,
  choice: ActionChoice,
  objectAddress: string | null,
): void {
  const run = agent.costLayer.policyRun;
  if (run?.mode !== 'record') return;
  const slot = slotOf(run, task, day);
  if (!slot) return;
  slot.action = choice;
  // The first use of an object sets the condition; later uses in the same decomposition find
  // it in the state the agent itself put it in.
  if (objectAddress && !run.condition.some((c) => c.object === objectAddress)) {
    const state = restingState(mind, objectAddress);
    if (state !== undefined) run.condition.push({ object: objectAddress, state });
  }
}

/**
 * What became of the action the agent just started (its `taskKey` names the task): carried
 * out when its place was `reachable`. An unreachable action ends the decomposition being
 * recorded or replayed (it did not work: not stored, not reused further).
 */
export function settleAction(agent: Agent, mind: Mind, reachable: boolean): void {
  const run = agent.costLayer.policyRun;
  const action = agent.action;
  if (!run || !action) return;
  const [day, minute] = action.taskKey.split('@').map(Number);
  // The action's description is its task in -ing form (agent/plan.ts `actionOf`).
  const slot =
    run.day === day
      ? run.tasks.find(
          (t) => t.startMinute === minute && progressive(t.task) === action.description,
        )
      : undefined;
  if (!slot?.action) return;
  if (reachable) {
    slot.done = true;
    return;
  }
  if (run.mode === 'record') {
    mind.costLayer?.note({
      kind: 'policy.dropped',
      agentId: agent.id,
      plan: run.plan,
      reason: 'unreachable',
    });
  }
  agent.costLayer.policyRun = null;
}

/**
 * Ends the decomposition being recorded or replayed. A recording becomes a policy when it ran
 * its course — every task carried out — or, when a chat or a wait `interrupted` it (the block is
 * re-planned around it), when it got as far as carrying out its first task: the tasks not
 * carried out keep no action. It is then stored on the agent, reported, and returned. A
 * recording left unfinished otherwise (a whisper re-planned the day) is not stored.
 */
export function closeRecording(
  agent: Agent,
  mind: Mind,
  interrupted: boolean,
): LifestylePolicy | null {
  const run = agent.costLayer.policyRun;
  agent.costLayer.policyRun = null;
  if (run?.mode !== 'record') return null;
  const complete = run.tasks.every((t) => t.done);
  if (!complete && !(interrupted && run.tasks[0]?.done)) return null;
  const tasks = run.tasks.map((t) => ({
    task: t.task,
    minutes: t.minutes,
    action: t.done ? t.action : null,
  }));
  const policy: LifestylePolicy = {
    id: createHash('sha256')
      .update(JSON.stringify([run.plan, tasks, run.condition]))
      .digest('hex')
      .slice(0, 16),
    plan: run.plan,
    embedding: run.embedding,
    tasks,
    condition: run.condition,
    storedAt: mind.clock.label(mind.now),
    embedder: embedderIdentity(mind.embedder),
  };
  markBlockPolicy(agent, run.block, policy.id);
  if (agent.costLayer.policies.some((p) => p.id === policy.id)) return null;
  agent.costLayer.policies.push(policy);
  if (agent.costLayer.policies.length > POLICY_LIMIT) agent.costLayer.policies.shift();
  mind.costLayer?.policyStored(agent, policy);
  mind.costLayer?.note({
    kind: 'policy.stored',
    agentId: agent.id,
    plan: policy.plan,
    policyId: policy.id,
  });
  return policy;
}
