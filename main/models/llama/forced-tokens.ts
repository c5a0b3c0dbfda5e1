/**
 * Jump-forward decoding of what a request's JSON schema forces (forced-text.ts): once the model
 * has written `{"location":"L`, the rest of the one place name starting so, the quote and
 * `,"emoji":"` can only be that, so they are fed to the model with its next evaluation as prompt
 * tokens (one batch, no logits) instead of being decoded one at a time. A key or a bracket costs
 * what a prompt token costs; the model samples only where it has a choice.
 *
 * The grammar state is moved past the forced tokens with node-llama-cpp's own grammar calls,
 * which it keeps internal (its chat and its token predictors use them); where a release lacks
 * them nothing is forced and every token is decoded as before.
 */
import type { Llama, LlamaGrammarEvaluationState, LlamaModel, Token } from 'node-llama-cpp';
import type { JsonSchema } from '../types.ts';
import { forcedText, isWordChar } from './forced-text.ts';

/** node-llama-cpp's internal grammar-state calls (LlamaSampler uses them). */
interface GrammarCalls {
  canBeNextTokenForGrammarEvaluationState(state: unknown, token: Token): boolean;
  acceptGrammarEvaluationStateToken(state: unknown, token: Token): void;
}

/**
 * The forced text without what the model's next token may run on from: its trailing spaces (a
 * word token carries the space before it), its last word when a letter or digit may follow
 * (" bedroom" where " b" was forced: a word cut into other tokens than the model's own shifts
 * what it writes next, "> b" then "athroom"), its last punctuation when punctuation may follow
 * ("]," is one token, so "]" alone would not be the model's).
 */
export function untilChoice({ text, after }: ReturnType<typeof forcedText>): string {
  const kept = text.trimEnd();
  if (kept !== text) return kept;
  const last = text.at(-1);
  if (last === undefined) return text;
  if (isWordChar(last)) return after.word ? text.replace(/\s*[\p{L}\p{N}]+$/u, '') : text;
  return after.punctuation ? text.replace(/\s*[^\s\p{L}\p{N}]+$/u, '') : text;
}

export class ForcedTokens {
  private constructor(
    private readonly model: LlamaModel,
    private readonly schema: JsonSchema,
    private readonly calls: GrammarCalls,
    private readonly state: unknown,
  ) {}

  /**
   * Forcing for one request decoded under `grammarState`, or undefined where this
   * node-llama-cpp does not expose the grammar calls.
   */
  static of(
    llama: Llama,
    model: LlamaModel,
    schema: JsonSchema,
    grammarState: LlamaGrammarEvaluationState,
  ): ForcedTokens | undefined {
    const calls = (llama as unknown as { _bindings?: { AddonSampler?: Partial<GrammarCalls> } })
      ._bindings?.AddonSampler;
    const state = (grammarState as unknown as { _state?: unknown })._state;
    if (
      typeof calls?.canBeNextTokenForGrammarEvaluationState !== 'function' ||
      typeof calls.acceptGrammarEvaluationStateToken !== 'function' ||
      state === undefined
    )
      return undefined;
    return new ForcedTokens(model, schema, calls as GrammarCalls, state);
  }

  /**
   * The tokens the schema forces after `written` (at most `room`), accepted into the grammar
   * state: the caller must evaluate them next. Stops before a token the grammar refuses, so a
   * disagreement between forced-text.ts and the grammar only costs decoding.
   */
  take(written: string, room: number): Token[] {
    if (room < 1) return [];
    const text = untilChoice(forcedText(this.schema, written));
    if (!text) return [];
    const tokens = this.model.tokenize(text, false);
    // A tokenizer that adds a space before a text (SentencePiece's dummy prefix) would feed
    // more than the schema forces: then nothing is forced.
    if (this.model.detokenize(tokens) !== text) return [];
    const taken: Token[] = [];
    for (const token of tokens.slice(0, room)) {
      if (!this.calls.canBeNextTokenForGrammarEvaluationState(this.state, token)) break;
      this.calls.acceptGrammarEvaluationStateToken(this.state, token);
      taken.push(token);
    }
    return taken;
  }
}
