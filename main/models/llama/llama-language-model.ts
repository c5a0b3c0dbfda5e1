/**
 * The `llama` provider: a GGUF model run in-process by node-llama-cpp.
 *
 * One context holds several sequences, each keeping its KV cache; up to `sequences` of them
 * decode at once. Requests from many agents queue in a {@link SequencePool}; the ones holding a
 * sequence decode concurrently and node-llama-cpp batches their tokens into shared forward
 * passes. A request goes to the sequence whose cache holds the longest beginning of its prompt,
 * so only the rest is evaluated; `usage.cachedTokens` reports the reused prefix.
 */
import os from 'node:os';
import {
  InsufficientMemoryError,
  LlamaGrammarEvaluationState,
  TokenBias,
  type Llama,
  type LlamaContext,
  type LlamaContextSequence,
  type LlamaGrammar,
  type LlamaModel,
  type Token,
} from 'node-llama-cpp';
import { ModelAbortError, ModelError, throwIfAborted } from '../errors.ts';
import { parseJsonOutput } from '../json-output.ts';
import type {
  CompletionRequest,
  CompletionResult,
  ChatMessage,
  FinishReason,
  JsonSchema,
  LanguageModel,
  ModelTokenizer,
} from '../types.ts';
import { LruCache } from '../lru-cache.ts';
import { inspectGguf, type GgufSummary } from './gguf-inspect.ts';
import { getLlamaRuntime, type GpuMode } from './llama-runtime.ts';
import { ForcedTokens } from './forced-tokens.ts';
import { compactJsonGrammar, grammarStopStrings, isCompleteJsonContainer } from './json-grammar.ts';
import { PromptRenderer } from './prompt-renderer.ts';
import {
  AUTO_MEMORY_SHARE,
  autoContextCap,
  chooseCaches,
  chooseContextSize,
} from './context-size.ts';
import { SequencePool, type SequenceSlot } from './sequence-pool.ts';
import { PrefixSharing } from './shared-prefix.ts';
import { resolveThreads } from './threads.ts';
import { needsUtf8Guard } from './utf8-guard.ts';

/** Requests a model decodes at once unless asked otherwise. */
export const DEFAULT_SEQUENCES = 4;

/** Options of {@link createLlamaLanguageModel}. */
export interface LlamaModelOptions {
  modelPath: string;
  /** `'auto'` (default): GPU when a prebuilt backend finds one, else CPU. `false`: CPU only. */
  gpu?: GpuMode;
  /** Inference threads; clamped to the free cores (default: all free cores). */
  threads?: number;
  /** Requests decoded at once (default {@link DEFAULT_SEQUENCES}). */
  sequences?: number;
  /**
   * Sequences the context keeps, each with its own KV cache, of which `sequences` decode at
   * once; the others keep the beginnings of other kinds of prompt for the next one (never fewer
   * than `sequences`). Default: automatic — up to 8 per request decoded at once and 32 in all,
   * as memory allows (context-size.ts `chooseCaches`).
   */
  caches?: number;
  /**
   * Tokens per sequence (prompt + completion), never past the model's trained length. Default:
   * automatic — the trained length up to about 15,000 characters (4,096 SmolLM2 tokens), as far
   * as memory allows (context-size.ts `autoContextCap`).
   */
  contextSize?: number;
  /** Send each agent back to its own sequence (default true). False is the bench baseline. */
  affinity?: boolean;
  /**
   * Evaluate a beginning that prompts in flight together share once, copying it between
   * sequences (default true; shared-prefix.ts). False is the bench baseline.
   */
  sharePrefixes?: boolean;
  /**
   * With shared beginnings copied, keep another agent's cache rather than cut it back to the
   * beginning a prompt shares with it (default true; sequence-pool.ts `KEEP_OTHERS_TOKENS`).
   * False is the bench baseline.
   */
  keepOtherCaches?: boolean;
  /**
   * Forbid tokens that decode to an incomplete UTF-8 sequence (byte tokens 0x80–0xFF).
   * Random-weight models emit invalid UTF-8 otherwise; real models do not need it. Default:
   * on exactly where it costs nothing, decided from the vocabulary (utf8-guard.ts).
   */
  banIncompleteUtf8?: boolean;
  /** Seed used when a request has none, so runs are reproducible (default 0). */
  defaultSeed?: number;
  /**
   * Strength of the DRY ("don't repeat yourself") sampler, 0 to turn it off (default
   * {@link DEFAULT_DRY_STRENGTH}). Small models loop: SmolLM2-135M asked for a day's tasks wrote
   * "look at the pond and the beach" twelve times. DRY lowers the odds of extending a run of
   * tokens it has already written; quotes and newlines break runs, so a JSON answer's repeated
   * keys and punctuation are never punished, only repeated phrases inside its strings.
   */
  dryStrength?: number;
  /** Bytes of memory available for the model; defaults to `os.freemem()`. Injectable for tests. */
  availableMemoryBytes?: () => number;
  /**
   * Feed what a request's JSON schema forces (keys, punctuation, the rest of the one enum value
   * a prefix leaves) as prompt tokens instead of decoding them one at a time (default true;
   * forced-tokens.ts). False is the bench baseline.
   */
  forceSchemaTokens?: boolean;
}

