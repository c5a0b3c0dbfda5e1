/**
 * A conversation of the harness's Ada with Bo on a scripted model, for the chat guards' tests:
 * each says their lines in turn, then takes their leave.
 */
import type { RunConditions } from '../../../common/runs/conditions';
import { converse } from '../agent/converse';
import { nextAction, planNewDay } from '../agent/plan';
import { harness } from './harness';
import type { Script } from './ScriptedModel';

/**
 * Ada's chat with Bo from their day's first action, Ada speaking first, with `conditions` (the
 * product's guards when left out) and the other answers of `script` (the town's where left
 * out): the conversation, the `converse.turn` calls it made, and Ada and Bo.
 */
export async function scriptedChat(
  lines: Record<'ada' | 'bo', string[]>,
  conditions?: RunConditions,
  script: Script = {},
) {
  const h = await harness({
    ...script,
    'converse.turn': (req) => {
      const utterance = lines[req.agentId as 'ada' | 'bo'].shift();
      return utterance === undefined
        ? { utterance: 'I have to go now, see you at the meeting', end: true }
        : { utterance, end: false };
    },
  });
  const { ada, bo } = h.agents;
  for (const a of [ada, bo]) {
    await planNewDay(a, h.mind());
    a.action = await nextAction(a, h.mind());
  }
  h.model.calls.length = 0;
  const chat = await converse(ada, bo, h.mind(0, { conditions }));
  return { chat, turns: h.model.callsOf('converse.turn'), ada, bo };
}
