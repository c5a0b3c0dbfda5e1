import { describe, expect, it } from 'vitest';
import { runConditionsSchema } from '../../../common/runs/conditions';
import { ALL_GUARDS_ON, type Guards } from '../../../common/runs/guards';
import { harness } from '../testing/harness';
import { remember } from './mind';
import { maybeReflect } from './reflect';

describe('reflection', () => {
  it('fires only once the importance sum reaches the threshold and stores insights with evidence', async () => {
    const h = await harness();
    const ada = h.agents.ada;
    const mind = h.mind(600, { reflectionThreshold: 30 });
    const observations = Array.from({ length: 6 }, (_, i) => ({
      kind: 'observation' as const,
      description: `Bo Park is baking bread batch ${i}`,
      importance: 5,
    }));
    await remember(mind, ada, observations.slice(0, 5));
    expect(ada.importanceSinceReflection).toBe(25);
    expect(await maybeReflect(ada, mind)).toBeNull();
    expect(h.model.calls).toHaveLength(0);

    await remember(mind, ada, observations.slice(5));
    const reflection = await maybeReflect(ada, mind);
    // One insights call for the three questions, five insights from it (Park et al. ask five).
    expect(h.model.calls.map((c) => c.fn)).toEqual(['reflect.questions', 'reflect.insights']);
    expect(reflection?.insights).toHaveLength(5);
    for (const insight of reflection!.insights) {
      expect(insight.kind).toBe('thought');
      expect(insight.evidence.length).toBeGreaterThan(0);
      const deepest = Math.max(...insight.evidence.map((id) => ada.memory.get(id)!.depth));
      expect(insight.depth).toBe(1 + deepest);
    }
    // Statement 1 of the insight prompt is the first memory retrieved for the first question.
    const firstStatement = h.model.calls[1].messages
      .at(-1)!
      .content.split('\n')
      .find((l) => l.startsWith('1. '));
    expect(ada.memory.get(reflection!.insights[0].evidence[0])!.description).toBe(
      firstStatement!.slice(3),
    );
    expect(ada.importanceSinceReflection).toBe(0);
  });

  it("infers from every question's memories together, each listed once", async () => {
    const h = await harness();
    const ada = h.agents.ada;
    const mind = h.mind(600, { reflectionThreshold: 10 });
    const chores = ['baking bread', 'painting the fence', 'reading a novel', 'sweeping the yard'];
    await remember(
      mind,
      ada,
      Array.from({ length: 48 }, (_, i) => ({
        kind: 'observation' as const,
        description: `Bo Park is ${chores[i % 4]} for the ${i + 1}th time`,
        importance: 1,
      })),
    );
    expect(await maybeReflect(ada, mind)).not.toBeNull();
    const insights = h.model.calls.filter((c) => c.fn === 'reflect.insights');
    expect(insights).toHaveLength(1);
    const listed = insights[0].messages
      .at(-1)!
      .content.split('\n')
      .filter((l) => /^\d+\. /.test(l));
    // Each question retrieves 30 (MEMORIES_PER_QUESTION); together they reach past that.
    expect(listed.length).toBeGreaterThan(30);
    expect(new Set(listed.map((l) => l.replace(/^\d+\. /, ''))).size).toBe(listed.length);
  });

  it('asks its next questions from what came after its last reflection (reverie importance_ele_n)', async () => {
    const h = await harness();
    const ada = h.agents.ada;
    const mind = h.mind(600, { reflectionThreshold: 10 });
    await remember(mind, ada, [
      { kind: 'observation', description: 'Bo Park is baking rye bread', importance: 10 },
    ]);
    await maybeReflect(ada, mind);
    await remember(mind, ada, [
      { kind: 'observation', description: 'Cy Tan is painting the fence', importance: 10 },
    ]);
    const callsBefore = h.model.calls.length;
    expect(await maybeReflect(ada, mind)).not.toBeNull();
    const asked = h.model.calls[callsBefore];
    expect(asked.fn).toBe('reflect.questions');
    const question = asked.messages.at(-1)!.content;
    expect(question).toContain('Cy Tan is painting the fence');
    expect(question).not.toContain('Bo Park is baking rye bread');
  });

  it('counts only perceived events toward the trigger, not plans, chats or thoughts (§4.2)', async () => {
    const h = await harness();
    const ada = h.agents.ada;
    const mind = h.mind(600);
    await remember(mind, ada, [
      { kind: 'plan', description: 'This is the plan for today', importance: 9 },
      { kind: 'chat', description: 'Ada and Bo conversed about bread', importance: 9 },
      { kind: 'thought', description: 'I should open a second cafe', importance: 9 },
    ]);
    expect(ada.importanceSinceReflection).toBe(0);
    await remember(mind, ada, [
      { kind: 'observation', description: 'Bo Park is baking bread', importance: 6 },
    ]);
    expect(ada.importanceSinceReflection).toBe(6);
  });

  it('asks its questions from what happened, not from "… is idle" observations (reverie)', async () => {
    const h = await harness();
    const ada = h.agents.ada;
    const mind = h.mind(600, { reflectionThreshold: 10 });
    const idle = (thing: string) => ({
      kind: 'observation' as const,
      description: `${thing} is idle`,
      subject: thing,
      predicate: 'is',
      object: 'idle',
      importance: 1,
    });
    await remember(mind, ada, [
      { kind: 'observation', description: 'Bo Park is baking bread', importance: 6 },
      idle('desk'),
      idle('oven'),
      { kind: 'observation', description: 'Cy Lee is painting the fence', importance: 6 },
    ]);
    expect(await maybeReflect(ada, mind)).not.toBeNull();
    const prompt = h.model.calls[0].messages.map((m) => m.content).join('\n');
    expect(prompt).toContain('Bo Park is baking bread');
    expect(prompt).toContain('Cy Lee is painting the fence');
    expect(prompt).not.toContain('is idle');
  });
});