/** What was loaded and how. */
export interface LlamaModelInfo {
  path: string;
  architecture: string;
  /** `false` on CPU, else the backend (`'cuda'`, `'vulkan'`, `'metal'`). */
  gpu: string | false;
  threads: number;
  /** Requests decoded at once. */
  sequences: number;
  /** Sequences kept, each with its KV cache. */
  caches: number;
  contextSize: number;
  chatTemplate: string;
  /** Whether tokens that decode to part of a character are forbidden (banIncompleteUtf8). */
  utf8Guard: boolean;
}

/**
 * Loads a GGUF model after checking the file and the memory it needs.
 * @throws ModelError with a code from `inspectGguf`, or `insufficient-memory` / `load-failed`.
 */
export async function createLlamaLanguageModel(
  options: LlamaModelOptions,
): Promise<LlamaLanguageModel> {
  const summary = await inspectGguf(options.modelPath);
  const availableMemory = options.availableMemoryBytes ?? (() => os.freemem());
  const threads = resolveThreads(options.threads);
  const sequences = Math.max(1, Math.floor(options.sequences ?? DEFAULT_SEQUENCES));
  const llama = await getLlamaRuntime(options.gpu ?? 'auto', threads);

  // Weights are memory-mapped but must fit in RAM (or VRAM) to run at a usable speed.
  const free = availableMemory() + (llama.gpu === false ? 0 : (await llama.getVramState()).free);
  if (summary.sizeBytes > free)
    throw insufficientMemory(options.modelPath, summary.sizeBytes, free, 'the weights');

  let model: LlamaModel;
  try {
    model = await llama.loadModel({ modelPath: options.modelPath });
  } catch (error) {
    throw wrapLoadError(options.modelPath, error);
  }
  try {
    const estimateFor = (size: number, kept: number) =>
      model.fileInsights.estimateContextResourceRequirementsV2({
        contextSize: size,
        sequences: kept,
        modelGpuLayers: model.gpuLayers,
      });
    const freeAfterLoad = availableMemory();
    // The context size is chosen for the sequences decoding at once; caches beyond them are
    // kept only where memory is left at that size.
    const contextSize = await chooseContextSize({
      ...(options.contextSize !== undefined ? { requested: options.contextSize } : {}),
      trained: summary.contextLength ?? model.trainContextSize,
      bytesFor: async (size) => (await estimateFor(size, sequences)).cpuRam,
      freeBytes: freeAfterLoad,
      cap: autoContextCap(model.tokenize(CAP_REFERENCE).length / CAP_REFERENCE.length),
    });
    const freeVram = llama.gpu === false ? 0 : (await llama.getVramState()).free;
    const caches = await chooseCaches({
      ...(options.caches !== undefined ? { requested: options.caches } : {}),
      parallel: sequences,
      fits: async (kept) => {
        const needs = await estimateFor(contextSize, kept);
        return (
          needs.cpuRam <= freeAfterLoad * AUTO_MEMORY_SHARE &&
          (llama.gpu === false || needs.gpuVram <= freeVram * AUTO_MEMORY_SHARE)
        );
      },
    });
    const estimate = await estimateFor(contextSize, caches);
    if (estimate.cpuRam > freeAfterLoad) {
      throw insufficientMemory(
        options.modelPath,
        estimate.cpuRam,
        freeAfterLoad,
        `a context of ${caches}×${contextSize} tokens`,
      );
    }
    const context = await model.createContext({
      contextSize,
      sequences: caches,
      threads,
      batchSize: Math.min(512, contextSize),
    });
    return new LlamaLanguageModel(llama, model, context, summary, options, threads, sequences);
  } catch (error) {
    await model.dispose();
    throw wrapLoadError(options.modelPath, error);
  }
}

