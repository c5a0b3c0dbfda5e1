/**
 * One definition, two forms: every prompt's output shape is written once with these builders,
 * which yield both the JSON schema the model is grammar-constrained by (node-llama-cpp
 * `createGrammarForJsonSchema`, OpenAI `json_schema`) and the zod validator the answer is
 * checked with. Only the keywords node-llama-cpp's GBNF converter understands are emitted:
 * `type`, `properties`, `required`, `additionalProperties`, `enum`, `minLength`, `maxLength`,
 * `items`, `prefixItems`, `minItems`, `maxItems` (and `description`, which converters ignore).
 * Integer ranges are written as an `enum` of the allowed values because the grammar converter
 * has no `minimum`/`maximum`.
 */
import { z } from 'zod';
import type { JsonSchema } from '../../models/types';
import type { TokenProfile } from './tokenProfile';
import { fitWords } from './wordLimit';

/** A JSON schema and the zod validator that accepts exactly the same values. */
export interface Shape<T> {
  json: JsonSchema;
  /** Parses what the model wrote into the caller's terms (a {@link tuple} into its object). */
  zod: z.ZodType<T>;
  /**
   * `value` as the model writes it, the inverse of `zod`'s parse: worked examples are shown in
   * it. Structural only, not validated (an example may cite more statements than a question).
   */
  write(value: T): unknown;
}

/** The write of a shape the model writes as the caller reads it. */
const same = <T>(value: T): unknown => value;

/** A string of `min`–`max` characters. */
export function text(min: number, max: number): Shape<string> {
  return {
    json: { type: 'string', minLength: min, maxLength: max },
    zod: z.string().min(min).max(max),
    write: same,
  };
}

/**
 * Characters the grammar allows per word of a word limit: English words average about six with
 * their space; the rest is room for long ones, so a model that keeps to the limit stated in the
 * instructions is never cut off by the grammar mid-word.
 */
export const CHARS_PER_WORD = 7;

/**
 * A string of at most `maxWords` words. The grammar caps it at `maxWords` ×
 * {@link CHARS_PER_WORD} characters; the validator then keeps it within `maxWords` whole words
 * ({@link fitWords}: a word the cap cut is dropped, never shown). The prompt must state the
 * limit in words ("at most 12 words"): a small model cannot see the grammar.
 */
export function words(maxWords: number, minChars = 1): Shape<string> {
  const maxChars = maxWords * CHARS_PER_WORD;
  return {
    json: { type: 'string', minLength: minChars, maxLength: maxChars },
    zod: z
      .string()
      .min(minChars)
      .max(maxChars)
      .transform((s) => fitWords(s, maxWords, maxChars)),
    write: same,
  };
}

/** One of a non-empty list of strings. */
export function oneOf<const T extends string>(values: readonly T[]): Shape<T> {
  if (values.length === 0) throw new RangeError('oneOf: expected at least one value');
  return {
    json: { enum: [...values] },
    zod: z.enum(values as unknown as [T, ...T[]]) as unknown as z.ZodType<T>,
    write: same,
  };
}

/** An integer in [min, max], written as an enum (see the module comment). */
export function intIn(min: number, max: number): Shape<number> {
  const values: number[] = [];
  for (let v = min; v <= max; v++) values.push(v);
  return {
    json: { enum: values },
    zod: z.number().int().min(min).max(max),
    write: same,
  };
}

/** One of a non-empty list of integers (e.g. allowed durations in minutes). */
export function intOf(values: readonly number[]): Shape<number> {
  if (values.length === 0) throw new RangeError('intOf: expected at least one value');
  return {
    json: { enum: [...values] },
    zod: z
      .number()
      .int()
      .refine((v) => values.includes(v), `expected one of ${values.join(', ')}`),
    write: same,
  };
}

/** true or false. */
export function bool(): Shape<boolean> {
  return { json: { type: 'boolean' }, zod: z.boolean(), write: same };
}

