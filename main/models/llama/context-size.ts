/**
 * The context size a model is loaded with (tokens per sequence: prompt + completion).
 *
 * Chosen (automatic): the length the model was trained on — from its GGUF metadata
 * (`<arch>.context_length`) — halved until the KV cache of all sequences fits in half the free
 * memory, so the embedder, the window and other programs keep room. A run's prompts grow with
 * the town (memories, conversations), so the longest context the model and the machine allow is
 * the one that fails least; llama.cpp only computes over the cells in use, so a long context
 * costs memory, not speed.
 *
 * Asked for (Settings › Inference, the CLI's --context): that size, but never past the trained
 * length (the model's output degrades beyond it); too little memory for it is the caller's
 * error to report.
 */

/** Below this an agent's prompts do not fit at all: automatic sizing stops halving here. */
export const MIN_AUTO_CONTEXT = 2048;
/** When a GGUF does not say what it was trained on. */
export const FALLBACK_CONTEXT = 4096;
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
}

/** The context size to create (see the module comment). */
export async function chooseContextSize(choice: ContextChoice): Promise<number> {
  const trained = choice.trained && choice.trained > 0 ? choice.trained : FALLBACK_CONTEXT;
  if (choice.requested !== undefined) return Math.max(64, Math.min(choice.requested, trained));
  const budget = choice.freeBytes * AUTO_MEMORY_SHARE;
  let size = trained;
  while (size > MIN_AUTO_CONTEXT && (await choice.bytesFor(size)) > budget) {
    size = Math.max(MIN_AUTO_CONTEXT, Math.floor(size / 2));
  }
  return size;
}