function insufficientMemory(path: string, needed: number, free: number, what: string): ModelError {
  const gb = (n: number) => `${(n / 2 ** 30).toFixed(2)} GB`;
  return new ModelError(
    'insufficient-memory',
    `Not enough memory for ${what} of ${path}: needs about ${gb(needed)}, ${gb(free)} is free. ` +
      'Close other programs, use fewer sequences or a smaller context, or pick a smaller quantization.',
  );
}

function wrapLoadError(path: string, error: unknown): ModelError {
  if (error instanceof ModelError) return error;
  const detail = error instanceof Error ? error.message : String(error);
  if (error instanceof InsufficientMemoryError) {
    return new ModelError('insufficient-memory', `Not enough memory to load ${path}: ${detail}`, {
      cause: error,
    });
  }
  return new ModelError('load-failed', `node-llama-cpp could not load ${path}: ${detail}`, {
    cause: error,
  });
}

/** What one request generated, and how much of its prompt the cache served. */
interface Generated {
  text: string;
  cachedTokens: number;
  completionTokens: number;
  finishReason: FinishReason;
}

/** A loaded GGUF model answering {@link CompletionRequest}s. Create with {@link createLlamaLanguageModel}. */
export class LlamaLanguageModel implements LanguageModel {
  readonly id: string;
  readonly info: LlamaModelInfo;
  private readonly pool: SequencePool;
  /** Undefined when off, or where a copied cache would not hold the whole prefix (see below). */
  private readonly sharing: PrefixSharing<LlamaContextSequence> | undefined;
  private readonly renderer: PromptRenderer;
  /**
   * Compiled grammars by schema. Schemas carry per-agent place lists, so a long run meets many;
   * the least recently used are dropped (a miss only costs a recompile).
   */
  private readonly grammars = new LruCache<string, Promise<LlamaGrammar>>(GRAMMAR_CACHE_SIZE);
  private readonly tokenBias: TokenBias | undefined;
  private forced = 0;
  private disposed = false;

  /** @internal use {@link createLlamaLanguageModel}. */
  constructor(
    private readonly llama: Llama,
    private readonly model: LlamaModel,
    private readonly context: LlamaContext,
    summary: GgufSummary,
    private readonly options: LlamaModelOptions,
    threads: number,
    parallel: number,
  ) {
    const sequences: ReturnType<LlamaContext['getSequence']>[] = [];
    // No token predictor: node-llama-cpp's prompt-lookup one (InputLookupTokenPredictor) made
    // SmolLM2-135M slower on one CPU thread. Its guesses copy the worked examples' answers, and
    // each wrong guess is evaluated and thrown away: 22 refuted tokens for 7 used in an
    // `action`-like answer of 20 tokens (1.44–1.68 CPU-s against 1.20–1.58), and 4.6% more
    // CPU-seconds over the first ten requests of a Willow Bend morning (issue 22, measured side
    // by side on the same requests).
    for (let i = 0; i < context.totalSequences; i++) sequences.push(context.getSequence());
    this.sharing = prefixSharing(sequences, options.sharePrefixes ?? true);
    this.pool = new SequencePool(
      sequences,
      options.affinity ?? true,
      parallel,
      this.sharing !== undefined && (options.keepOtherCaches ?? true),
    );
    this.renderer = new PromptRenderer(model);
    const ggml = model.fileInfo.metadata.tokenizer.ggml;
    const utf8Guard =
      options.banIncompleteUtf8 ??
      needsUtf8Guard({ model: ggml.model, tokens: ggml.tokens, tokenTypes: ggml.token_type });
    this.tokenBias = utf8Guard ? buildIncompleteUtf8Bias(model) : undefined;
    this.id = `llama:${summary.name ?? options.modelPath}`;
    this.info = {
      path: options.modelPath,
      architecture: summary.architecture,
      gpu: llama.gpu,
      threads,
      sequences: this.pool.decodingAtOnce,
      caches: context.totalSequences,
      contextSize: context.contextSize,
      chatTemplate: this.renderer.templateName,
      utf8Guard,
    };
  }

