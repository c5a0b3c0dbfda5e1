/**
 * The context size a model is loaded with (tokens per sequence: prompt + completion).
 *
 * Chosen (automatic): the length the model was trained on — from its GGUF metadata
 * (`<arch>.context_length`) — but at most {@link autoContextCap} tokens, halved until the KV
 * cache of the sequences decoding at once fits in half the free memory, so the embedder, the
 * window and other programs keep room. What memory a longer context would take goes to more
 * caches instead (see {@link AUTO_CONTEXT_CHARS}).
 *
 * Asked for (Settings › Inference, the CLI's --context): that size, but never past the trained
 * length (the model's output degrades beyond it); too little memory for it is the caller's
 * error to report.
 */

/** Below this an agent's prompts do not fit at all: automatic sizing stops halving here. */
export const MIN_AUTO_CONTEXT = 2048;
/** When a GGUF does not say what it was trained on. */
export const FALLBACK_CONTEXT = 4096;
/**
 * Longest automatic context, in characters of English prompt: about 4,096 tokens of SmolLM2
 * (0.27 tokens a character of a town's text, 0.23 of plain prose). Each sequence's KV cells are allocated whole, filled or not
 * (SmolLM2-135M at 8k tokens: 188 MB a sequence; 32 sequences made the process 5.9 GB resident,
 * as much with 600 tokens in each as with none), and a run's prompts are fitted to the context
 * anyway (prompts/budget.ts): the longest prompt and answer in recorded SmolLM2 days was 2,619
 * tokens (Willow Bend's `daily.revise`; Harrow Quay's longest 2,222). A model server's context
 * defaults to 4,096 tokens too. So the memory a longer context would take keeps more caches
 * (more kinds of prompt find their beginning still cached), and a model trained on 128k tokens
 * no longer spends a laptop's memory on four sequences of 32k cells. Counted in characters
 * because a tokenizer that spends more tokens a character needs more tokens for the same
 * prompts (the generated test model's byte-level vocabulary: one a character). Settings ›
 * Inference (`--context`) still asks for more.
 */
export const AUTO_CONTEXT_CHARS = 15_000;
/** The least an automatic context is capped at, whatever the tokenizer: 4,096 tokens. */
export const AUTO_CONTEXT_CAP = 4096;

/**
 * The longest automatic context for a model whose tokenizer spends `tokensPerChar` tokens a
 * character of English: {@link AUTO_CONTEXT_CHARS} of them, in whole 256-token blocks, at least
 * {@link AUTO_CONTEXT_CAP}.
 */
export function autoContextCap(tokensPerChar: number): number {
  const tokens = Math.ceil((AUTO_CONTEXT_CHARS * tokensPerChar) / 256) * 256;
  return Math.max(AUTO_CONTEXT_CAP, Number.isFinite(tokens) ? tokens : AUTO_CONTEXT_CAP);
}

/** Share of the free memory an automatic context may take. */
export const AUTO_MEMORY_SHARE = 0.5;

export interface ContextChoice {
  /** The size asked for; undefined = automatic. */
  requested?: number;
  /** The trained context length from the GGUF (0 or undefined when absent). */
  trained?: number;
  /** Bytes the context would need at `size` tokens per sequence. */
  bytesFor(size: number): Promise<number>;
  /** Bytes free now (after the weights are loaded). */
  freeBytes: number;
  /** The longest automatic context ({@link autoContextCap}); {@link AUTO_CONTEXT_CAP} if absent. */
  cap?: number;
}

/** The context size to create (see the module comment). */
export async function chooseContextSize(choice: ContextChoice): Promise<number> {
  const trained = choice.trained && choice.trained > 0 ? choice.trained : FALLBACK_CONTEXT;
  if (choice.requested !== undefined) return Math.max(64, Math.min(choice.requested, trained));
  const budget = choice.freeBytes * AUTO_MEMORY_SHARE;
  let size = Math.min(trained, choice.cap ?? AUTO_CONTEXT_CAP);
  while (size > MIN_AUTO_CONTEXT && (await choice.bytesFor(size)) > budget) {
    size = Math.max(MIN_AUTO_CONTEXT, Math.floor(size / 2));
  }
  return size;
}

/**
 * Caches an automatic context keeps at most, as a multiple of the requests it decodes at once,
 * and in all. Routing a recorded Willow Bend day's 561 requests one at a time through the pool,
 * the share of prompt tokens served from the cache was 0.52 with 4 caches, 0.56 with 8, 0.62
 * with 16 and 0.64 with 24. Since another resident's cache is kept rather than cut back
 * (sequence-pool.ts `KEEP_OTHERS_TOKENS`), each resident's prompts of each kind want their own
 * cache: replaying a whole SmolLM2 day of Willow Bend (397 requests) on the model, 32 caches
 * evaluated 83,556 prompt tokens in 383 CPU-seconds against 108,101 in 481 with 16. Routing
 * the recorded requests of three Willow Bend days and four Harrow Quay hours through the pool,
 * 64 caches evaluated 7.7% and 13.9% fewer prompt tokens than 32 (128: 24% fewer in Harrow
 * Quay's 25 residents); replayed on the model (`llm.context_cap`), 4k sequences and 64 caches
 * evaluated 76,605 of a recorded Willow Bend day's prompt tokens against 83,556 (8k, 32), and
 * 118,379 of Harrow Quay's first 615 requests against 132,054. A cache costs a whole sequence's
 * KV memory (SmolLM2-135M at 4k tokens: 94 MB, so 64 take what 32 did at 8k).
 */
export const AUTO_CACHES_PER_SEQUENCE = 16;
export const MAX_AUTO_CACHES = 64;

export interface CacheChoice {
  /** The number asked for; undefined = automatic. */
  requested?: number;
  /** Requests decoded at once: never fewer caches than this. */
  parallel: number;
  /**
   * Whether a context keeping `caches` sequences of the chosen size fits in the share of free
   * memory an automatic choice may take ({@link AUTO_MEMORY_SHARE}): RAM, and VRAM on a GPU.
   */
  fits(caches: number): Promise<boolean>;
}

/**
 * The sequences a context keeps, each with its own KV cache (sequence-pool.ts): as asked (at
 * least `parallel`), or automatically the most, up to {@link MAX_AUTO_CACHES} and
 * {@link AUTO_CACHES_PER_SEQUENCE} per request decoded at once, that fit — never fewer than
 * `parallel`, which the context size was chosen for.
 */
export async function chooseCaches(choice: CacheChoice): Promise<number> {
  const parallel = Math.max(1, Math.floor(choice.parallel));
  if (choice.requested !== undefined) return Math.max(parallel, Math.floor(choice.requested));
  let caches = Math.max(parallel, Math.min(MAX_AUTO_CACHES, parallel * AUTO_CACHES_PER_SEQUENCE));
  while (caches > parallel && !(await choice.fits(caches))) caches--;
  return caches;
}
