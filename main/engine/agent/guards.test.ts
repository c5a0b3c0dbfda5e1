/**
 * Each small-model guard (common/runs/guards.ts) changes what the engine does, and turning it
 * off (one guard, or all of them: paper-exact) gives the papers' mechanism instead.
 */
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runConditionsSchema } from '../../../common/runs/conditions';
import { ALL_GUARDS_ON, PAPER_EXACT, type Guards } from '../../../common/runs/guards';
import { drySampling, DEFAULT_DRY_STRENGTH } from '../../models/llama/llama-language-model';
import { EXAMPLE_RESIDENTS } from '../prompts/examples';
import { Simulation } from '../sim/Simulation';
import { harness } from '../testing/harness';
import { scriptedChat } from '../testing/scriptedChat';
import { HashEmbedder, ScriptedModel } from '../testing/ScriptedModel';
import { buildTestScenario } from '../testing/testTown';
import { townScript } from '../testing/townScript';
import { rateHeldObservations, remember } from './mind';
import { NOTICED_SECONDS, observe } from './observe';
import { decompose, planNewDay } from './plan';
import { placesFor, PLACES_OFFERED } from './placeRelevance';
import { maybeReflect } from './reflect';
import { bedtimeFor, layoutSchedule, layoutTasks } from './schedule';

/** Conditions with every guard on except `off`. */
function without(...off: (keyof Guards)[]) {
  const guards = { ...ALL_GUARDS_ON };
  for (const g of off) guards[g] = false;
  return runConditionsSchema.parse({ guards });
}

/** Ada's day planned with these `plan.hourly` answers in turn: what was asked, and her awake blocks. */
async function plannedDay(
  answers: { schedule: { activity: string; hours: number; asleep: boolean }[] }[],
  conditions?: ReturnType<typeof without>,
) {
  const h = await harness({ 'plan.hourly': () => answers.shift()! });
  const ada = h.agents.ada;
  await planNewDay(ada, h.mind(0, { conditions }));
  return {
    asked: h.model.callsOf('plan.hourly').map((c) => c.messages.at(-1)!.content),
    awake: ada.schedule.filter((b) => !b.asleep),
  };
}

/** {@link scriptedChat}, with who was asked each line. */
async function chat(
  lines: Record<'ada' | 'bo', string[]>,
  conditions?: ReturnType<typeof without>,
) {
  const { chat, turns } = await scriptedChat(lines, conditions);
  return { chat, asked: turns.map((c) => c.agentId) };
}