  /** This model's token counts; a sequence holds `contextTokens`. */
  get tokenizer(): ModelTokenizer {
    return {
      contextTokens: this.context.contextSize,
      count: (text) => this.model.tokenize(text, false).length,
      countPrompt: (messages: ChatMessage[]) => this.renderer.render(messages).tokens.length,
    };
  }

  /** Prompt tokens served by copying another sequence's cache (shared-prefix.ts). */
  get copiedPromptTokens(): number {
    return this.sharing?.copiedTokens ?? 0;
  }

  /**
   * Completion tokens fed to the model as the schema forced them (forced-tokens.ts) rather
   * than sampled, over all requests so far.
   */
  get forcedCompletionTokens(): number {
    return this.forced;
  }

  /** Requests waiting for a free sequence right now. */
  get queued(): number {
    return this.pool.queued;
  }

  async complete<T = unknown>(request: CompletionRequest<T>): Promise<CompletionResult<T>> {
    const started = performance.now();
    const what = `The ${request.fn} request`;
    if (this.disposed)
      throw new ModelError('disposed', `${what} came after the model was disposed.`);
    throwIfAborted(request.signal, what);
    if (!Number.isInteger(request.maxTokens) || request.maxTokens < 1) {
      throw new RangeError(
        `${what} has maxTokens ${request.maxTokens}; it must be a positive integer.`,
      );
    }
    const prompt = this.renderer.render(request.messages);
    // The completion may use what the prompt leaves of the sequence; a prompt that leaves no
    // room at all cannot be answered.
    const room = this.context.contextSize - prompt.tokens.length;
    if (room < 1) {
      throw new ModelError(
        'prompt-too-long',
        `${what} needs ${prompt.tokens.length} prompt tokens, but a sequence holds ` +
          `${this.context.contextSize}. Shorten the prompt or raise contextSize.`,
      );
    }
    const sized = { ...request, maxTokens: Math.min(request.maxTokens, room) };
    const grammar = request.schema ? await this.grammarFor(request.schema) : undefined;
    const slot = await this.pool.acquire(request.agentId, prompt.tokens, request.signal);
    try {
      const output = await this.generate(slot, prompt.tokens, prompt.stopStrings, grammar, sized);
      const result: CompletionResult<T> = {
        text: output.text,
        usage: {
          promptTokens: prompt.tokens.length,
          cachedTokens: output.cachedTokens,
          completionTokens: output.completionTokens,
        },
        ms: performance.now() - started,
        finishReason: output.finishReason,
      };
      if (request.schema) result.json = parseJsonOutput(output.text, output.finishReason, sized);
      return result;
    } finally {
      this.pool.release(slot);
    }
  }

  async dispose(): Promise<void> {
    if (this.disposed) return;
    this.disposed = true;
    this.pool.close();
    await this.context.dispose();
    await this.model.dispose();
  }

  private grammarFor(schema: JsonSchema): Promise<LlamaGrammar> {
    const key = JSON.stringify(schema);
    let grammar = this.grammars.get(key);
    if (!grammar) {
      // The schema type is checked at runtime by node-llama-cpp; an unsupported keyword throws here.
      grammar = this.llama
        .createGrammarForJsonSchema(schema as never)
        .then((pretty) => this.compactGrammar(pretty as LlamaGrammar));
      grammar.catch(() => this.grammars.delete(key));
      this.grammars.set(key, grammar);
    }
    return grammar;
  }

  /**
   * The schema's grammar with JSON on one line: node-llama-cpp's lets the model indent, and
   * SmolLM2 wrote `{\n    "decision": "continue"\n}` (react answers: 15.1 generated tokens a
   * call, 11.8 on one line; on a Willow Bend day 6% of generated tokens were layout).
   */
  private async compactGrammar(pretty: LlamaGrammar): Promise<LlamaGrammar> {
    const grammar = compactJsonGrammar(pretty.grammar);
    if (grammar === pretty.grammar) return pretty;
    return this.llama.createGrammar({
      grammar,
      stopGenerationTriggers: pretty.stopGenerationTriggers,
      trimWhitespaceSuffix: pretty.trimWhitespaceSuffix,
    });
  }

