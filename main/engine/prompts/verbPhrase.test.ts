import { describe, expect, it } from 'vitest';
import { isSentence, knownVerb, presentParticiple, progressive, withoutIs } from './verbPhrase';

describe('presentParticiple', () => {
  it.each([
    ['make', 'making'],
    ['eat', 'eating'],
    ['run', 'running'],
    ['lie', 'lying'],
    ['tie', 'tying'],
    ['see', 'seeing'],
    ['agree', 'agreeing'],
    ['visit', 'visiting'],
    ['panic', 'panicking'],
    ['picnic', 'picnicking'],
    ['study', 'studying'],
    ['tidy', 'tidying'],
    ['play', 'playing'],
    ['go', 'going'],
    ['do', 'doing'],
    ['be', 'being'],
    ['have', 'having'],
    ['write', 'writing'],
    ['dye', 'dyeing'],
    ['ski', 'skiing'],
    ['shop', 'shopping'],
    ['chat', 'chatting'],
    ['sit', 'sitting'],
    ['swim', 'swimming'],
    ['quit', 'quitting'],
    ['begin', 'beginning'],
    ['forget', 'forgetting'],
    ['open', 'opening'],
    ['listen', 'listening'],
    ['water', 'watering'],
    ['garden', 'gardening'],
    ['cook', 'cooking'],
    ['read', 'reading'],
    ['fix', 'fixing'],
    ['sew', 'sewing'],
    ['help', 'helping'],
    ['sing', 'singing'],
    ['bring', 'bringing'],
    ['Make', 'making'],
    ['reading', 'reading'],
  ])('%s → %s', (verb, participle) => {
    expect(presentParticiple(verb)).toBe(participle);
  });
});

describe('progressive', () => {
  it.each([
    // The examples.
    ['make tea and eat breakfast', 'making tea and eating breakfast'],
    ['is baking pie', 'baking pie'],
    ['is is baking pie', 'baking pie'],
    ['baking pie', 'baking pie'],
    ['visit the pond', 'visiting the pond'],
    ['lie down for a nap', 'lying down for a nap'],
    ['see the doctor', 'seeing the doctor'],
    ['panic about the exam', 'panicking about the exam'],
    ['run to the shop', 'running to the shop'],
    // Coordination: "and", "or", "then", commas; a verb after "to" stays an infinitive.
    ['cook soup and eat lunch', 'cooking soup and eating lunch'],
    [
      'go to the cafe, eat breakfast at the tree, read a book',
      'going to the cafe, eating breakfast at the tree, reading a book',
    ],
    ['go to bed at 11:30pm, and sleep', 'going to bed at 11:30pm, and sleeping'],
    ['read or write letters', 'reading or writing letters'],
    ['wash up then dry the cups', 'washing up then drying the cups'],
    ['go to the library to study the old willow', 'going to the library to study the old willow'],
    ['go to bed at 5:00 to bake and cook', 'going to bed at 5:00 to bake and cook'],
    [
      'go to the library to read, and eat lunch after',
      'going to the library to read, and eating lunch after',
    ],
    // Nouns after "and" stay nouns.
    ['make tea and biscuits', 'making tea and biscuits'],
    ['buy bread and water', 'buying bread and water'],
    ['buy eggs, milk and flour', 'buying eggs, milk and flour'],
    // Third person, infinitive, capital, trailing punctuation.
    ['reads a book', 'reading a book'],
    ['goes to the market', 'going to the market'],
    ['to make tea', 'making tea'],
    ['to the cafe', 'going to the cafe'],
    ['Make tea.', 'making tea'],
    ['take a walk to the garden, and walk back, ', 'taking a walk to the garden, and walking back'],
    // A place, a state, a meal.
    ['at the cafe', 'at the cafe'],
    ['asleep', 'asleep'],
    ['idle', 'idle'],
    ['lunch with Bo', 'having lunch with Bo'],
    ['a walk in the park', 'having a walk in the park'],
    ['', ''],
  ])('%j → %j', (phrase, expected) => {
    expect(progressive(phrase)).toBe(expected);
  });

  it('leaves a phrase already in -ing as it is', () => {
    for (const p of ['making coffee', 'conversing with Bo Park', 'waiting for Bo to finish']) {
      expect(progressive(p)).toBe(p);
    }
  });
});

describe('isSentence and withoutIs', () => {
  it('writes "<subject> is <activity>" once, in English', () => {
    expect(isSentence('Tobias Mensah', 'make tea and eat breakfast')).toBe(
      'Tobias Mensah is making tea and eating breakfast',
    );
    expect(isSentence('dining table', 'is baking pie')).toBe('dining table is baking pie');
    expect(isSentence('Ada', '')).toBe('Ada is busy');
  });

  it('drops a leading "is" only', () => {
    expect(withoutIs('is burning')).toBe('burning');
    expect(withoutIs(' being cleaned')).toBe('being cleaned');
    expect(withoutIs('island tour')).toBe('island tour');
  });

  it('knows third-person forms of its verbs and not nouns', () => {
    expect(knownVerb('studies')).toBe('study');
    expect(knownVerb('watches')).toBe('watch');
    expect(knownVerb('biscuits')).toBeNull();
  });
});
