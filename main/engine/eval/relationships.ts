/**
 * The relationship network (Park et al. 2023 §7.1 "relationship formation"): every agent is
 * asked "Do you know <name>?" about every other agent, at a checkpoint (the report uses the
 * first and the last). Pairs are directed — A may know B while B has never heard of A — so
 *
 *   density = pairs answered "yes" / (n · (n − 1)).
 *
 * As for diffusion, a "yes" is checked against memory: it is supported when some memory created
 * by then mentions the other's full name or first name (whole word, case-insensitive); the
 * supported density is reported next to the answered one.
 */
import type { Agent } from '../agent/Agent';
import { namesPerson } from '../agent/mentions';
import type { FrozenRun } from './frozenRun';
import { askYesNo, knowsQuestion } from './questions';

/** One directed pair's answer. */
export interface KnowsAnswer {
  step: number;
  from: string;
  to: string;
  said: boolean;
  detail: string;
  supported: boolean;
}

/** The network at one checkpoint. */
export interface Network {
  step: number;
  gameTime: number;
  agents: string[];
  /** `known[i][j]`: agents[i] said they know agents[j]; null on the diagonal. */
  known: (boolean | null)[][];
  /** Answered "yes" / (n(n−1)); 0 with fewer than two agents. */
  density: number;
  /** Answered "yes" and supported by memory / (n(n−1)). */
  supportedDensity: number;
  answers: KnowsAnswer[];
}

/** True when a memory of `agent` created by `t` names `other` (full or first name). */
export function memoryMentions(agent: Agent, otherName: string, t: number): boolean {
  return agent.memory.nodes.some((n) => n.createdAt <= t && namesPerson(n.description, otherName));
}

/** Builds the network from answers (pure; used by {@link measureNetwork} and the tests). */
export function networkFrom(
  step: number,
  gameTime: number,
  agents: readonly string[],
  answers: readonly KnowsAnswer[],
): Network {
  const index = new Map(agents.map((id, i) => [id, i]));
  const known: (boolean | null)[][] = agents.map((_, i) =>
    agents.map((__, j) => (i === j ? null : false)),
  );
  let yes = 0;
  let supported = 0;
  for (const a of answers) {
    const i = index.get(a.from);
    const j = index.get(a.to);
    if (i === undefined || j === undefined || i === j) continue;
    known[i][j] = a.said;
    if (a.said) yes++;
    if (a.said && a.supported) supported++;
  }
  const pairs = agents.length * (agents.length - 1);
  return {
    step,
    gameTime,
    agents: [...agents],
    known,
    density: pairs === 0 ? 0 : yes / pairs,
    supportedDensity: pairs === 0 ? 0 : supported / pairs,
    answers: [...answers],
  };
}

/**
 * Asks every ordered pair of `frozen`'s agents "Do you know <name>?"; `onAsk` hears each
 * question before it is asked (progress).
 */
export async function measureNetwork(
  frozen: FrozenRun,
  onAsk: (agent: Agent, question: string) => void = () => {},
): Promise<Network> {
  const mind = frozen.mind();
  const answers: KnowsAnswer[] = [];
  for (const a of frozen.agents) {
    for (const b of frozen.agents) {
      if (a === b) continue;
      const question = knowsQuestion(b.name);
      onAsk(a, question);
      const reply = await askYesNo(a, mind, question);
      answers.push({
        step: frozen.step,
        from: a.id,
        to: b.id,
        said: reply.yes,
        detail: reply.detail,
        supported: memoryMentions(a, b.name, frozen.gameTime),
      });
    }
  }
  return networkFrom(
    frozen.step,
    frozen.gameTime,
    frozen.agents.map((a) => a.id),
    answers,
  );
}
