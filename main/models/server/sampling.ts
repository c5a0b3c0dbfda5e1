/**
 * The repetition control each kind of server understands, mirroring the in-process sampler.
 * In-process runs use DRY ("don't repeat yourself", llama/llama-language-model.ts): small models
 * loop, and over HTTP with no penalty Agnes's hourly schedule had 1 distinct item of 8 where
 * in-process had 8 of 8 (issue #24). llama.cpp's server has the same DRY sampler, so it gets the
 * same settings; the others get the nearest penalty they have. Nothing a kind does not document
 * is sent: a hosted API may refuse an unknown field.
 */
import type { ServerKind } from '../../../common/api/servers.ts';
import type { CompletionRequest } from '../types.ts';

/** The in-process DRY settings (llama-language-model.ts: DEFAULT_DRY_STRENGTH and its constants). */
export const DRY = { multiplier: 0.8, base: 1.75, allowedLength: 2, penaltyLastN: 256 } as const;

/**
 * A classic repetition penalty (Ollama's `repeat_penalty`, vLLM's `repetition_penalty`): mild,
 * since unlike DRY it also weighs the JSON keys and quotes an answer must repeat (a grammar
 * still forces those, so it only shifts the free text).
 */
export const REPEAT_PENALTY = 1.1;

/** OpenAI's `frequency_penalty` (range −2…2): enough to break loops, not to warp wording. */
export const FREQUENCY_PENALTY = 0.3;

/**
 * The body fields for `request` on a server of `kind`. `contextTokens` is the context the
 * provider fits prompts to; Ollama is told it too, where its API listens.
 */
export function samplingFields(
  kind: ServerKind,
  request: Pick<CompletionRequest<unknown>, 'dry'>,
  contextTokens: number,
): Record<string, unknown> {
  // Keep the slot's KV cache across requests: an agent's stable prefix is evaluated once.
  // Ollama is told the context it is fitted to, where its API listens.
  const base: Record<string, unknown> =
    kind === 'llama.cpp'
      ? // min_p 0 as in-process (node-llama-cpp's default); the server's own 0.05 cut the
        // alternatives DRY leaves, and Tobias's schedule came back "go to the cafe" 6 times of 8.
        { cache_prompt: true, min_p: 0 }
      : kind === 'ollama'
        ? { options: { num_ctx: contextTokens } }
        : {};
  // The run's drySampling guard off (common/runs/guards.ts): no repetition control at all.
  if (request.dry === false) return base;
  switch (kind) {
    case 'llama.cpp':
      return {
        ...base,
        dry_multiplier: DRY.multiplier,
        dry_base: DRY.base,
        dry_allowed_length: DRY.allowedLength,
        dry_penalty_last_n: DRY.penaltyLastN,
      };
    case 'ollama':
      // Ollama's own `options`; its OpenAI endpoint maps frequency_penalty itself. Versions whose
      // /v1 ignores `options` still get frequency_penalty, and the context is read, not set
      // (probe.ts reads num_ctx), so prompts are fitted to what the server really holds.
      return {
        options: { repeat_penalty: REPEAT_PENALTY, num_ctx: contextTokens },
        frequency_penalty: FREQUENCY_PENALTY,
      };
    case 'vllm':
      return { repetition_penalty: REPEAT_PENALTY };
    case 'lmstudio':
    case 'openai':
      return { frequency_penalty: FREQUENCY_PENALTY };
  }
}