describe('reflection prompts list each memory once', () => {
  it('a wording stored several times is listed once, in the questions prompt and in the insights prompt', async () => {
    const h = await harness();
    const ada = h.agents.ada;
    const mind = h.mind(600, { reflectionThreshold: 10 });
    const seen = (description: string, createdAt: number) => ({
      kind: 'observation' as const,
      description,
      importance: 2,
      createdAt,
    });
    await remember(mind, ada, [
      seen('Bo Park is reading the novel in the library', 100),
      seen('Cy Lee is painting the fence', 200),
      seen('Bo Park is reading the novel in the library', 300),
      seen('Bo Park is reading the novel in the library', 400),
      seen('Cy Lee is painting the fence', 500),
    ]);
    expect(await maybeReflect(ada, mind)).not.toBeNull();
    const lines = (content: string) =>
      content.split('\n').filter((l) => / is (reading|painting) /.test(l));
    for (const call of h.model.calls) {
      const listed = lines(call.messages.at(-1)!.content);
      expect(listed.length, call.fn).toBeGreaterThan(0);
      expect(new Set(listed.map((l) => l.replace(/^(\d+\.|-) /, ''))).size, call.fn).toBe(
        listed.length,
      );
    }
    expect(h.model.calls.map((c) => c.fn)).toContain('reflect.insights');
  });
});

