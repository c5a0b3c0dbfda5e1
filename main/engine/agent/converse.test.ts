import { describe, expect, it } from 'vitest';
import { harness } from '../testing/harness';
import { scriptedChat } from '../testing/scriptedChat';
import {
  CHAT_COOLDOWN_GAME_SECONDS,
  conversationSeconds,
  converse,
  repeatsEarlier,
} from './converse';
import { copiesExampleLine, withoutSpeaker } from '../prompts/converseTurn';
import { remember } from './mind';
import { observe } from './observe';
import { nextAction, planNewDay } from './plan';
import { allowedReactions, canEngage, decideReaction, startWaiting } from './react';

describe('reacting and conversing', () => {
  it('a talk decision produces a two-sided conversation and re-plans both agents around it', async () => {
    const h = await harness();
    const { ada, bo } = h.agents;
    const mind = h.mind();
    for (const a of [ada, bo]) {
      await planNewDay(a, mind);
      a.action = await nextAction(a, mind);
    }
    const events = [ada, bo].map((a) => ({
      subject: a.name,
      predicate: a.action!.predicate,
      object: a.action!.object,
      description: `${a.name} is ${a.action!.description}`,
      tile: a.tile,
    }));
    const seen = await observe(ada, mind, events);
    const others = new Map([ada, bo].map((a) => [a.name, a]));
    const decision = await decideReaction(ada, mind, seen, others);
    expect(decision).toEqual({ decision: 'talk', otherId: 'bo' });

    h.model.calls.length = 0;
    const chat = await converse(ada, bo, mind);
    expect(chat.transcript).toEqual([
      'Ada Lin: line 1 about the spring fair',
      'Bo Park: line 2 about the spring fair',
      'Ada Lin: line 3 about the spring fair',
      'Bo Park: line 4 about the spring fair',
    ]);
    expect(chat.endedBy).toBe('model');
    // Its length follows its lines (reverie: characters / 240 per minute): one minute here.
    expect(conversationSeconds(chat.transcript)).toBe(60);
    const turns = h.model.callsOf('converse.turn');
    expect(turns.map((c) => c.agentId)).toEqual(['ada', 'bo', 'ada', 'bo']);
    expect(turns[3].messages.at(-1)!.content).toContain('Ada Lin: line 3 about the spring fair');
    // Each turn sees what the partner is doing and retrieves on the last lines spoken.
    expect(turns[0].messages.at(-1)!.content).toContain(
      'You are talking with Bo Park, who is preparing the counter',
    );
    // Before each line (reverie agent_chat_v2) the speaker sums up how they stand with the
    // partner from memories about them, retrieves on that summary, and is shown it.
    const relationships = h.model.callsOf('converse.relationship');
    expect(relationships.map((c) => c.agentId)).toEqual(['ada', 'bo', 'ada', 'bo']);
    expect(relationships[0].messages.at(-1)!.content).toContain('Person: Bo Park.');
    expect(ada.retrievals.map((r) => r.query)).toEqual(
      expect.arrayContaining(['Bo Park', 'neighbours who plan the spring fair together']),
    );
    expect(turns[0].messages.at(-1)!.content).toContain(
      'How you stand with Bo Park: neighbours who plan the spring fair together',
    );
    expect(bo.retrievals.map((r) => r.query)).toContain(
      [
        'Ada Lin: line 1 about the spring fair',
        'Bo Park: line 2 about the spring fair',
        'Ada Lin: line 3 about the spring fair',
      ].join('\n'),
    );
    // They walk to meet: Ada one tile toward Bo, who stays beside her.
    expect(ada.path).toEqual([{ x: 2, y: 2 }]);
    expect(bo.path).toEqual([]);

    for (const [self, other] of [
      [ada, bo],
      [bo, ada],
    ] as const) {
      expect(self.action).toMatchObject({
        description: `conversing with ${other.name} about the spring fair`,
        withAgent: other.id,
        endsAt: 60,
      });
      expect(self.chatCooldownUntil[other.id]).toBe(60 + CHAT_COOLDOWN_GAME_SECONDS);
      const memory = self.memory.latest(['chat'], 1)[0];
      expect(memory.description).toContain('conversed about the spring fair');
      expect(memory.filling).toEqual(chat.transcript);
      expect(self.memory.latest(['plan'], 1)[0].description).toBe(
        `For ${self.name}'s planning: remember to bring flowers to the fair`,
      );
      expect(self.tasks[0]).toEqual({
        task: `conversing with ${other.name}`,
        startMinute: 600,
        minutes: 1,
      });
      expect(self.tasks[1].startMinute).toBe(601);
      expect(
        self.tasks[self.tasks.length - 1].startMinute + self.tasks[self.tasks.length - 1].minutes,
      ).toBe(660);
    }
    const replans = h.model.callsOf('plan.decompose');
    expect(replans.map((c) => c.agentId)).toEqual(['ada', 'bo']);
    expect(replans[0].messages.at(-1)?.content).toContain(
      'just talked with Bo Park about the spring fair',
    );
    // It is shown the block's tasks as planned and what is done, the chat last (reverie
    // generate_new_decomp_schedule), so it plans the rest rather than the block anew.
    expect(replans[0].messages.at(-1)?.content).toContain(
      'planned before: 10:00 prepare the counter, 10:20 serve customers',
    );
    expect(replans[0].messages.at(-1)?.content).toContain(
      'done so far: 10:00 conversing with Bo Park',
    );

    // Busy in the chat, and then in the cooldown: no new chat with each other (reverie
    // `chatting_with_buffer`).
    expect(canEngage(ada, 30)).toBe(false);
    expect(allowedReactions(ada, bo, h.mind(600))).not.toContain('talk');

    // The next conversation's turns are told about this one.
    h.model.calls.length = 0;
    await converse(ada, bo, h.mind(9000));
    expect(h.model.callsOf('converse.turn')[0].messages.at(-1)!.content).toContain(
      'Your earlier conversations with Bo Park:\n- Monday February 13, 2023, 10:00: Ada Lin and Bo Park conversed about the spring fair',
    );
  });

  it('each line retrieves 15 memories per focal point and shows them all (reverie agent_chat_v2)', async () => {
    const h = await harness();
    const { ada, bo } = h.agents;
    for (const a of [ada, bo]) {
      await planNewDay(a, h.mind());
      a.action = await nextAction(a, h.mind());
    }
    await remember(
      h.mind(),
      ada,
      Array.from({ length: 60 }, (_, i) => ({
        kind: 'thought' as const,
        description: `Ada Lin thought ${i} about the fair`,
        importance: 3,
      })),
    );
    h.model.calls.length = 0;
    ada.retrievals = [];
    await converse(ada, bo, h.mind());
    // Ada's first line: the relationship (50 on Bo's name), then its three focal points.
    const first = ada.retrievals.slice().reverse().slice(0, 3);
    expect(first.map((r) => [r.query, r.results.length])).toEqual([
      ['Bo Park', 50],
      ['neighbours who plan the spring fair together', 15],
      ['Bo Park is preparing the counter', 15],
    ]);
    const shown = new Set(first.slice(1).flatMap((r) => r.results.map((m) => m.description)));
    const prompt = h.model.callsOf('converse.turn')[0].messages.at(-1)!.content;
    expect(shown.size).toBeGreaterThan(15);
    for (const memory of shown) expect(prompt).toContain(`- ${memory}\n`);
  });

  it('a line that echoes an earlier one is asked again for new words, and a second echo ends the chat', async () => {
    // Bo answers Ada's first line with her own words back, as SmolLM2-135M does.
    const echo = 'I am afraid the pond bank will collapse if they cut the old willow';
    const { chat, turns } = await scriptedChat({
      ada: [echo, 'Shall we go to the council meeting together then'],
      bo: [`Yes, ${echo}`, 'That sounds like a good plan to me', `Well, ${echo}`, echo],
    });
    // No line of the transcript says again what an earlier one said, though the model did.
    for (const [i, line] of chat.transcript.entries()) {
      const words = line.slice(line.indexOf(':') + 1);
      expect(repeatsEarlier(words, chat.transcript.slice(0, i)), line).toBe(false);
    }
    // Bo's echo is not said: asked again, in other words and more freely, he answers.
    expect(chat.transcript).toEqual([
      `Ada Lin: ${echo}`,
      'Bo Park: That sounds like a good plan to me',
      'Ada Lin: Shall we go to the council meeting together then',
    ]);
    expect(chat.endedBy).toBe('repeat');
    expect(turns.map((c) => c.agentId)).toEqual(['ada', 'bo', 'bo', 'ada', 'bo', 'bo']);
    expect(turns[2].messages.at(-1)!.content).toMatch(/in new words \(do not repeat a line/);
    expect(turns[2].temperature).toBeGreaterThan(turns[1].temperature);
    expect(turns[1].messages.at(-1)!.content).not.toMatch(/in new words/);
  });

  it("an opening line that says the question's scene back is asked again", async () => {
    // SmolLM2-135M opened a chat with "It is Monday April 15, 2024, 08:50, in Willow
    // Bend:Larkspur College:library. You are talking with Agnes Whitlow, who is writing…".
    let asked = 0;
    const h = await harness({
      'converse.turn': (req) => {
        asked++;
        if (req.agentId === 'ada' && asked === 1) {
          const scene = req.messages.at(-1)!.content.match(/^It is .*$/m)![0];
          return { utterance: scene, end: false };
        }
        return { utterance: 'Shall we walk to the council meeting together', end: true };
      },
    });
    const { ada, bo } = h.agents;
    for (const a of [ada, bo]) {
      await planNewDay(a, h.mind());
      a.action = await nextAction(a, h.mind());
    }
    const chat = await converse(ada, bo, h.mind());
    expect(chat.transcript).toEqual(['Ada Lin: Shall we walk to the council meeting together']);
    expect(h.model.callsOf('converse.turn').map((c) => c.agentId)).toEqual(['ada', 'ada']);
  });

  it('an answer that takes up a phrase of the last line is not a repeat', () => {
    const said = ['Ada Lin: Are you going to the spring fair?'];
    expect(repeatsEarlier('Yes, I am going to the spring fair tomorrow', said)).toBe(false);
    expect(
      repeatsEarlier('I am going to the spring fair?', ['Ada Lin: I am going to the spring fair']),
    ).toBe(true);
    expect(repeatsEarlier('Yes!', said)).toBe(false);
  });

  it('a line stitched from the example chat is a copy; one taking up a phrase of it, or a resident named Rosa, is not', () => {
    const stitched =
      'Oh no, poor bees. The book is lovely, but my bees are not making much honey this year. I am not sure what to do next.';
    expect(copiesExampleLine(stitched, 'Tobias Mensah')).toBe(true);
    expect(copiesExampleLine('Hello Rosa! How are you?', 'Tobias Mensah')).toBe(true);
    expect(copiesExampleLine('Hello Rosa! How are you?', 'Tobias Mensah', ['Rosa Diaz'])).toBe(
      false,
    );
    expect(
      copiesExampleLine(
        'The band plays at the pub tonight? Shall we ask the council about the willow?',
        'Tobias Mensah',
      ),
    ).toBe(false);
    // The example's greeting, said as a line of one's own.
    expect(copiesExampleLine('How are you today? Is that a good book?', 'Tobias Mensah')).toBe(
      false,
    );
  });

  it("a line written with a speaker's name in front, as the transcript shows lines, is said without it", async () => {
    const { chat } = await scriptedChat({
      ada: ['Have you heard the council wants to cut down the old willow'],
      bo: ['Ada Lin: The willow is being cut down, yes'],
    });
    expect(chat.transcript.slice(0, 2)).toEqual([
      'Ada Lin: Have you heard the council wants to cut down the old willow',
      'Bo Park: The willow is being cut down, yes',
    ]);
    expect(withoutSpeaker('bo park:  Hello', ['Bo Park'])).toBe('Hello');
    expect(withoutSpeaker('Bo Park:', ['Bo Park'])).toBe('Bo Park:');
    expect(withoutSpeaker('Dear Bo Park: hello', ['Bo Park'])).toBe('Dear Bo Park: hello');
  });

  it('a chat starting mid-minute lasts to the end of its task, so the chat is not taken up again as an action', async () => {
    const h = await harness();
    const { ada, bo } = h.agents;
    for (const a of [ada, bo]) {
      await planNewDay(a, h.mind());
      a.action = await nextAction(a, h.mind());
    }
    const chat = await converse(ada, bo, h.mind(630)); // 10:10:30, one minute of lines
    expect(chat.endsAt).toBe(690);
    const task = ada.tasks.find((t) => t.task === 'conversing with Bo Park')!;
    expect(task).toEqual({ task: 'conversing with Bo Park', startMinute: 610, minutes: 2 });
    expect(ada.action!.endsAt).toBe(720);
    h.model.calls.length = 0;
    expect(await nextAction(ada, h.mind(700))).toBeNull();
    const next = await nextAction(ada, h.mind(720));
    expect(next!.description).not.toContain('conversing');
  });

  it('a wait decision waits where the agent stands and re-plans the rest of the block around it', async () => {
    const h = await harness();
    const { ada, bo } = h.agents;
    const mind = h.mind();
    for (const a of [ada, bo]) {
      await planNewDay(a, mind);
      a.action = await nextAction(a, mind);
    }
    h.model.calls.length = 0;
    await startWaiting(ada, bo, mind);
    expect(ada.action).toMatchObject({
      description: 'waiting for Bo Park to finish',
      withAgent: 'bo',
      endsAt: bo.action!.endsAt,
    });
    expect(ada.path).toEqual([]);
    const [replan] = h.model.callsOf('plan.decompose');
    expect(replan.messages.at(-1)?.content).toContain(
      'Context: waited for Bo Park, who was preparing the counter',
    );
    expect(ada.tasks[0]).toEqual({
      task: 'waiting for Bo Park to finish',
      startMinute: 600,
      minutes: 20,
    });
    expect(ada.tasks[1].startMinute).toBe(620);
    expect(ada.tasks.at(-1)!.startMinute + ada.tasks.at(-1)!.minutes).toBe(660);
  });
});
