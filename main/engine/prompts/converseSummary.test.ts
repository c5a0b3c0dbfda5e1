import { describe, expect, it } from 'vitest';
import { chatTopic, converseSummaryPrompt, talkedAbout } from './converseSummary';
import { EXAMPLE_CHAT_TOPIC } from './examples';
import type { TokenProfile } from './tokenProfile';

/** The opening of a SmolLM2-135M chat in Willow Bend (converse.smollm2.integration.test.ts). */
const WILLOW_CHAT = [
  'Tobias Mensah: I am sorry to hear that. The willow in the pond bank is not as beautiful as I imagined it would be. The old willow is in fact very beautiful',
  'Agnes Whitlow: I am sorry to hear that, I am not sure what to believe in, but I am proud of the people of Willow Bend, and I am proud of them all.',
];
const NAMES = ['Tobias Mensah', 'Agnes Whitlow'] as const;

const roomy: TokenProfile = {
  contextTokens: 8192,
  textTokensPerChar: 0.25,
  jsonTokensPerChar: 0.35,
  templateTokens: 8,
};

describe('chatTopic', () => {
  it('keeps a topic phrase as the model wrote it, less trailing punctuation', () => {
    expect(chatTopic('the old willow and the pond bank.', WILLOW_CHAT, NAMES)).toBe(
      'the old willow and the pond bank',
    );
    expect(chatTopic('"plans for the spring fair"', WILLOW_CHAT, NAMES)).toBe(
      'plans for the spring fair',
    );
    expect(chatTopic('conversing about the 10am lecture', WILLOW_CHAT, NAMES)).toBe(
      'the 10am lecture',
    );
    // SmolLM2's answer after the worked example: the names go, the topic stays.
    expect(
      chatTopic('Tobias Mensah and Agnes Whitlow talking about a willow', WILLOW_CHAT, NAMES),
    ).toBe('a willow');
    expect(
      chatTopic("Tobias Mensah and Agnes Whitlow's difficult relationship", WILLOW_CHAT, NAMES),
    ).toBe('their difficult relationship');
    expect(chatTopic('discussing the council meeting', WILLOW_CHAT, NAMES)).toBe(
      'the council meeting',
    );
  });

  it.each([
    // A line of the chat (the walkthrough's "conversing with Marisol Okafor about I am sorry…").
    'I am sorry to hear that.',
    'the willow in the pond bank is not as beautiful',
    // Clock times and code (SmolLM2's answer in the integration test).
    '21:35:48 2:59:24.10.48AMTodays_22:35:48, 2:59:24',
    // Spoken, an interjection, a question, the worked example's own topic.
    'your new job',
    'Hello there Agnes',
    'what is the willow?',
    EXAMPLE_CHAT_TOPIC.topic,
    // The speakers' names alone (SmolLM2's summaries of two Willow Bend chats).
    'Tobias and Agnes',
    'Tobias Mensah and Agnes Whitlow',
  ])('%j is not a topic: the thing the chat named most instead', (answer) => {
    expect(chatTopic(answer, WILLOW_CHAT, NAMES)).toBe('the old willow');
  });

  it("is not the worked example's things the chat never spoke of", () => {
    // SmolLM2-135M's summary of a Willow Bend chat about the willow: the example's bees.
    expect(chatTopic("Tobias' bees and Agnes's proposal", WILLOW_CHAT, NAMES)).toBe(
      'the old willow',
    );
    expect(chatTopic('the band at the pub', WILLOW_CHAT, NAMES)).toBe('the old willow');
    // Spoken of in the chat, they are its topic.
    const beeChat = ['Tobias Mensah: My bee hive is quiet.', 'Agnes Whitlow: The bees are asleep.'];
    expect(chatTopic("Tobias' bees", beeChat, NAMES)).toBe("Tobias' bees");
  });

  it('is empty when neither the answer nor the chat gives a topic', () => {
    expect(chatTopic('I am sorry to hear that.', ['Ada Lin: I am sorry to hear that.'])).toBe('');
  });
});

describe('talkedAbout', () => {
  it('takes the most mentioned thing, its most frequent then longest phrase', () => {
    expect(talkedAbout(WILLOW_CHAT, NAMES)).toBe('the old willow');
    expect(
      talkedAbout([
        'Ada Lin: Have you seen my bees? The bees are quiet.',
        'Bo Park: Your bees will be fine, and a lot of rain is coming.',
      ]),
    ).toBe('the bees');
  });

  it('skips vague heads and the speakers’ own names', () => {
    expect(talkedAbout(['Ada Lin: Thanks a lot, the day was long.'])).toBe('');
    expect(talkedAbout(['Ada Lin: the Ada of old'], ['Ada Lin'])).toBe('');
  });

  it('ends a phrase at a word of when', () => {
    // SmolLM2's topic for a chat about the library fell back to "the library today".
    expect(talkedAbout(['Tobias Mensah: Are you going to the library today?'])).toBe('the library');
  });
});

describe('converseSummaryPrompt', () => {
  it('shows a worked example and decodes the answer to a topic', () => {
    const fitted = converseSummaryPrompt({ names: NAMES, transcript: WILLOW_CHAT }).fit(roomy);
    expect(fitted.messages.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'user']);
    expect(fitted.messages[2].content).toBe(JSON.stringify({ topic: EXAMPLE_CHAT_TOPIC.topic }));
    const answer = fitted.validator.parse({ topic: 'I am sorry to hear that.' });
    expect(fitted.decode(answer)).toEqual({ topic: 'the old willow' });
  });
});
