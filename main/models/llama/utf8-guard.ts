/**
 * Whether a model needs the incomplete-UTF-8 guard (LlamaModelOptions.banIncompleteUtf8) by
 * default: decided from its vocabulary, read from the GGUF.
 *
 * The guard forbids the tokens that decode to part of a character (SentencePiece byte tokens
 * `<0x80>`…`<0xFF>`). A model that emits one without the rest breaks the answer: the stray byte
 * decodes to U+FFFD, so a string the grammar counted as 60 characters comes back longer and
 * fails its schema. Random-weight models do this all the time; trained ones do not.
 *
 * Turning it on is harmless only where those tokens are a model's sole way to write non-ASCII
 * text: a SentencePiece vocabulary whose ordinary tokens are all ASCII (the project's generated
 * test model). There the guard keeps the output ASCII, which such a model can only write anyway.
 * Vocabularies with ordinary non-ASCII tokens (Llama 2, Mistral, Gemma; even stories260K's 512
 * tokens hold curly quotes and é) spell rare characters and many emoji from byte tokens, and
 * byte-level BPE vocabularies (GPT-2 style: SmolLM2, Llama 3, Qwen) spell every non-ASCII
 * character from partial tokens: banning those would cost real models their emoji, so the
 * guard stays off for them.
 */

/** GGUF `tokenizer.ggml.token_type` of an ordinary text token. */
const NORMAL_TOKEN = 1;
/** SentencePiece's word-boundary mark, an ordinary token in every such vocabulary. */
const WORD_MARK = '\u2581';

/** The vocabulary as the GGUF metadata gives it. */
export interface GgufVocabulary {
  /** `tokenizer.ggml.model`: 'llama' (SentencePiece), 'gpt2' (byte-level BPE), … */
  model: string | undefined;
  tokens: readonly string[];
  /** `tokenizer.ggml.token_type`, one per token; missing entries count as ordinary. */
  tokenTypes?: readonly number[];
}

/**
 * True when the model can write non-ASCII text only through byte tokens, so the guard costs it
 * nothing (see the module comment).
 */
export function needsUtf8Guard(vocabulary: GgufVocabulary): boolean {
  if (vocabulary.model !== 'llama') return false;
  return vocabulary.tokens.every((token, i) => {
    const type = vocabulary.tokenTypes?.[i] ?? NORMAL_TOKEN;
    if (type !== NORMAL_TOKEN) return true;
    for (const ch of token) if (ch !== WORD_MARK && ch.codePointAt(0)! > 0x7f) return false;
    return true;
  });
}
