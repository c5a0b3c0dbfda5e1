/**
 * The contract every prompt module fulfils (ARCHITECTURE §4): a typed builder returns the
 * messages, the output schema (JSON schema + zod validator), limits and a cache key, tagged with
 * its cognitive function name for the cost ledger and the replay log.
 */
import { createHash } from 'node:crypto';
import type { ChatMessage, JsonSchema } from '../../models/types';
import { maxJsonChars, type Shape } from './jsonSchema';

/** Every cognitive function tag the engine uses, as the ledger and the log spell them. */
export type CognitiveFn =
  | 'importance'
  | 'plan.wake'
  | 'plan.daily'
  | 'plan.hourly'
  | 'plan.decompose'
  | 'action'
  | 'react'
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

/** A finished prompt: everything a model request needs except agent and seed. */
export interface PromptSpec<T> {
  fn: CognitiveFn;
  messages: ChatMessage[];
  schema: JsonSchema;
  validator: { parse(value: unknown): T };
  /** Completion budget in tokens (byte-level test models spend one token per character). */
  maxTokens: number;
  temperature: number;
  /** sha256 over (fn, messages, schema): equal keys mean the same question. */
  cacheKey: string;
}

/**
 * Assembles a spec. `stable` is the text that does not change between an agent's calls
 * (identity, instructions, town) and goes first so the KV cache can serve it again; `volatile`
 * (time, observations, memories) goes last.
 */
export function buildSpec<T>(args: {
  fn: CognitiveFn;
  stable: string;
  volatile: string;
  shape: Shape<T>;
  /** Typical answer budget; raised to the schema's worst case when that is larger. */
  maxTokens: number;
  temperature?: number;
}): PromptSpec<T> {
  const messages: ChatMessage[] = [
    { role: 'system', content: args.stable },
    { role: 'user', content: args.volatile },
  ];
  const cacheKey = createHash('sha256')
    .update(JSON.stringify([args.fn, messages, args.shape.json]))
    .digest('hex');
  return {
    fn: args.fn,
    messages,
    schema: args.shape.json,
    validator: args.shape.zod,
    maxTokens: Math.max(args.maxTokens, maxJsonChars(args.shape.json) + JSON_SLACK_TOKENS),
    temperature: args.temperature ?? DEFAULT_TEMPERATURE,
    cacheKey,
  };
}

/**
 * Sampling temperature of every call unless a module says otherwise. Low, so a run is mostly
 * decided by its inputs; not zero, so agents do not all answer alike.
 */
export const DEFAULT_TEMPERATURE = 0.5;

/** Room for the whitespace a JSON grammar allows between tokens. */
const JSON_SLACK_TOKENS = 16;

/** A numbered list ("1. …"), or a dash when empty, for memory and plan excerpts. */
export function numbered(lines: readonly string[]): string {
  return lines.length === 0 ? '-' : lines.map((l, i) => `${i + 1}. ${l}`).join('\n');
}

/** A bulleted list, or a dash when empty. */
export function bullets(lines: readonly string[]): string {
  return lines.length === 0 ? '-' : lines.map((l) => `- ${l}`).join('\n');
}
