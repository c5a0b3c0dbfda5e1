/**
 * One definition, two forms: every prompt's output shape is written once with these builders,
 * which yield both the JSON schema the model is grammar-constrained by (node-llama-cpp
 * `createGrammarForJsonSchema`, OpenAI `json_schema`) and the zod validator the answer is
 * checked with. Only the keywords node-llama-cpp's GBNF converter understands are emitted:
 * `type`, `properties`, `required`, `additionalProperties`, `enum`, `minLength`, `maxLength`,
 * `items`, `minItems`, `maxItems`. Integer ranges are written as an `enum` of the allowed
 * values because the grammar converter has no `minimum`/`maximum`.
 */
import { z } from 'zod';
import type { JsonSchema } from '../../models/types';

/** A JSON schema and the zod validator that accepts exactly the same values. */
export interface Shape<T> {
  json: JsonSchema;
  zod: z.ZodType<T>;
}

/** A string of `min`–`max` characters. */
export function text(min: number, max: number): Shape<string> {
  return {
    json: { type: 'string', minLength: min, maxLength: max },
    zod: z.string().min(min).max(max),
  };
}

/** One of a non-empty list of strings. */
export function oneOf<const T extends string>(values: readonly T[]): Shape<T> {
  if (values.length === 0) throw new RangeError('oneOf: expected at least one value');
  return {
    json: { enum: [...values] },
    zod: z.enum(values as unknown as [T, ...T[]]) as unknown as z.ZodType<T>,
  };
}

/** An integer in [min, max], written as an enum (see the module comment). */
export function intIn(min: number, max: number): Shape<number> {
  const values: number[] = [];
  for (let v = min; v <= max; v++) values.push(v);
  return {
    json: { enum: values },
    zod: z.number().int().min(min).max(max),
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
  };
}

/** true or false. */
export function bool(): Shape<boolean> {
  return { json: { type: 'boolean' }, zod: z.boolean() };
}

/** A list of `min`–`max` items of one shape. */
export function list<T>(item: Shape<T>, min: number, max: number): Shape<T[]> {
  return {
    json: { type: 'array', items: item.json, minItems: min, maxItems: max },
    zod: z.array(item.zod).min(min).max(max),
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
  };
}

/**
 * An upper bound on the characters of a compact JSON value of `schema` (the subset these
 * builders emit), counting every string character as escaped to two. A byte-level tokenizer
 * spends one token per character, so this also bounds the tokens an answer can need: a
 * `maxTokens` below it lets a long but valid answer be cut off mid-JSON.
 */
export function maxJsonChars(schema: JsonSchema): number {
  const s = schema as Record<string, unknown>;
  if (Array.isArray(s.enum)) return Math.max(...s.enum.map((v) => JSON.stringify(v).length));
  switch (s.type) {
    case 'string':
      return 2 + 2 * ((s.maxLength as number | undefined) ?? 1000);
    case 'boolean':
      return 5;
    case 'array':
      return 2 + ((s.maxItems as number) ?? 0) * (maxJsonChars(s.items as JsonSchema) + 1);
    case 'object':
      return (
        2 +
        Object.entries(s.properties as Record<string, JsonSchema>).reduce(
          (sum, [key, value]) => sum + key.length + 4 + maxJsonChars(value),
          0,
        )
      );
    default:
      throw new RangeError(`maxJsonChars: unsupported schema ${JSON.stringify(schema)}`);
  }
}
