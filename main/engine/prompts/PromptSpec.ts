/**
 * The contract every prompt module fulfils (ARCHITECTURE §4): a typed builder returns a spec
 * that, fitted to the run's token profile, gives the messages, the output schema (JSON schema +
 * zod validator), limits and a cache key, tagged with its cognitive function name for the cost
 * ledger and the replay log.
 */
import { createHash } from 'node:crypto';
import type { ChatMessage, JsonSchema } from '../../models/types';
import { estimateTokens, fitParts, type Part, type PromptTrim } from './budget';
import { answerTokens, type Shape } from './jsonSchema';
import type { TokenProfile } from './tokenProfile';

/** Every cognitive function tag the engine uses, as the ledger and the log spell them. */
export type CognitiveFn =
  | 'importance'
  | 'plan.wake'
  | 'plan.daily'
  | 'plan.hourly'
  | 'plan.decompose'
  | 'action'
  | 'react'
  | 'converse.relationship'
  | 'converse.turn'
  | 'converse.summary'
  | 'converse.thoughts'
  | 'reflect.questions'
  | 'reflect.insights'
  | 'interview'
  | 'whisper'
  | 'daily.revise'
  | 'act.now'
  | 'social.summary'
  | 'social.update'
  | 'wander';

/** A prompt ready to be fitted to a model's context. */
export interface PromptSpec<T> {
  fn: CognitiveFn;
  temperature: number;
  /**
   * The prompt as it is sent to a model measured as `profile`; `examples: false` leaves the
   * worked examples out (the run's `workedExamples` guard is off).
   */
  fit(profile: TokenProfile, options?: { examples?: boolean }): FittedPrompt<T>;
}

/** A prompt fitted to a context: everything a model request needs except agent and seed. */
export interface FittedPrompt<T> {
  fn: CognitiveFn;
  messages: ChatMessage[];
  schema: JsonSchema;
  /** Parses the answer as the model writes it; `write` is its inverse ({@link Shape.write}). */
  validator: { parse(value: unknown): T; write(value: T): unknown };
  /**
   * Puts a validated answer in the caller's terms (e.g. statement numbers of the statements
   * that fitted back to the numbers of those the caller gave).
   */
  decode(answer: T): T;
  /**
   * Where the answer being written has all that `decode` keeps: the whole answer to stop with,
   * given the text so far, or undefined to go on (types.ts `CompletionRequest.endsAt`).
   */
  endsAt?: (text: string) => string | undefined;
  /** Completion budget: the realistic answer at least, the free room of the context at most. */
  maxTokens: number;
  temperature: number;
  /** sha256 over (fn, messages, schema): equal keys mean the same question. */
  cacheKey: string;
  /** What had to be cut beyond "as many list items as fit" (logged with the call). */
  trims: PromptTrim[];
  /** Estimated tokens this prompt needs with its lists at their minimum and nothing cut. */
  neededTokens: number;
}

/** Which items of each list went into the prompt, as indices into the items given. */
export type KeptItems = ReadonlyMap<string, readonly number[]>;

/**
 * A worked example shown before the question: a question in the same form as the real one and
 * the answer the model should give to it (see prompts/examples.ts).
 */
export interface Example {
  question: string;
  /** In the caller's terms (the shape's parsed form); shown as the model writes it. */
  answer: unknown;
}

/**
 * Assembles a spec. `stable` is the system text, which does not change between an agent's calls
 * (identity, instructions) and goes first so the KV cache can serve it again; `volatile` (time,
 * observations, memories) goes last and is what the fit shortens. `shape` may depend on which
 * list items fitted (an enum of the places listed, statement numbers). `examples` go between
 * the system text and the question, as earlier turns; they are as stable as the system text.
 */
