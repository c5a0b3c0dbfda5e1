/**
 * The town script with answers that depend only on the request, never on how many calls this
 * process has made: a run resumed in a fresh process then continues exactly as an
 * uninterrupted one would (fault tests compare the two).
 */
import type { Script } from './ScriptedModel';
import { townScript } from './townScript';

/** FNV-1a over the request's messages. */
function hashOf(messages: readonly { content: string }[]): number {
  let h = 2166136261;
  for (const m of messages) {
    for (let i = 0; i < m.content.length; i++) h = Math.imul(h ^ m.content.charCodeAt(i), 16777619);
  }
  return h >>> 0;
}

export function statelessTownScript(): Script {
  return {
    ...townScript(),
    'converse.turn': (req) => {
      const h = hashOf(req.messages);
      return { utterance: `a word about the spring fair (${h % 97})`, end: h % 4 === 3 };
    },
  };
}
