/**
 * User interventions on one agent's mind (Park et al. 2023 §3.1 "inner voice", §5.1
 * interviews). An interview answers from retrieved memories without advancing time; unless the
 * caller asks for it to be remembered it leaves the agent's mind exactly as it was (no memory,
 * no access-time change); its retrieval is traced for the inspector either way. A whisper becomes a high-importance thought and makes the agent re-plan
 * the rest of its day at its next step.
 */
import { importancePrompt } from '../prompts/importance';
import { interviewPrompt } from '../prompts/interview';
import { whisperPrompt } from '../prompts/whisper';
import { interviewAccess } from './ablation';
import type { Agent } from './Agent';
import type { MemoryNode } from './memory';
import { ask, recall, remember, type Mind } from './mind';

/** Memories an interview answer draws on (reverie `open_convo_session` retrieves 50). */
export const MEMORIES_PER_INTERVIEW = 20;

/**
 * Asks `agent` a question. With `rememberIt`, the exchange is stored as a chat memory. Under
 * the paper's ablations the answer draws only on the memory types the ablation leaves
 * (agent/ablation.ts `interviewAccess`).
 */
export async function interview(
  agent: Agent,
  mind: Mind,
  question: string,
  rememberIt: boolean,
): Promise<{ answer: string; memories: MemoryNode[] }> {
  // Traced even when not remembered: the inspector shows what the answer drew on, and a trace
  // is no part of the agent's state (not in snapshots or prompts).
  const memories = await recall(mind, agent, question, MEMORIES_PER_INTERVIEW, {
    touch: rememberIt,
    trace: true,
    include: interviewAccess(mind),
  });
  const { answer } = await ask(
    mind,
    agent,
    interviewPrompt(agent.identity, {
      now: mind.clock.label(mind.now),
      question,
      memories: memories.map((m) => m.description),
    }),
  );
  if (rememberIt) {
    const description = `An interviewer asked ${agent.name} "${question}" and ${agent.name} answered "${answer}"`;
    const { importance } = await ask(
      mind,
      agent,
      importancePrompt(agent.identity, { kind: 'chat', description }),
    );
    await remember(mind, agent, [
      {
        kind: 'chat',
        description,
        importance,
        subject: agent.name,
        predicate: 'chat with',
        object: 'interviewer',
      },
    ]);
  }
  return { answer, memories };
}

/** Plants a thought in `agent`'s mind and flags its day for re-planning. */
export async function whisper(agent: Agent, mind: Mind, statement: string): Promise<MemoryNode> {
  const { thought, importance } = await ask(
    mind,
    agent,
    whisperPrompt(agent.identity, { now: mind.clock.label(mind.now), whisper: statement }),
  );
  const [node] = await remember(mind, agent, [
    {
      kind: 'thought',
      description: thought,
      importance,
      subject: agent.name,
      predicate: 'thinks',
      object: statement,
    },
  ]);
  agent.replanPending = true;
  return node;
}
