import { describe, expect, it } from 'vitest';
import { BASELINE_CONDITIONS, townConditions } from '../../../common/runs/conditions';
import { wakeItem } from '../prompts/planDaily';
import { enumOf } from '../testing/ScriptedModel';
import { harness } from '../testing/harness';
import { buildTestScenario } from '../testing/testTown';
import { TileWorld } from '../world/TileWorld';
import { remember } from './mind';
import { BED_SLEEPING_STATE, blockAt, knownLocations, nextAction, planNewDay } from './plan';
import { SLEEP_ACTIVITY } from './schedule';

describe('planning', () => {
  it('plans a new day once: wake hour, broad plan, hourly schedule fitted to the whole day', async () => {
    const h = await harness();
    const ada = h.agents.ada;
    expect(await planNewDay(ada, h.mind())).toBe(true);
    expect(await planNewDay(ada, h.mind(600))).toBe(false);
    expect(h.model.calls.map((c) => c.fn)).toEqual(['plan.wake', 'plan.daily', 'plan.hourly']);
    expect(ada.schedule.map((b) => [b.activity, b.startMinute, b.minutes, b.asleep])).toEqual([
      [SLEEP_ACTIVITY, 0, 420, true],
      ['work at the cafe', 420, 240, false],
      ['lunch and errands', 660, 240, false],
      ['garden in the park', 900, 240, false],
      ['read at home', 1140, 240, false],
      [SLEEP_ACTIVITY, 1380, 60, true],
    ]);
    expect(ada.memory.latest(['plan'], 1)[0].description).toMatch(
      /^This is Ada Lin's plan for Monday/,
    );
    // The day plan opens with the item the prompt gave, at the hour Ada wakes; the schedule is
    // asked for that plan.
    expect(ada.dailyPlan).toEqual([
      wakeItem(7),
      'wake up and wash',
      'work at the cafe',
      'have lunch',
      'meet friends',
      'go to bed',
    ]);
    expect(h.model.calls[2].messages.at(-1)?.content).toContain(
      `Your plan for today: ${ada.dailyPlan.join('; ')}.`,
    );
  });

  it("decomposes the current hour and picks a place only from the agent's own spatial memory", async () => {
    const h = await harness();
    const ada = h.agents.ada;
    ada.spatial.observe(h.world, ada.tile, ada.perception.visionRadius);
    await planNewDay(ada, h.mind());
    const action = await nextAction(ada, h.mind());
    const [decompose, act] = h.model.calls.slice(3);
    expect(decompose.fn).toBe('plan.decompose');
    expect(ada.tasks.map((t) => [t.task, t.startMinute, t.minutes])).toEqual([
      // An hour holds three tasks at most (prompts/planDecompose.ts maxTasksFor): the model's
      // three quarter-hours are stretched to fill it.
      ['prepare the counter', 600, 20],
      ['serve customers', 620, 20],
      ['wash cups', 640, 20],
    ]);
    expect(enumOf(act, 'location')).toEqual(knownLocations(ada, h.mind()));
    // Ada stands in the kitchen, so the kitchen's places come first.
    expect(enumOf(act, 'location')[0]).toBe('cafe > kitchen > stove');
    expect(action).toMatchObject({
      description: 'preparing the counter',
      address: 'Town:cafe:kitchen:stove',
      objectAddress: 'Town:cafe:kitchen:stove',
      objectState: 'in use',
      endsAt: 20 * 60,
    });
    ada.action = action;
    expect(await nextAction(ada, h.mind(19 * 60))).toBeNull();
  });

  it('decomposes a whole schedule block once, for its whole length (reverie generate_task_decomp)', async () => {
    const h = await harness();
    const ada = h.agents.ada;
    await planNewDay(ada, h.mind());
    h.model.calls.length = 0;
    // 11:00–15:00 is one block, "lunch and errands": one decomposition for all 240 minutes.
    for (let t = 3600; t < 5 * 3600; t += 600) {
      const action = await nextAction(ada, h.mind(t));
      if (action) ada.action = action;
    }
    const decompositions = h.model.callsOf('plan.decompose');
    expect(decompositions).toHaveLength(1);
    expect(decompositions[0].messages.at(-1)?.content).toContain(
      'From 11:00, for 240 minutes, you lunch and errands.',
    );
    // The model's four 15-minute tasks are stretched over the block in proportion.
    expect(ada.tasks.map((t) => [t.task, t.startMinute, t.minutes])).toEqual([
      ['prepare the counter', 660, 60],
      ['serve customers', 720, 60],
      ['wash cups', 780, 60],
      ['tidy the tables', 840, 60],
    ]);
    expect(h.model.callsOf('action')).toHaveLength(4);
  });

  it('sleeps in the bed of its living area, marking the bed as slept in', async () => {
    const scenario = buildTestScenario();
    scenario.tree.sectors[0].arenas[1].objects[0].name = 'bed'; // the dining table
    const h = await harness();
    const world = TileWorld.fromScenario(scenario);
    const ada = h.agents.ada;
    ada.identity = { ...ada.identity, livingArea: 'Town:cafe:dining' };
    await planNewDay(ada, h.mind(0, { world }));
    const night = h.clock.gameSecondsOf(0, 23 * 60 + 30);
    expect(await nextAction(ada, h.mind(night, { world }))).toMatchObject({
      description: SLEEP_ACTIVITY,
      address: 'Town:cafe:dining:bed',
      objectAddress: 'Town:cafe:dining:bed',
      objectState: BED_SLEEPING_STATE,
    });
  });

  it('sleeps in the living area without a model call when it has no bed', async () => {
    const h = await harness();
    const ada = h.agents.ada;
    await planNewDay(ada, h.mind());
    const calls = h.model.calls.length;
    const night = h.clock.gameSecondsOf(0, 23 * 60 + 30);
    const action = await nextAction(ada, h.mind(night));
    expect(h.model.calls.length).toBe(calls);
    expect(action).toMatchObject({ description: SLEEP_ACTIVITY, address: 'Town:cafe:kitchen' });
  });

  it('revises identity on the next day, keeps the day plan and asks only its schedule anew', async () => {
    const h = await harness();
    const ada = h.agents.ada;
    await planNewDay(ada, h.mind());
    const [, ...monday] = ada.dailyPlan;
    h.model.calls.length = 0;
    await planNewDay(ada, h.mind(h.clock.gameSecondsOf(1, 0)));
    expect(h.model.calls.map((c) => c.fn)).toEqual(['daily.revise', 'plan.wake', 'plan.hourly']);
    // Monday's plan is Tuesday's, from Tuesday's wake-up hour.
    expect(ada.dailyPlan).toEqual([wakeItem(ada.wakeMinute / 60), ...monday]);
    expect(h.model.callsOf('plan.hourly')[0].messages.at(-1)?.content).toContain(
      `Your plan for today: ${ada.dailyPlan.join('; ')}.`,
    );
    expect(ada.identity.currently).toBe('They are busy preparing for the spring fair.');
    // The revised identity is what the first planning question describes.
    expect(h.model.calls[1].messages.at(-1)?.content).toContain(
      'They are busy preparing for the spring fair.',
    );
  });
});