/** A list of `min`–`max` items of one shape. */
export function list<T>(item: Shape<T>, min: number, max: number): Shape<T[]> {
  return {
    json: { type: 'array', items: item.json, minItems: min, maxItems: max },
    zod: z.array(item.zod).min(min).max(max),
    write: (values) => values.map((v) => item.write(v)),
  };
}

type ShapeMap = Record<string, Shape<unknown>>;
type ObjectOf<M extends ShapeMap> = { [K in keyof M]: M[K] extends Shape<infer T> ? T : never };

/** An object with exactly these fields, all required, in this order. */
export function object<M extends ShapeMap>(fields: M): Shape<ObjectOf<M>> {
  const properties: Record<string, JsonSchema> = {};
  const zodFields: Record<string, z.ZodType> = {};
  for (const [key, shape] of Object.entries(fields)) {
    properties[key] = shape.json;
    zodFields[key] = shape.zod;
  }
  return {
    json: {
      type: 'object',
      properties,
      required: Object.keys(fields),
      additionalProperties: false,
    },
    zod: z.object(zodFields) as unknown as z.ZodType<ObjectOf<M>>,
    write: (value) => writeFields(fields, value),
  };
}

function writeFields<M extends ShapeMap>(fields: M, value: ObjectOf<M>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(fields).map(([key, shape]) => [key, shape.write(value[key as keyof M])]),
  );
}

/**
 * An object the model writes as a JSON array of its fields' values in this order, e.g.
 * `["make tea",15]` for `{ task: "make tea", minutes: 15 }`. Keys are syntax a model generates
 * token by token for every item of every answer: SmolLM2 wrote a recorded day's schedules,
 * decompositions and insights in 24–35% fewer tokens as tuples (issue 22, "short keys
 * and compact output"). The prompt must name the fields in order. Each field's schema carries
 * its name as `description`, for tools that read a schema (grammar converters ignore it).
 */
export function tuple<M extends ShapeMap>(fields: M): Shape<ObjectOf<M>> {
  const keys = Object.keys(fields);
  const shapes = Object.values(fields);
  return {
    json: {
      type: 'array',
      prefixItems: keys.map((key) => ({ ...fields[key].json, description: key })),
      minItems: keys.length,
      maxItems: keys.length,
    },
    zod: z
      .tuple(shapes.map((f) => f.zod) as unknown as [z.ZodType, ...z.ZodType[]])
      .transform(
        (values) =>
          Object.fromEntries(keys.map((key, i) => [key, values[i]])) as unknown as ObjectOf<M>,
      ) as unknown as z.ZodType<ObjectOf<M>>,
    write: (value) => keys.map((key) => fields[key].write(value[key as keyof M])),
  };
}

/** What an answer of a schema costs in tokens, as {@link answerTokens} sizes it. */
export interface AnswerSize {
  /**
   * The worst realistic answer: every field filled to the grammar's limit (small models do not
   * keep to stated limits) in this model's own tokens per character, one token wherever the
   * grammar allows whitespace, with a margin. A prompt always leaves this much room.
   */
  realistic: number;
  /**
   * A bound no valid answer exceeds, whatever the tokenizer: every character of a string a
   * `\uXXXX` escape of six single-character tokens, and all the whitespace the grammar allows
   * (a newline and four spaces per nesting level between any two JSON tokens).
   */
  worst: number;
}

/**
 * Margin over the measured tokens per character: answers are less regular than the town's
 * text. Small, because the realistic answer already fills every field to its limit.
 */
const ANSWER_MARGIN = 1.1;
/** Per string: its quotes, and a few odd tokens (an emoji may take several). */
const TOKENS_PER_STRING = 4;
/** The longest spelling of one string character in JSON (`\u00e9`). */
const MAX_CHARS_PER_STRING_CHAR = 6;