export function buildSpec<T>(args: {
  fn: CognitiveFn;
  stable: string;
  volatile: string | readonly Part[];
  shape: Shape<T> | ((kept: KeptItems) => Shape<T>);
  decode?: (answer: T, kept: KeptItems) => T;
  endsAt?: (text: string) => string | undefined;
  temperature?: number;
  examples?: readonly Example[];
}): PromptSpec<T> {
  const parts = typeof args.volatile === 'string' ? [args.volatile] : args.volatile;
  const shapeFor = (kept: KeptItems) =>
    typeof args.shape === 'function' ? args.shape(kept) : args.shape;
  const temperature = args.temperature ?? DEFAULT_TEMPERATURE;
  // Example answers are given in the caller's terms and shown as the model writes them.
  const showExamples = (shape: Shape<T>): ChatMessage[] =>
    (args.examples ?? []).flatMap((e) => [
      { role: 'user' as const, content: e.question },
      { role: 'assistant' as const, content: JSON.stringify(shape.write(e.answer as T)) },
    ]);
  return {
    fn: args.fn,
    temperature,
    fit(profile, options = {}) {
      const everything = new Map(
        parts
          .filter((p) => typeof p !== 'string' && p.kind === 'list')
          .map((p) => [p.name, (p as { items: readonly string[] }).items.map((_, i) => i)]),
      );
      // Reserve the answer as if every item fitted (enums and numbers are then longest).
      const fullest = shapeFor(everything);
      const reserve = answerTokens(fullest.json, profile).realistic;
      const shown = showExamples(fullest);
      const bare = estimateTokens(args.stable, profile) + profile.templateTokens;
      // The examples go in whole, all of them or the first few, only while the question then
      // still fits whole (no cut, every list item kept): they help a small model, but a context
      // too small for them (stories260K's 2,048 tokens) needs the room for the question itself.
      let shownCount = options.examples === false ? 0 : shown.length;
      let system = bare;
      let user!: ReturnType<typeof fitParts>;
      for (; shownCount >= 0; shownCount -= 2) {
        system =
          bare +
          shown
            .slice(0, shownCount)
            .reduce((n, m) => n + estimateTokens(m.content, profile) + profile.templateTokens, 0);
        const budget =
          profile.contextTokens === null ? null : profile.contextTokens - system - reserve;
        user = fitParts(parts, profile, budget);
        const whole =
          user.trims.length === 0 &&
          [...everything].every(([name, all]) => user.kept.get(name)?.length === all.length);
        const fits = budget === null || (whole && user.tokens <= budget);
        if (fits || shownCount === 0) break;
      }
      const shape = shapeFor(user.kept);
      const size = answerTokens(shape.json, profile);
      const room =
        profile.contextTokens === null
          ? Number.POSITIVE_INFINITY
          : profile.contextTokens - system - user.tokens;
      const messages: ChatMessage[] = [
        { role: 'system', content: args.stable },
        ...shown.slice(0, shownCount),
        { role: 'user', content: user.text },
      ];
      return {
        fn: args.fn,
        messages,
        schema: shape.json,
        validator: { parse: (value) => shape.zod.parse(value), write: shape.write },
        decode: (answer) => (args.decode ? args.decode(answer, user.kept) : answer),
        ...(args.endsAt ? { endsAt: args.endsAt } : {}),
        maxTokens: Math.min(size.worst, Math.max(size.realistic, room)),
        temperature,
        cacheKey: createHash('sha256')
          .update(JSON.stringify([args.fn, messages, shape.json]))
          .digest('hex'),
        trims: user.trims,
        // Examples are left out before anything is cut, so they are not part of the need.
        neededTokens: bare + user.neededTokens + reserve,
      };
    },
  };
}

/**
 * Sampling temperature of every call unless a module says otherwise. Low, so a run is mostly
 * decided by its inputs; not zero, so agents do not all answer alike.
 */
export const DEFAULT_TEMPERATURE = 0.5;

/** A numbered list ("1. …"), or a dash when empty, for fixed excerpts. */
export function numbered(lines: readonly string[]): string {
  return lines.length === 0 ? '-' : lines.map((l, i) => `${i + 1}. ${l}`).join('\n');
}

/** A bulleted list, or a dash when empty. */
export function bullets(lines: readonly string[]): string {
  return lines.length === 0 ? '-' : lines.map((l) => `- ${l}`).join('\n');
}
