/**
 * How a run counts tokens when it fits prompts to the model's context. Measured once, at run
 * start, with the model's own tokenizer on the town's own text, and stored with the run: the
 * prompts of a replay or a resumed run are then fitted exactly as the original's were, with no
 * model loaded (a replay has none) and whatever model resumes it.
 */
import { z } from 'zod';
import type { ChatMessage, ModelTokenizer } from '../../models/types';

export const tokenProfileSchema = z.object({
  /** Tokens one request holds (prompt + completion); null when the provider cannot tell. */
  contextTokens: z.number().int().positive().nullable(),
  /** Tokens per character of prose as this model reads the town's text. */
  textTokensPerChar: z.number().positive(),
  /**
   * Tokens per character of a list of place names ("- Larkspur College > lecture hall"),
   * which read worse than prose (capitals, rare words). Absent in runs measured before it.
   */
  nameTokensPerChar: z.number().positive().optional(),
  /** Tokens per character of JSON punctuation and keys (answers are JSON). */
  jsonTokensPerChar: z.number().positive(),
  /** Tokens the chat template adds around a system and a user message. */
  templateTokens: z.number().int().nonnegative(),
});
export type TokenProfile = z.infer<typeof tokenProfileSchema>;

/**
 * The profile of a model that cannot count its tokens (an HTTP server, a scripted test model):
 * no context limit is applied, and answers are sized at two characters per token, which no
 * common tokenizer exceeds on English prose.
 */
export const UNMEASURED_PROFILE: TokenProfile = {
  contextTokens: null,
  textTokensPerChar: 0.5,
  jsonTokensPerChar: 0.5,
  templateTokens: 16,
};

/**
 * JSON the engine's answers are made of, with the strings left empty: braces, quotes, keys,
 * small numbers and booleans tokenize differently from prose.
 */
const JSON_SAMPLE = JSON.stringify({
  // Schedules, tasks and insights are written as tuples (jsonSchema.ts `tuple`).
  schedule: [
    ['', 2, false],
    ['', 1, true],
  ],
  tasks: [['', 15]],
  insights: [['', [1, 4, 7], 6]],
  location: '',
  emoji: '',
  objectState: '',
  decision: 'talk',
  utterance: '',
  end: false,
  wakeHour: 7,
});

/**
 * Measures `tokenizer` on `samples` (the town's text: personas, seed memories) and on the
 * town's places as prompts list them. Each ratio is taken over all of its text at once, so a
 * few odd words do not decide it.
 */
export function measureTokenProfile(
  tokenizer: ModelTokenizer,
  samples: readonly string[],
  placeLines: readonly string[],
): TokenProfile {
  const prose = samples.filter((s) => s.trim() !== '').join('\n');
  if (prose.length === 0) throw new RangeError('measureTokenProfile: no sample text');
  const places = placeLines.join('\n');
  // The template's own tokens: a rendered prompt less its two messages' text.
  const probe: ChatMessage[] = [
    { role: 'system', content: 'Answer with JSON only.' },
    { role: 'user', content: 'It is noon.' },
  ];
  const template =
    tokenizer.countPrompt(probe) - probe.reduce((n, m) => n + tokenizer.count(m.content), 0);
  return {
    contextTokens: tokenizer.contextTokens,
    textTokensPerChar: tokenizer.count(prose) / prose.length,
    ...(places ? { nameTokensPerChar: tokenizer.count(places) / places.length } : {}),
    jsonTokensPerChar: tokenizer.count(JSON_SAMPLE) / JSON_SAMPLE.length,
    templateTokens: Math.max(0, template),
  };
}
