import { describe, expect, it } from 'vitest';
import { withoutDate } from '../prompts/dailyRevise';
import { harness } from '../testing/harness';
import { readsAsNote, readsAsStatus } from './dayRevision';
import { remember } from './mind';
import { planNewDay } from './plan';

describe('the new day’s status check', () => {
  it.each([
    // SmolLM2-135M's revisions of Willow Bend's residents (session 14).
    ['2024-04-15', false],
    ['Monday April 15, 2024', false],
    ['Innate traits: curious, shy, meticulous, gentle', false],
    ["Benadryl's Cove", false],
    ['The old willow is close to the city.', false],
    ['needs to eat breakfast', false],
    ['2024-2034, 10:00: Delphine Cartwright, 2034-2043', false],
    ['Tobias Mensah is going to the cafe and studying on Fridays.', true],
    ["Delphine Cartwright's plans are to go to the garden", true],
    ['She wants to finish the loaves before the market opens.', true],
    // The worked example's resident, copied onto a real one.
    ["Rosa Diaz is writing a book about the town's history.", false],
    ['Rosa Mensah is making a cup of tea and tea cake', false],
    // Session 24's recorded days: someone else, the date, the prompt's own words, the second
    // example with the resident's name in it, a word looping.
    ['Tom has been to the library to read a book and has written his research proposal.', false],
    ['Delphine Cartwright is planning to have a party at the Kettle, and I am going.', true],
    ['Today is Tuesday April 16, 2024. I am sorry to hear that, Delphine.', false],
    ['You are Tobias Mensah, a botany student, telling the town about trees today.', false],
    [
      'Delphine Cartwright is worried about her second hive and is glad she heard the band at the pub tonight.',
      false,
    ],
    ['Delphine is taking the last piece of cake tomorrow, tomorrow, tomorrow tomorrow', false],
  ])('"%s" reads as a status of Tobias Mensah or Delphine Cartwright: %s', (text, expected) => {
    const name = text.includes('Delphine') ? 'Delphine Cartwright' : 'Tobias Mensah';
    expect(readsAsStatus(text, name)).toBe(expected);
  });

  it.each([
    ['the party at the cafe today, Tuesday February 14, at 5 pm', true],
    ['Ada opens the cafe from 8am to 4pm today.', true],
    ['2022', false],
    ['Nice', false],
    ["Benadryl's Cove", false],
    ['Daily requirements: bake bread every morning', false],
    ['2017-12-19,2020-12-29,2021-01-04', false],
    ['Rosa will finish the book this morning', false],
    ['Ada will take the cake tomorrow tomorrow tomorrow yesterday tomorrow', false],
    ['Ada will check the second hive this morning and take the band a jar of honey.', false],
    ['Ada will check the cake this morning and take the band a jar of jam.', true],
  ])('"%s" reads as a plan note: %s', (text, expected) => {
    expect(readsAsNote(text, 'Ada Lin')).toBe(expected);
  });

  it('a neighbour who shares a first name with an example resident is the town’s own', () => {
    // The Ville's Jennifer Moore is married to Sam Moore; the examples' resident is Sam Lee.
    const town = ['Jennifer Moore', 'Sam Moore'];
    const note = 'Jennifer will help Sam with his poems this evening';
    expect(readsAsStatus(note, 'Jennifer Moore', town)).toBe(true);
    expect(readsAsStatus(note, 'Jennifer Moore')).toBe(false);
    expect(readsAsStatus('Rosa will help Jennifer this evening', 'Jennifer Moore', town)).toBe(
      false,
    );
  });

  it('a dated statement copied as the answer keeps its words, not its date', () => {
    expect(withoutDate('2024-04-15 22:38: Tobias Mensah is going to the cafe')).toBe(
      'Tobias Mensah is going to the cafe',
    );
    expect(withoutDate('Monday April 15, 2024, 07:00: Delphine Cartwright is baking')).toBe(
      'Delphine Cartwright is baking',
    );
    expect(withoutDate('22:35: Agnes Whitlow is writing a book')).toBe(
      'Agnes Whitlow is writing a book',
    );
    expect(withoutDate('Agnes is writing: a history of the town')).toBe(
      'Agnes is writing: a history of the town',
    );
  });
});

describe('the new day’s revision, checked', () => {
  /** Ada's status and plan note after a day-2 revision that answered `revised`. */
  async function revisedAs(revised: { currently: string; needs: string }) {
    const h = await harness({ 'daily.revise': () => revised });
    const ada = h.agents.ada;
    await planNewDay(ada, h.mind());
    const before = { ...ada.identity };
    await planNewDay(ada, h.mind(h.clock.gameSecondsOf(1, 0)));
    return { before, after: ada.identity };
  }

  it('takes a status about the resident and a plan note in words', async () => {
    const revised = {
      currently: 'Ada Lin is baking for the spring fair.',
      needs: 'the spring fair at the park today at 3 pm',
    };
    const { after } = await revisedAs(revised);
    expect([after.currently, after.dailyPlanRequirement]).toEqual([
      revised.currently,
      revised.needs,
    ]);
  });

  it('keeps yesterday’s plan note when the new one loops, and takes the status', async () => {
    const revised = {
      currently: 'Ada Lin is baking for the spring fair.',
      needs: 'Ada will bake the cake tomorrow tomorrow tomorrow tomorrow',
    };
    const { before, after } = await revisedAs(revised);
    expect([after.currently, after.dailyPlanRequirement]).toEqual([
      revised.currently,
      before.dailyPlanRequirement,
    ]);
  });

  it('keeps both of yesterday’s when the status is about someone else', async () => {
    // SmolLM2 for Tobias Mensah: "Tom has been to the library…", "Tom will finish…".
    const { before, after } = await revisedAs({
      currently: 'Tom has been to the library and wrote his research proposal.',
      needs: 'Tom will finish the proposal draft this week and send it to the council',
    });
    expect([after.currently, after.dailyPlanRequirement]).toEqual([
      before.currently,
      before.dailyPlanRequirement,
    ]);
  });
});

describe('what the new day’s revision reads', () => {
  it('yesterday’s memories by their time, each wording once', async () => {
    let prompt = '';
    const h = await harness({
      'daily.revise': (request) => {
        prompt = String(request.messages.at(-1)?.content);
        return { currently: 'Ada Lin is baking for the spring fair.', needs: 'the fair at 3 pm' };
      },
    });
    const ada = h.agents.ada;
    await planNewDay(ada, h.mind());
    for (const minute of [600, 660, 720]) {
      await remember(h.mind(h.clock.gameSecondsOf(0, minute)), ada, [
        { kind: 'observation', description: 'Ada Lin is baking bread', importance: 5 },
      ]);
    }
    await planNewDay(ada, h.mind(h.clock.gameSecondsOf(1, 0)));
    const yesterday = h.clock.dateLabel(0);
    expect(prompt).toContain(`What you remember of ${yesterday} and before:`);
    const lines = prompt.split('\n').filter((l) => l.startsWith('- '));
    expect(lines.filter((l) => l.endsWith(': Ada Lin is baking bread'))).toHaveLength(1);
    // A statement of the day the heading names carries its time alone, not the date again.
    expect(lines.length).toBeGreaterThan(1);
    expect(lines.every((l) => /^- \d\d:\d\d: /.test(l))).toBe(true);
    expect(prompt).not.toContain(`${yesterday}, `);
  });
});