describe('small-model guards', () => {
  it('echo guard: on, a repeated line is asked again and refused; off, it is accepted as written', async () => {
    const echo = 'I am afraid the pond bank will collapse if they cut the old willow';
    const chatWith = (conditions?: ReturnType<typeof without>) =>
      chat(
        {
          ada: [echo, 'Shall we go to the council meeting together then'],
          bo: [echo, 'That sounds like a good plan to me'],
        },
        conditions,
      );
    const on = await chatWith();
    expect(on.chat.transcript).not.toContain(`Bo Park: ${echo}`);
    expect(on.asked.slice(0, 3)).toEqual(['ada', 'bo', 'bo']);

    const off = await chatWith(without('echoGuard'));
    expect(off.chat.transcript.slice(0, 2)).toEqual([`Ada Lin: ${echo}`, `Bo Park: ${echo}`]);
    expect(off.asked.slice(0, 3)).toEqual(['ada', 'bo', 'ada']);
    expect(off.chat.endedBy).not.toBe('repeat');
  });

  it('worked examples: on, a chat line from the example chat is asked again, and said twice ends the chat; off, it is kept', async () => {
    // Rosa's words, about bees nobody in this chat keeps (SmolLM2-135M's Tobias).
    const copied =
      'I am sorry to hear that. The book is lovely, but my bees are not making much honey this year.';
    const chatWith = (bo: string[], conditions?: ReturnType<typeof without>) =>
      chat(
        {
          ada: ['Have you heard the council wants to cut down the old willow', 'Then we should go'],
          bo,
        },
        conditions,
      );
    const answered = 'That is terrible news, the willow holds up the pond bank';
    const once = await chatWith([copied, answered]);
    expect(once.asked.slice(0, 3)).toEqual(['ada', 'bo', 'bo']);
    expect(once.chat.transcript[1]).toBe(`Bo Park: ${answered}`);

    const twice = await chatWith([copied, copied]);
    expect(twice.chat.transcript.join('\n')).not.toContain('bees');
    expect(twice.chat.endedBy).toBe('repeat');

    const off = await chatWith([copied, answered], without('workedExamples'));
    expect(off.chat.transcript[1]).toBe(`Bo Park: ${copied}`);
    expect(off.asked.slice(0, 3)).toEqual(['ada', 'bo', 'ada']);
  });

  it('worked examples: on, the plan prompt shows the example residents first; off, only the question', async () => {
    const prompts = async (conditions?: ReturnType<typeof without>) => {
      const h = await harness();
      await planNewDay(h.agents.ada, h.mind(0, { conditions }));
      return h.model.callsOf('plan.daily')[0].messages;
    };
    const example = EXAMPLE_RESIDENTS[0].who.name;
    const on = await prompts();
    expect(on.map((m) => m.role)).toEqual([
      'system',
      'user',
      'assistant',
      'user',
      'assistant',
      'user',
    ]);
    expect(on[1].content).toContain(example);
    const off = await prompts(without('workedExamples'));
    expect(off.map((m) => m.role)).toEqual(['system', 'user']);
    expect(off.map((m) => m.content).join('\n')).not.toContain(example);
    // The question itself is the same.
    expect(off[1].content).toBe(on.at(-1)!.content);
  });

  it('DRY: the run asks every call without it when off, and the provider then sends no dry penalty', async () => {
    const h = await harness();
    await planNewDay(h.agents.ada, h.mind(0, { conditions: without('drySampling') }));
    expect(h.model.calls.length).toBeGreaterThan(0);
    expect(h.model.calls.every((c) => c.dry === false)).toBe(true);
    const on = await harness();
    await planNewDay(on.agents.ada, on.mind(0));
    expect(on.model.calls.every((c) => c.dry === undefined)).toBe(true);

    // The llama provider's sampling options for those requests.
    expect(drySampling(DEFAULT_DRY_STRENGTH, {}).dryRepeatPenalty?.strength).toBe(
      DEFAULT_DRY_STRENGTH,
    );
    expect(drySampling(DEFAULT_DRY_STRENGTH, { dry: false })).toEqual({});
    expect(drySampling(0, {})).toEqual({});
  });

  it('wake window: on, the hours offered are the lifestyle’s ±1; off, any hour of the day', async () => {
    const hours = async (conditions?: ReturnType<typeof without>) => {
      const h = await harness();
      await planNewDay(h.agents.ada, h.mind(0, { conditions }));
      return (
        h.model.callsOf('plan.wake')[0].schema as { properties: { wakeHour: { enum: number[] } } }
      ).properties.wakeHour.enum;
    };
    // Ada "wakes up around 7am".
    expect(await hours()).toEqual([6, 7, 8]);
    expect(await hours(without('wakeWindow'))).toEqual(Array.from({ length: 24 }, (_, i) => i));
  });

  it('bedtime window: on, a day the model ends at 14:00 is stretched to bedtime; off, the night starts at 14:00', () => {
    const lifestyle = 'goes to bed around 10pm';
    const blocks = Array.from({ length: 8 }, (_, i) => ({
      activity: `activity ${i}`,
      hours: 1,
      asleep: false,
    }));
    const night = (guards: Guards) =>
      layoutSchedule([], blocks, 6 * 60, bedtimeFor(lifestyle, guards)).find(
        (b) => b.asleep && b.startMinute > 6 * 60,
      )!.startMinute;
    expect(night(ALL_GUARDS_ON)).toBeGreaterThanOrEqual(21 * 60);
    expect(night(PAPER_EXACT)).toBe(14 * 60);
  });

  it('merge repeats: on, a task written twice in a row is one task; off, both stay', () => {
    const tasks = [
      { task: 'visit the library archives', minutes: 15 },
      { task: 'visit the library archives', minutes: 15 },
      { task: 'walk home', minutes: 30 },
    ];
    expect(layoutTasks(tasks, 600, 60).map((t) => [t.task, t.minutes])).toEqual([
      ['visit the library archives', 30],
      ['walk home', 30],
    ]);
    expect(layoutTasks(tasks, 600, 60, false).map((t) => t.task)).toEqual(tasks.map((t) => t.task));
  });

  it('tasks end where they repeat: on, a block ends before a task said again and the model is told where to stop; off, every task is laid out', async () => {
    // As SmolLM2-135M broke Agnes Whitlow's 165-minute block down (Willow Bend, seed 45).
    const written = [
      "write a book about the town's history",
      'write a book about your own history',
      'write a book about Willow Bend',
      ...Array<string>(5).fill('write a book about yourself'),
    ].map((task) => ({ task, minutes: 15 }));
    const tasks = async (conditions?: ReturnType<typeof without>) => {
      const h = await harness({ 'plan.decompose': () => ({ tasks: written }) });
      const mind = h.mind(0, { conditions });
      await planNewDay(h.agents.ada, mind);
      h.model.calls.length = 0;
      const laid = await decompose(h.agents.ada, mind, 'write a book', 600, 165, '');
      const [asked] = h.model.callsOf('plan.decompose');
      return { laid: laid.map((t) => [t.task, t.minutes]), stops: asked.endsAt !== undefined };
    };
    expect(await tasks()).toEqual({
      laid: [
        ["write a book about the town's history", 55],
        ['write a book about your own history', 55],
        ['write a book about Willow Bend', 55],
      ],
      stops: true,
    });
    const off = await tasks(without('taskRepeats'));
    expect(off.stops).toBe(false);
    // The five in a row are merged into one (the merge-repeats guard), and stretched with the rest.
    expect(off.laid.map(([task]) => task)).toEqual([
      ...written.slice(0, 3).map((t) => t.task),
      'write a book about yourself',
    ]);
  });

  it('place shortlist: on, an action is offered the 3 most relevant places; off, every known place', async () => {
    const h = await harness();
    const ada = h.agents.ada;
    const known = [
      'Cafe > kitchen > stove',
      'Cafe > kitchen > coffee machine',
      'Park > pond > bench',
      'Library > hall > shelves',
      'Home > bedroom > bed',
      'Home > kitchen > kettle',
    ];
    const on = await placesFor(ada, h.mind(), 'make coffee', known);
    expect(on).toHaveLength(PLACES_OFFERED);
    const off = await placesFor(
      ada,
      h.mind(0, { conditions: without('placeShortlist') }),
      'make coffee',
      known,
    );
    expect([...off].sort()).toEqual([...known].sort());
  });

  it('objects in use: on, an object seen "in use" is importance 1 with no call; off, the model rates it', async () => {
    const seenInUse = async (conditions: ReturnType<typeof without>) => {
      const h = await harness();
      const ada = h.agents.ada;
      await observe(ada, h.mind(0, { conditions }), []); // everything idle: stored, no call
      const object = ada.memory.nodes.find((n) => n.subject.includes(':') && n.object === 'idle');
      expect(object, 'an object in view').toBeDefined();
      h.world.setObjectState(object!.subject, 'in use');
      await observe(ada, h.mind(10, { conditions }), []);
      await rateHeldObservations(h.mind(20, { conditions }), ada);
      const inUse = ada.memory.nodes.find(
        (n) => n.subject === object!.subject && n.createdAt === 10,
      );
      const asked = h.model
        .callsOf('importance')
        .some((c) => c.messages.at(-1)!.content.includes(inUse!.description));
      return { description: inUse!.description, importance: inUse!.importance, asked };
    };
    const on = await seenInUse(without());
    expect(on.description).toMatch(/ is in use$/);
    expect(on).toMatchObject({ importance: 1, asked: false });
    expect(await seenInUse(without('objectInUse'))).toMatchObject({ importance: 4, asked: true });
  });

  it('rating reuse: off, an observation seen again is rated again by the model', async () => {
    const rated = async (conditions: ReturnType<typeof without>) => {
      const scenario = buildTestScenario();
      // An event seen again is new once it left the count window and half an hour has passed
      // (or its subject did something else meanwhile).
      for (const p of scenario.personas) p.retention = 1;
      // Nobody stops to talk: this is about perception.
      const model = new ScriptedModel(townScript({ talk: 'continue' }));
      const sim = await Simulation.create(
        scenario,
        mkdtempSync(path.join(os.tmpdir(), 'guards-')),
        { model, embedder: new HashEmbedder() },
        { conditions },
      );
      await sim.run(Math.ceil(NOTICED_SECONDS / scenario.settings.secondsPerStep) + 60);
      return model
        .callsOf('importance')
        .flatMap((c) =>
          c.messages
            .at(-1)!
            .content.split('\n')
            .map((l) => [c.agentId, l]),
        )
        .filter(([, l]) => /^(- \(event\) |Memory \(event\): )/.test(l!))
        .map(([agent, l]) => `${agent}: ${l}`); // each agent rates its own memories
    };
    const on = await rated(without());
    expect(new Set(on).size).toBe(on.length);
    const off = await rated(without('ratingReuse'));
    expect(new Set(off).size).toBeLessThan(off.length);
  });

  it('status check: on, a new day revised to dates or a copied identity line keeps yesterday’s status; off, it is taken', async () => {
    const revisedTo = async (
      answer: { currently: string; needs: string },
      conditions?: ReturnType<typeof without>,
    ) => {
      const h = await harness({ 'daily.revise': () => answer });
      const ada = h.agents.ada;
      await planNewDay(ada, h.mind(0, { conditions }));
      const before = { ...ada.identity };
      await planNewDay(ada, h.mind(h.clock.gameSecondsOf(1, 0), { conditions }));
      return { before, after: ada.identity };
    };
    // What SmolLM2-135M wrote (session 14, a Willow Bend day 2).
    const junk = { currently: '2024-04-15', needs: 'Innate traits: curious, shy, meticulous' };
    const on = await revisedTo(junk);
    expect(on.after.currently).toBe(on.before.currently);
    expect(on.after.dailyPlanRequirement).toBe(on.before.dailyPlanRequirement);
    const off = await revisedTo(junk, without('statusCheck'));
    expect(off.after).toMatchObject({
      currently: junk.currently,
      dailyPlanRequirement: junk.needs,
    });
    // A sentence about the resident is taken either way; each field is judged on its own.
    const good = {
      currently: 'Ada Lin is tired after the market and wants a quiet day at the cafe.',
      needs: 'Nice',
    };
    const mixed = await revisedTo(good);
    expect(mixed.after.currently).toBe(good.currently);
    expect(mixed.after.dailyPlanRequirement).toBe(mixed.before.dailyPlanRequirement);
  });

  it('varied schedule: on, a day of one activity is asked once more for several; off, it is kept', async () => {
    // What SmolLM2-135M wrote for Tobias (session 26, Willow Bend seed 45): one activity ×8.
    const oneActivity = {
      schedule: [
        ...Array.from({ length: 7 }, () => ({
          activity: 'write and edit',
          hours: 2,
          asleep: false,
        })),
        { activity: 'sleep', hours: 4, asleep: true },
      ],
    };
    const varied = {
      schedule: [
        { activity: 'write and edit', hours: 3, asleep: false },
        { activity: 'take a walk around the pond', hours: 2, asleep: false },
        { activity: 'sleep', hours: 4, asleep: true },
      ],
    };
    const planned = async (
      answers: { schedule: typeof varied.schedule }[],
      conditions?: ReturnType<typeof without>,
    ) => {
      const { asked, awake } = await plannedDay(answers, conditions);
      return { asked, awake: new Set(awake.map((b) => b.activity)) };
    };
    const on = await planned([oneActivity, varied]);
    expect(on.asked).toHaveLength(2);
    expect(on.asked[1]).toContain('Plan several different activities');
    expect(on.awake).toEqual(new Set(['write and edit', 'take a walk around the pond']));
    // Asked again and still one activity: nothing is asked a third time; the first answer stays,
    // its repeats given the day plan's activities (townScript's plan, after the wake-up item,
    // without going to bed) — not a day at one desk.
    const still = await plannedDay([oneActivity, oneActivity, varied]);
    expect(still.asked).toHaveLength(2);
    const day = still.awake.map((b) => b.activity).filter((a, i, all) => a !== all[i - 1]);
    expect(day).toEqual([
      'write and edit',
      'wake up and wash',
      'work at the cafe',
      'have lunch',
      'meet friends',
      'write and edit',
    ]);
    // A second answer that copies a worked example's block (the first copied none) is the
    // example's day: not taken.
    const example = EXAMPLE_RESIDENTS[0].schedule.find((b) => !b.asleep)!.activity;
    const copied = {
      schedule: [
        { activity: example, hours: 3, asleep: false },
        { activity: 'take a walk around the pond', hours: 2, asleep: false },
      ],
    };
    const notCopied = (await planned([oneActivity, copied])).awake;
    expect(notCopied.has(example)).toBe(false);
    expect(notCopied.has('take a walk around the pond')).toBe(false);
    expect(notCopied.has('write and edit')).toBe(true);
    // A varied day is asked once.
    expect((await planned([varied, oneActivity])).asked).toHaveLength(1);
    const off = await planned([oneActivity, varied], without('scheduleVariety'));
    expect(off.asked).toHaveLength(1);
    expect(off.awake).toEqual(new Set(['write and edit']));
  });

  it('varied schedule: a day still one activity takes the day plan items as SmolLM2 wrote them, their hours cut off, going to bed left out', async () => {
    // Day-plan items as SmolLM2-135M wrote them (CI's interview battery, stop 55).
    const h = await harness({
      'plan.daily': () => ({
        plan: [
          'go home to the cafe at 10:00: Delphine.',
          'go to bed at 10:00: Delphine.',
          'go home by the window.',
          'write a short story',
        ],
      }),
      'plan.hourly': () => ({
        schedule: [
          ...Array.from({ length: 6 }, () => ({
            activity: 'write a short story',
            hours: 2,
            asleep: false,
          })),
          { activity: 'sleep', hours: 4, asleep: true },
        ],
      }),
    });
    await planNewDay(h.agents.ada, h.mind(0));
    expect(h.model.callsOf('plan.hourly')).toHaveLength(2);
    const day = h.agents.ada.schedule
      .filter((b) => !b.asleep)
      .map((b) => b.activity)
      .filter((a, i, all) => a !== all[i - 1]);
    expect(day).toEqual([
      'write a short story',
      'go home to the cafe',
      'go home by the window',
      'write a short story',
    ]);
  });

  it('varied schedule: on, blocks that are names or places are asked again, and those left join the activity before; off, kept', async () => {
    // What SmolLM2-135M wrote for Delphine on a llama-server (session 29's server hour).
    const named = {
      schedule: [
        { activity: 'Bite the apple', hours: 2, asleep: false },
        { activity: 'Agnes Whitlow', hours: 1, asleep: false },
        { activity: 'Professor', hours: 2, asleep: false },
        { activity: 'read a book in the library', hours: 3, asleep: false },
        { activity: 'The Copper Kettle', hours: 2, asleep: false },
        { activity: 'sleep', hours: 4, asleep: true },
      ],
    };
    const planned = async (
      answers: { schedule: typeof named.schedule }[],
      conditions?: ReturnType<typeof without>,
    ) => {
      const { asked, awake } = await plannedDay(answers, conditions);
      const hours = new Map<string, number>();
      for (const b of awake) hours.set(b.activity, (hours.get(b.activity) ?? 0) + b.minutes / 60);
      return { asked, hours };
    };
    const varied = {
      schedule: [
        { activity: 'make porridge and eat breakfast', hours: 2, asleep: false },
        { activity: 'read a book in the library', hours: 4, asleep: false },
        { activity: 'walk by the pond', hours: 4, asleep: false },
        { activity: 'sleep', hours: 4, asleep: true },
      ],
    };
    const on = await planned([named, varied]);
    expect(on.asked).toHaveLength(2);
    expect(on.asked[1]).toContain('Plan several different activities');
    expect([...on.hours.keys()]).toEqual([
      'make porridge and eat breakfast',
      'read a book in the library',
      'walk by the pond',
    ]);
    // Asked again and no better: each name's hours go to the activity before it.
    const still = await planned([named, named]);
    expect(still.asked).toHaveLength(2);
    const bite = still.hours.get('Bite the apple')!;
    const read = still.hours.get('read a book in the library')!;
    expect([...still.hours.keys()]).toEqual(['Bite the apple', 'read a book in the library']);
    expect(bite / read).toBeCloseTo(5 / 5);
    // Names marked asleep before an awake block are the day all the same (layoutSchedule makes
    // them awake): judged as laid out, they are asked again and never fill the day.
    const flagged = {
      schedule: named.schedule.map((b) => ({
        ...b,
        asleep: b.asleep || (!b.activity.startsWith('Bite') && !b.activity.startsWith('read')),
      })),
    };
    const laidOut = await planned([flagged, varied]);
    expect(laidOut.asked).toHaveLength(2);
    expect([...laidOut.hours.keys()]).toEqual([...on.hours.keys()]);
    const off = await planned([named, varied], without('scheduleVariety'));
    expect(off.asked).toHaveLength(1);
    expect(off.hours.has('Agnes Whitlow')).toBe(true);
  });

  it('new insights only: on, an insight restating a statement or an earlier insight, or not in words, is not stored; off, it is', async () => {
    const seen = 'Bo Park is writing a sonnet on a piece of paper';
    const reflected = async (insights: string[], conditions?: ReturnType<typeof without>) => {
      const h = await harness({
        'reflect.insights': () => ({
          insights: insights.map((insight) => ({ insight, evidence: [1], importance: 5 })),
        }),
      });
      const ada = h.agents.ada;
      const mind = h.mind(600, { reflectionThreshold: 10, conditions });
      await remember(mind, ada, [{ kind: 'observation', description: seen, importance: 10 }]);
      const reflection = await maybeReflect(ada, mind);
      return reflection!.insights.map((i) => i.description);
    };
    // As SmolLM2-135M answered (session 28, Willow Bend): a statement again, an insight and the
    // same insight reworded, and two that infer something.
    const restated = [
      seen,
      'A willow tree in Willow Bend',
      'The willow tree in Willow Bend',
      'Bo Park wants to become a poet',
      'Bo Park is proud of his poems',
    ];
    expect(await reflected(restated)).toEqual([
      'A willow tree in Willow Bend',
      'Bo Park wants to become a poet',
      'Bo Park is proud of his poems',
    ]);
    expect(await reflected(restated, without('insightCheck'))).toHaveLength(5);
    // As it answered Agnes Whitlow's reflection on a Willow Bend day (seed 45), a name alone, and
    // two in words, one short.
    const notInWords = [
      'Awesome, awesome, awesst',
      'Awesome',
      'Bo Park wants to become a poet',
      'Bo Park',
      'Bo Park loves poems',
    ];
    expect(await reflected(notInWords)).toEqual([
      'Bo Park wants to become a poet',
      'Bo Park loves poems',
    ]);
    expect(await reflected(notInWords, without('insightCheck'))).toHaveLength(5);
  });

  it('one activity per plan item: on, a run of activities becomes them and going to bed comes once, last; off, kept as written', async () => {
    // Three of the seven items SmolLM2-135M wrote for Tobias Mensah's day (Willow Bend, seed 45).
    const written = [
      'go to the library to read the proposal draft, study in the morning, work at The Blue',
      'go to bed around midnight, go to the cafe to eat breakfast, study in the morning and',
      'go to bed around 10:30, go to bed at night, go to bed at midnight, go to bed around',
      // A line of a letter, as it wrote for Delphine Cartwright (seed 42).
      'I am going to write to the council',
    ];
    const dayPlan = async (conditions?: ReturnType<typeof without>) => {
      const h = await harness({ 'plan.daily': () => ({ plan: written }) });
      await planNewDay(h.agents.ada, h.mind(0, { conditions }));
      return h.agents.ada.dailyPlan.slice(1);
    };
    // Each item is first cut to the plan's 12 words, on a word that finishes it ("…, study").
    expect(await dayPlan()).toEqual([
      'go to the library to read the proposal draft',
      'go to the cafe to eat breakfast',
      'go to bed around midnight',
    ]);
    expect(await dayPlan(without('planItems'))).toEqual([
      'go to the library to read the proposal draft, study',
      'go to bed around midnight, go to the cafe to eat breakfast',
      'go to bed around 10:30, go to bed at night, go',
      'I am going to write to the council',
    ]);
  });

  it('one activity per plan item: a plan of bedtimes is asked once more, with another draw; off, it is kept', async () => {
    // As SmolLM2-135M wrote Delphine Cartwright's Willow Bend plan (seed 45), then a plan of days.
    const bedtimes = ['go to bed at 7:00pm', 'go to bed at midnight', 'go to bed at dawn'];
    const day = ['open the cafe', 'check the beehives in the garden', 'go to bed early'];
    const dayPlan = async (conditions?: ReturnType<typeof without>) => {
      const seeds: number[] = [];
      const h = await harness({
        'plan.daily': (req) => {
          seeds.push(req.seed ?? 0);
          return { plan: seeds.length === 1 ? bedtimes : day };
        },
      });
      await planNewDay(h.agents.ada, h.mind(0, { conditions }));
      return { plan: h.agents.ada.dailyPlan.slice(1), seeds };
    };
    const on = await dayPlan();
    expect(on.plan).toEqual(day);
    expect(new Set(on.seeds).size).toBe(2);
    expect(await dayPlan(without('planItems'))).toEqual({ plan: bedtimes, seeds: [on.seeds[0]] });
  });

  it('chat thoughts in words: on, a thought that is a name or a word is not stored; off, it is', async () => {
    // As SmolLM2-135M answered after Willow Bend chats (seed 45): Ada's planning thought her
    // partner's name, her memo the field's own name; Bo's both in words.
    const thoughtsAfterChat = async (conditions?: ReturnType<typeof without>) => {
      const { ada, bo } = await scriptedChat({ ada: ['Hello Bo'], bo: ['Hello Ada'] }, conditions, {
        'converse.thoughts': (req) =>
          req.agentId === 'ada'
            ? { planning: 'Bo Park', memo: 'memo,', importance: 1 }
            : {
                planning: 'ask Ada about the fair tomorrow',
                memo: 'Ada seemed happy about the spring fair',
                importance: 5,
              },
      });
      const thoughts = (who: typeof ada) =>
        who.memory.nodes
          .filter((m) => m.kind !== 'observation' && m.object === (who === ada ? bo : ada).name)
          .filter((m) => m.kind === 'plan' || m.kind === 'thought')
          .map((m) => m.description);
      return { ada: thoughts(ada), bo: thoughts(bo) };
    };
    const on = await thoughtsAfterChat();
    expect(on.ada).toEqual([]);
    expect(on.bo).toEqual([
      "For Bo Park's planning: ask Ada about the fair tomorrow",
      'Bo Park Ada seemed happy about the spring fair',
    ]);
    const off = await thoughtsAfterChat(without('thoughtCheck'));
    expect(off.ada).toEqual(["For Ada Lin's planning: Bo Park", 'Ada Lin memo']);
    expect(off.bo).toEqual(on.bo);
  });
});