describe('the new day (reverie revise_identity)', () => {
  it('a party announced on day 1 for "tomorrow at 5 pm" reaches day 2 dated, and lands at 17:00 in its schedule though the day plan stays as it was', async () => {
    const party = 'go to the party at the cafe at 5 pm';
    const h = await harness({
      'daily.revise': () => ({
        currently: 'Ada Lin runs the cafe and is looking forward to the party there tonight.',
        needs: 'the party at the cafe today, Tuesday February 14, at 5 pm',
      }),
      'plan.daily': () => ({
        plan: ['open the cafe', 'have lunch', 'garden in the park', 'go to bed'],
      }),
      'plan.hourly': () => ({
        schedule: [
          { activity: 'open the cafe', hours: 4, asleep: false },
          { activity: 'lunch and errands', hours: 3, asleep: false },
          { activity: 'garden in the park', hours: 3, asleep: false },
          { activity: 'party at the cafe', hours: 3, asleep: false },
          { activity: 'read at home', hours: 3, asleep: false },
          { activity: 'sleeping', hours: 1, asleep: true },
        ],
      }),
    });
    const ada = h.agents.ada;
    await planNewDay(ada, h.mind(0)); // Monday February 13, 10:00
    // A busy Monday of small thoughts, then at 15:00 Bo tells Ada about the party.
    await remember(
      h.mind(2 * 3600),
      ada,
      Array.from({ length: 40 }, (_, i) => ({
        kind: 'thought' as const,
        description: `Ada Lin noticed small thing ${i} at the cafe`,
        importance: 2,
      })),
    );
    const announcement = "For Ada Lin's planning: go to the party at the cafe tomorrow at 5 pm";
    await remember(h.mind(5 * 3600), ada, [
      { kind: 'plan', description: announcement, importance: 8, subject: ada.name },
    ]);
    h.model.calls.length = 0;

    await planNewDay(ada, h.mind(21 * 3600)); // Tuesday February 14, 07:00
    const [revise] = h.model.callsOf('daily.revise');
    const question = revise.messages.at(-1)!.content;
    expect(question).toContain('What you remember of Monday February 13, 2023 and before:');
    expect(question).toContain('Today is Tuesday February 14, 2023.');
    // The statements are timed under the heading's date, the announcement among them, so
    // "tomorrow" is Tuesday.
    expect(question).toContain(`- 15:00: ${announcement}\n`);
    const statements = question
      .split('\n')
      .filter((l) => /^- (?:\w+day \w+ \d+, \d{4}, )?\d\d:\d\d: /.test(l));
    // Two focal points, 30 memories each (reverie's ~60), every one of them a statement.
    const focal = [
      "Ada Lin's plan for Tuesday February 14, 2023.",
      "Important recent events for Ada Lin's life.",
    ];
    const found = ada.retrievals.filter((r) => focal.includes(r.query));
    expect(found.map((r) => [r.query, r.results.length]).sort()).toEqual(
      focal.map((q) => [q, 30]).sort(),
    );
    // Each wording once.
    const union = new Set(found.flatMap((r) => r.results.map((m) => m.description)));
    expect(statements).toHaveLength(union.size);
    // Monday's day plan stays (reverie keeps `daily_req`); the revision becomes Ada's status and
    // needs, which the schedule is asked with, beside her dated thoughts, on the right day.
    expect(h.model.callsOf('plan.daily')).toEqual([]);
    expect(ada.dailyPlan).not.toContain(party);
    const hourly = h.model.callsOf('plan.hourly')[0].messages.at(-1)!.content;
    expect(hourly).toContain('the party at the cafe today, Tuesday February 14, at 5 pm');
    expect(hourly).toContain('Today is Tuesday February 14, 2023.');
    expect(hourly).toContain(`Monday February 13, 2023, 15:00: ${announcement}`);
    // The schedule asked with them has the party from 17:00 to 20:00.
    expect(blockAt(ada, 17 * 60)).toMatchObject({
      activity: 'party at the cafe',
      startMinute: 17 * 60,
      minutes: 180,
      asleep: false,
    });
    expect(ada.day).toBe(1);
  });
});