/** Sizes an answer of `schema` for a model measured as `profile`. */
export function answerTokens(schema: JsonSchema, profile: TokenProfile): AnswerSize {
  const parts = answerParts(schema, 0);
  // Models fill the grammar's whitespace gaps: a space (stories260K) or a newline and its
  // indent (SmolLM2), one token either way.
  const realistic = Math.ceil(
    (parts.structureChars * profile.jsonTokensPerChar +
      parts.contentChars * profile.textTokensPerChar) *
      ANSWER_MARGIN +
      parts.gaps +
      parts.strings * TOKENS_PER_STRING,
  );
  const worst =
    parts.structureChars +
    parts.gapChars +
    parts.contentChars * MAX_CHARS_PER_STRING_CHAR +
    parts.strings * 2;
  return { realistic, worst: Math.max(realistic, worst) };
}

/** What a fullest answer is made of: JSON structure, string content and whitespace gaps. */
interface AnswerParts {
  structureChars: number;
  contentChars: number;
  strings: number;
  /** Places the grammar allows whitespace, and the most characters it allows there. */
  gaps: number;
  gapChars: number;
}

/** Most whitespace the grammar allows in one gap inside `depth` open containers. */
function gapChars(depth: number): number {
  return 1 + 4 * depth;
}

function answerParts(schema: JsonSchema, depth: number): AnswerParts {
  const s = schema as Record<string, unknown>;
  const none = { structureChars: 0, contentChars: 0, strings: 0, gaps: 0, gapChars: 0 };
  if (Array.isArray(s.enum)) {
    const longest = Math.max(...s.enum.map((v) => JSON.stringify(v).length));
    return s.enum.every((v) => typeof v === 'string')
      ? { ...none, contentChars: longest - 2, strings: 1 }
      : { ...none, structureChars: longest };
  }
  switch (s.type) {
    case 'string':
      return { ...none, contentChars: (s.maxLength as number) ?? 1000, strings: 1 };
    case 'boolean':
      return { ...none, structureChars: 5 };
    case 'array': {
      if (Array.isArray(s.prefixItems)) return tupleParts(s.prefixItems as JsonSchema[], depth);
      const n = (s.maxItems as number) ?? 0;
      const item = answerParts(s.items as JsonSchema, depth + 1);
      return {
        structureChars: 2 + n * (item.structureChars + 1),
        contentChars: n * item.contentChars,
        strings: n * item.strings,
        // Before and after every item, before the closing bracket.
        gaps: n * (item.gaps + 2) + 1,
        gapChars: n * (item.gapChars + 2 * gapChars(depth + 1)) + gapChars(depth),
      };
    }
    case 'object': {
      const sum = { ...none, structureChars: 2 };
      for (const [key, value] of Object.entries(s.properties as Record<string, JsonSchema>)) {
        const field = answerParts(value, depth + 1);
        sum.structureChars += key.length + 4 + field.structureChars;
        sum.contentChars += field.contentChars;
        sum.strings += field.strings;
        // Before the key, around the colon, after the value.
        sum.gaps += field.gaps + 4;
        sum.gapChars += field.gapChars + 4 * gapChars(depth + 1);
      }
      sum.gaps += 1;
      sum.gapChars += gapChars(depth);
      return sum;
    }
    default:
      throw new RangeError(`answerTokens: unsupported schema ${JSON.stringify(schema)}`);
  }
}

/** A {@link tuple}: its items side by side, with the whitespace gaps a list has. */
function tupleParts(items: readonly JsonSchema[], depth: number): AnswerParts {
  const sum = {
    structureChars: 2,
    contentChars: 0,
    strings: 0,
    gaps: 1,
    gapChars: gapChars(depth),
  };
  for (const schema of items) {
    const item = answerParts(schema, depth + 1);
    sum.structureChars += item.structureChars + 1;
    sum.contentChars += item.contentChars;
    sum.strings += item.strings;
    // Before and after the item.
    sum.gaps += item.gaps + 2;
    sum.gapChars += item.gapChars + 2 * gapChars(depth + 1);
  }
  return sum;
}