describe('reflection questions copied from the worked examples', () => {
  const copied = (name: string) => [
    `What does ${name} value in her work at the clinic?`, // the example's, resident swapped
    'How does Rosa’s garden feed the bees at the Elmford clinic?', // the examples' people and town
    `What does ${name.split(' ')[0]} want from the bakery?`,
  ];
  const reflectWith = async (guards?: Partial<Guards>) => {
    let name = '';
    const h = await harness({ 'reflect.questions': () => ({ questions: copied(name) }) });
    const ada = h.agents.ada;
    name = ada.name;
    const conditions = runConditionsSchema.parse({ guards: { ...ALL_GUARDS_ON, ...guards } });
    const mind = h.mind(600, { reflectionThreshold: 10, conditions });
    await remember(mind, ada, [
      { kind: 'observation', description: 'Bo Park is baking rye bread', importance: 10 },
    ]);
    const reflection = await maybeReflect(ada, mind);
    return { reflection, name, calls: h.model.calls };
  };

  it('are dropped, with the insights they would cost, while worked examples are shown', async () => {
    const { reflection, name, calls } = await reflectWith();
    expect(reflection!.questions).toEqual([copied(name)[2]]);
    expect(calls.map((c) => c.fn)).toEqual(['reflect.questions', 'reflect.insights']);
    const insightsPrompt = calls[1].messages.at(-1)!.content;
    expect(insightsPrompt).toContain(`- ${copied(name)[2]}`);
    expect(insightsPrompt).not.toContain(copied(name)[0]);
  });

  it('are kept when the examples are off (the model never saw them)', async () => {
    const { reflection, name, calls } = await reflectWith({ workedExamples: false });
    expect(reflection!.questions).toHaveLength(3);
    expect(calls.map((c) => c.fn)).toEqual(['reflect.questions', 'reflect.insights']);
    for (const question of copied(name)) {
      expect(calls[1].messages.at(-1)!.content).toContain(`- ${question}`);
    }
  });
});

describe('reflection insights copied from the worked examples', () => {
  const reflectWith = async (guards?: Partial<Guards>, residents?: string[]) => {
    const h = await harness({
      'reflect.insights': () => ({
        insights: [
          { insight: 'A dry summer left the bees with few flowers.', evidence: [1], importance: 6 },
          { insight: 'Sam visits Ada every morning', evidence: [1], importance: 4 },
          { insight: 'Bo bakes rye bread when the fair is near', evidence: [1], importance: 5 },
          { insight: 'Ada has settled into life at the clinic', evidence: [1], importance: 4 },
          { insight: 'Ada notices what Bo bakes', evidence: [1], importance: 2 },
        ],
      }),
    });
    const ada = h.agents.ada;
    const conditions = runConditionsSchema.parse({ guards: { ...ALL_GUARDS_ON, ...guards } });
    const mind = h.mind(600, { reflectionThreshold: 10, conditions, residents });
    await remember(mind, ada, [
      { kind: 'observation', description: 'Bo Park is baking rye bread', importance: 10 },
    ]);
    return (await maybeReflect(ada, mind))!.insights.map((i) => i.description);
  };

  it('are not stored while worked examples are shown: an example insight, the same with the resident swapped, or one naming their people', async () => {
    expect(await reflectWith()).toEqual([
      'Bo bakes rye bread when the fair is near',
      'Ada notices what Bo bakes',
    ]);
  });

  it('are stored when the examples are off (the model never saw them)', async () => {
    expect(await reflectWith({ workedExamples: false })).toHaveLength(5);
  });

  it('naming a neighbour who shares an example resident’s first name, are the town’s own', async () => {
    // A town with its own Sam (the Ville's Sam Moore): only the examples' insights are dropped.
    expect(await reflectWith({}, ['Ada Lin', 'Sam Moore'])).toHaveLength(3);
  });
});

describe('a reflection whose questions were all copied', () => {
  it('is no reflection: no call after the questions, nothing stored, and the importance sum starts again', async () => {
    let name = '';
    const h = await harness({
      'reflect.questions': () => ({
        questions: [
          `What does ${name} value in her work at the clinic?`,
          'How does the band feel about the new song?',
          'Why are Rosa’s bees making so little honey?',
        ],
      }),
    });
    const ada = h.agents.ada;
    name = ada.name;
    const mind = h.mind(600, { reflectionThreshold: 10 });
    await remember(mind, ada, [
      { kind: 'observation', description: 'Bo Park is baking rye bread', importance: 10 },
    ]);
    const thoughts = ada.memory.size;
    expect(await maybeReflect(ada, mind)).toBeNull();
    expect(h.model.calls.map((c) => c.fn)).toEqual(['reflect.questions']);
    expect(ada.memory.size).toBe(thoughts);
    expect(ada.importanceSinceReflection).toBe(0);
  });
});