describe("yesterday's routine (the lifestyle policy)", () => {
  const lifestyle = townConditions({ lifestylePolicy: true });

  it('with the lifestyle policy on, the new day’s schedule is asked with what the resident did yesterday; off, as reverie asks it', async () => {
    for (const conditions of [lifestyle, BASELINE_CONDITIONS]) {
      const h = await harness();
      const ada = h.agents.ada;
      await planNewDay(ada, h.mind(0, { conditions })); // Monday February 13, 10:00
      // The whisper re-planned Monday's afternoon: what she did is the day as it ended. Her
      // evening was a worked example's block copied ("care for patients on the ward"): the
      // example's day, not hers, so it is not shown back as her routine.
      ada.schedule[3] = { ...ada.schedule[3], activity: 'visit Bo at the market' };
      ada.schedule[4] = { ...ada.schedule[4], activity: 'Care for patients on the ward' };
      await planNewDay(ada, h.mind(21 * 3600, { conditions })); // Tuesday, 07:00
      const [, tuesday] = h.model.callsOf('plan.hourly');
      const question = tuesday.messages.at(-1)!.content;
      if (conditions === lifestyle) {
        // Awake blocks in order, each once; sleep is not an activity to repeat.
        expect(question).toContain(
          'Yesterday you did: work at the cafe; lunch and errands; visit Bo at the market.\n',
        );
      } else {
        expect(question).not.toContain('Yesterday');
      }
      // Monday's own schedule was asked without one: there was no day before it.
      expect(h.model.callsOf('plan.hourly')[0].messages.at(-1)!.content).not.toContain('Yesterday');
    }
  });
});