  private async generate(
    slot: SequenceSlot,
    tokens: Token[],
    stopStrings: string[],
    grammar: LlamaGrammar | undefined,
    request: CompletionRequest<unknown>,
  ): Promise<Generated> {
    const sequence = slot.sequence;
    const what = `The ${request.fn} request`;
    const evaluated = (await this.sharing?.prepare(sequence, tokens)) ?? (() => {});
    try {
      // Keep the longest cached prefix (minus the last token: one token must be decoded to get logits).
      await sequence.adaptStateToTokens(tokens.slice(0, -1), false);
      const cachedTokens = sequence.nextTokenIndex;
      throwIfAborted(request.signal, what);
      return await this.decode(
        sequence,
        tokens,
        cachedTokens,
        stopStrings,
        grammar,
        request,
        evaluated,
      );
    } finally {
      evaluated();
    }
  }

  /**
   * Evaluates the rest of the prompt and samples the completion; calls `evaluated` once the
   * prompt is in the cache (the first token), so requests sharing its beginning can copy it.
   */
  private async decode(
    sequence: LlamaContextSequence,
    tokens: Token[],
    cachedTokens: number,
    stopStrings: string[],
    grammar: LlamaGrammar | undefined,
    request: CompletionRequest<unknown>,
    evaluated: () => void,
  ): Promise<Generated> {
    const what = `The ${request.fn} request`;
    const stops = [...stopStrings, ...(grammar ? grammarStopStrings(grammar) : [])];
    const generated: Token[] = [];
    let text = '';
    let finishReason: FinishReason = 'length';
    const grammarState = grammar
      ? new LlamaGrammarEvaluationState({ model: this.model, grammar })
      : undefined;
    const forcing =
      grammarState && request.schema && (this.options.forceSchemaTokens ?? true)
        ? ForcedTokens.of(this.llama, this.model, request.schema, grammarState)
        : undefined;
    const iterator = sequence.evaluate(tokens.slice(cachedTokens), {
      temperature: request.temperature,
      seed: request.seed ?? this.options.defaultSeed ?? 0,
      grammarEvaluationState: grammarState,
      tokenBias: this.tokenBias,
      ...drySampling(this.options.dryStrength ?? DEFAULT_DRY_STRENGTH, request),
    });
    /** The answer once `written` ends it (a stop string, a closed JSON value, `endsAt`), else null. */
    const ended = (written: string): string | null => {
      const stop = stops.find((s) => written.endsWith(s));
      if (stop !== undefined) return written.slice(0, -stop.length);
      // Grammar output is finished once the top-level object/array closes; the grammar would
      // otherwise make the model emit its trailing newlines first.
      if (grammar && isCompleteJsonContainer(written)) return written;
      // The caller keeps no more than this (a decomposition past its first repeated task).
      return request.endsAt?.(written) ?? null;
    };
    try {
      // What the next evaluation feeds the model: the sampled token, and after it the tokens
      // the schema forces (forced-tokens.ts); undefined feeds the sampled token alone.
      let next: Token[] | undefined;
      for (;;) {
        const step = await iterator.next(next);
        if (step.done) break;
        next = undefined;
        evaluated();
        if (request.signal?.aborted) throw new ModelAbortError(what, request.signal.reason);
        generated.push(step.value);
        text = this.model.detokenize(generated);
        let end = ended(text);
        const forced =
          end === null && forcing ? forcing.take(text, request.maxTokens - generated.length) : [];
        if (forced.length) {
          this.forced += forced.length;
          generated.push(...forced);
          text = this.model.detokenize(generated);
          end = ended(text);
          next = [step.value, ...forced];
        }
        if (end !== null) {
          text = end;
          finishReason = 'stop';
          break;
        }
        if (generated.length >= request.maxTokens) break;
      }
      if (generated.length < request.maxTokens && finishReason === 'length') finishReason = 'stop'; // end-of-generation token
    } catch (error) {
      if (error instanceof ModelAbortError) throw error;
      if (this.disposed)
        throw new ModelError('disposed', `${what} was cut short: the model was disposed.`, {
          cause: error,
        });
      throw error;
    } finally {
      // Ends node-llama-cpp's evaluation (a `for await` loop would on break); the error that
      // got here, if any, is the one to report.
      await iterator.return(undefined).catch(() => undefined);
    }
    return {
      text: grammar ? text.trim() : text,
      cachedTokens,
      completionTokens: generated.length,
      finishReason,
    };
  }
}

