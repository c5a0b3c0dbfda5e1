/**
 * The interventions a user can queue on a running simulation, as one typed registry (STYLE
 * "AI Town" §2): each entry validates its arguments and applies them at the start of the next
 * step. The step records `ok` or `error` for every one; a failing intervention never stops the
 * step. Interviews that must not be remembered are not queued: see `Simulation.interview`.
 */
import { z } from 'zod';
import type { Agent } from '../agent/Agent';
import { interview, whisper } from '../agent/interview';
import type { Mind } from '../agent/mind';
import type { TileWorld } from '../world/TileWorld';

/** What an intervention may touch. */
export interface InterventionTarget {
  mind: Mind;
  world: TileWorld;
  agent(id: string): Agent;
}

interface InterventionHandler<S extends z.ZodType> {
  schema: S;
  /** Applies the intervention; the returned value goes into the step record. */
  apply(target: InterventionTarget, args: z.infer<S>): Promise<unknown>;
}

function interventionHandler<S extends z.ZodType>(
  h: InterventionHandler<S>,
): InterventionHandler<S> {
  return h;
}

/** Every intervention, by name. */
export const interventions = {
  /** Plants a high-importance thought; the agent re-plans the rest of its day. */
  whisper: interventionHandler({
    schema: z.object({ agentId: z.string(), text: z.string().min(1).max(2000) }),
    async apply(t, args) {
      const node = await whisper(t.agent(args.agentId), t.mind, args.text);
      return { memory: node.id, thought: node.description };
    },
  }),
  /** Sets an object's state, e.g. {address: 'Town:cafe:kitchen:stove', state: 'on fire'}. */
  setObjectState: interventionHandler({
    schema: z.object({ address: z.string(), state: z.string().min(1).max(200) }),
    async apply(t, args) {
      if (!t.world.setObjectState(args.address, args.state)) {
        throw new Error(`no object at ${args.address}`);
      }
      return { address: args.address, state: args.state };
    },
  }),
  /** An interview the agent remembers (stored as a chat memory). */
  rememberedInterview: interventionHandler({
    schema: z.object({ agentId: z.string(), question: z.string().min(1).max(2000) }),
    async apply(t, args) {
      const { answer } = await interview(t.agent(args.agentId), t.mind, args.question, true);
      return { answer };
    },
  }),
};

/** Names of the interventions. */
export type InterventionName = keyof typeof interventions;
/** Arguments of one intervention. */
export type InterventionArgs<N extends InterventionName> = z.infer<
  (typeof interventions)[N]['schema']
>;

/** Validates and applies one intervention by name. */
export async function applyIntervention(
  target: InterventionTarget,
  name: string,
  args: unknown,
): Promise<unknown> {
  if (!(name in interventions)) throw new Error(`unknown intervention "${name}"`);
  const handler = interventions[name as InterventionName] as InterventionHandler<z.ZodType>;
  return handler.apply(target, handler.schema.parse(args));
}