/**
 * {@link PrefixSharing} over a context's sequences, copying caches with node-llama-cpp's own
 * sequence-state copy. Undefined when `enabled` is false; when that copy is missing (it is
 * internal to node-llama-cpp 3.x: an upgrade may move it); or when the model needs cache
 * checkpoints (sliding-window or recurrent layers), whose copied cache would not hold the whole
 * prefix.
 */
function prefixSharing(
  sequences: readonly LlamaContextSequence[],
  enabled: boolean,
): PrefixSharing<LlamaContextSequence> | undefined {
  const copyable = (s: LlamaContextSequence) => s as unknown as CopyableSequence;
  if (
    !enabled ||
    sequences.length < 2 ||
    sequences[0].needsCheckpoints ||
    typeof copyable(sequences[0])._copyStateFromOtherSequence !== 'function'
  )
    return undefined;
  return new PrefixSharing({
    sequences,
    tokensOf: (sequence) => sequence.contextTokens,
    copy: async (target, source, tokens) => {
      const copied = await copyable(target)
        ._copyStateFromOtherSequence(source, tokens)
        .catch(() => false);
      // A failed or partial copy leaves the cache's bookkeeping unsure: the sequence starts
      // afresh and the request evaluates its whole prompt, as without sharing.
      if (!copied) await target.clearHistory();
    },
  });
}

/** node-llama-cpp's internal cache copy (its decision contexts share prefixes with it). */
interface CopyableSequence {
  _copyStateFromOtherSequence(
    other: LlamaContextSequence,
    upToTokenIndex: number,
  ): Promise<boolean>;
}

/**
 * English of the kind a run's prompts hold, to measure how many tokens a character the model's
 * tokenizer spends (context-size.ts `autoContextCap`).
 */
const CAP_REFERENCE =
  'Agnes Whitlow is a professor of local history at Larkspur College. She walks to the cafe ' +
  'for breakfast at half past seven, spends her afternoons in the library archive and goes to ' +
  'bed around half past ten. Rate how important each memory is to the resident.';

/** See {@link LlamaModelOptions.dryStrength}; llama.cpp's usual setting with base 1.75, length 2. */
export const DEFAULT_DRY_STRENGTH = 0.8;

/**
 * The DRY part of a request's sampling options: none when the model's strength is 0 or the
 * request turns it off (`dry: false`, the run's `drySampling` guard off), else the penalty.
 */
export function drySampling(
  strength: number,
  request: Pick<CompletionRequest<unknown>, 'dry'>,
): {
  dryRepeatPenalty?: { strength: number; base: number; allowedLength: number; lastTokens: number };
} {
  if (strength <= 0 || request.dry === false) return {};
  return {
    dryRepeatPenalty: {
      strength,
      base: DRY_BASE,
      allowedLength: DRY_ALLOWED_LENGTH,
      lastTokens: DRY_LAST_TOKENS,
    },
  };
}
const DRY_BASE = 1.75;
/** Repeats this long or shorter are free ("of the", "at the"). */
const DRY_ALLOWED_LENGTH = 2;
/** How far back DRY looks for an earlier run, in tokens. */
const DRY_LAST_TOKENS = 256;

/** Grammars kept compiled (each is small; compiling one takes milliseconds). */
const GRAMMAR_CACHE_SIZE = 64;

/** Bias that forbids every token decoding to an incomplete UTF-8 sequence (U+FFFD). */
function buildIncompleteUtf8Bias(model: LlamaModel): TokenBias {
  const bias = new TokenBias(model.tokenizer);
  const vocabularySize = model.fileInfo.metadata.tokenizer.ggml.tokens.length;
  for (let token = 0; token < vocabularySize; token++) {
    if (model.isSpecialToken(token as Token)) continue;
    if (model.detokenize([token as Token]).includes('\uFFFD')) bias.set(token as Token, 'never');
  }
  return bias;
}
