/**
 * What a JSON schema forces next after a partial answer: the keys, quotes, commas and brackets
 * the grammar leaves no choice about, and the rest of an enum value once what was written
 * leaves one. `forced-tokens.ts` feeds these to the model as prompt tokens (one batch, no
 * logits) instead of decoding them one at a time.
 *
 * The schemas are those main/engine/prompts/jsonSchema.ts writes: objects with every key
 * required, in order, and no others; arrays with `items` or `prefixItems` and item counts;
 * `enum`s of strings or integers; strings with a length range; booleans. Whitespace is never
 * forced (the grammar allows one space at each gap: the model decides, and a space it writes is
 * read past). Any other schema, or text that does not follow the schema, forces nothing; and
 * forced-tokens.ts checks every forced token against the grammar itself, so a disagreement
 * between the two can only cost decoding, never an answer the grammar would refuse.
 */
import type { JsonSchema } from '../types.ts';

/**
 * The kinds of character that may follow the forced text (spaces aside): letters and digits
 * (`word`), punctuation. Neither: the answer ends, or a string's content begins (anything, but
 * not joined to the quote before it by the tokenizer, which keeps words and punctuation apart).
 */
export interface AfterForced {
  word: boolean;
  punctuation: boolean;
}

/** The text `schema` forces after `written` (at most `maxChars`), and what may follow it. */
export function forcedText(
  schema: JsonSchema,
  written: string,
  maxChars = 64,
): { text: string; after: AfterForced } {
  const parser = new Parser(schema);
  for (const c of written) if (!parser.feed(c)) return { text: '', after: ANY };
  let text = '';
  while (text.length < maxChars) {
    const c = parser.next();
    if (c === null || !parser.feed(c)) break;
    text += c;
  }
  return { text, after: parser.after() };
}

const ANY: AfterForced = { word: true, punctuation: true };
const NOTHING: AfterForced = { word: false, punctuation: false };
/** A letter or digit: what the tokenizer keeps apart from punctuation. */
export const isWordChar = (c: string) => /[\p{L}\p{N}]/u.test(c);

/** The kinds of the characters in `chars`. */
function kindsOf(chars: readonly string[]): AfterForced {
  return { word: chars.some(isWordChar), punctuation: chars.some((c) => !isWordChar(c)) };
}

/** What a value of `schema` may begin with. */
function startOf(schema: JsonSchema): AfterForced {
  const s = schema as Record<string, unknown>;
  if (Array.isArray(s.enum)) return kindsOf(s.enum.map((v) => JSON.stringify(v)[0]));
  return s.type === 'boolean'
    ? { word: true, punctuation: false }
    : { word: false, punctuation: true };
}

/** A value of the schema being read: where in it the text so far has got. */
type Frame =
  | { kind: 'literal'; alternatives: string[]; typed: string }
  | { kind: 'string'; phase: 'open' | 'body' | 'escape'; length: number; max: number }
  | { kind: 'sequence'; parts: Part[]; index: number; offset: number }
  | {
      kind: 'array';
      item: JsonSchema;
      min: number;
      max: number;
      count: number;
      phase: 'open' | 'start' | 'item' | 'after';
    };

/** A fixed piece of text, or a value of a schema. */
type Part = { text: string } | { schema: JsonSchema };

class Parser {
  private readonly stack: Frame[];
  private broken = false;

  constructor(schema: JsonSchema) {
    const root = frameOf(schema);
    this.stack = root ? [root] : [];
    if (!root) this.broken = true;
  }

  /** What may come next, once {@link next} has no forced character. */
  after(): AfterForced {
    const top = this.stack[this.stack.length - 1];
    if (this.broken) return ANY;
    if (!top) return NOTHING;
    switch (top.kind) {
      case 'literal': {
        const open = top.alternatives.filter((a) => a.startsWith(top.typed));
        const kinds = kindsOf(open.map((a) => a[top.typed.length]).filter((c) => c !== undefined));
        // A finished alternative is followed by the structure around it.
        return open.includes(top.typed) ? { ...kinds, punctuation: true } : kinds;
      }
      case 'string':
        return top.phase === 'open' ? { word: false, punctuation: true } : NOTHING;
      case 'sequence':
        return ANY;
      case 'array':
        if (top.phase === 'after') return { word: false, punctuation: true };
        return top.phase === 'start'
          ? { ...startOf(top.item), punctuation: true }
          : startOf(top.item);
    }
  }

  /** Reads one character; false when it does not follow the schema (nothing is predicted then). */
  feed(c: string): boolean {
    if (this.broken) return false;
    this.broken = !this.consume(c);
    return !this.broken;
  }

  /** The one character the schema allows next (whitespace aside), or null when there is a choice. */
  next(): string | null {
    if (this.broken) return null;
    for (;;) {
      const top = this.stack[this.stack.length - 1];
      if (!top) return null;
      switch (top.kind) {
        case 'literal': {
          const open = top.alternatives.filter((a) => a.startsWith(top.typed));
          if (open.includes(top.typed)) return null; // done, or one that goes on: a choice
          const c = open[0]?.[top.typed.length];
          return c !== undefined && open.every((a) => a[top.typed.length] === c) ? c : null;
        }
        case 'string':
          if (top.phase === 'open') return '"';
          return top.phase === 'body' && top.length >= top.max ? '"' : null;
        case 'sequence': {
          const part = top.parts[top.index];
          if (!part) return null;
          if ('text' in part) return part.text[top.offset];
          if (!this.openPart(top, part.schema)) return null;
          continue;
        }
        case 'array':
          if (top.phase === 'open') return '[';
          if (top.phase === 'after') {
            if (top.count >= top.max) return ']';
            return top.count < top.min ? ',' : null;
          }
          if (top.phase === 'start' && top.min === 0) return top.max === 0 ? ']' : null;
          if (!this.openItem(top)) return null;
          continue;
      }
    }
  }

  private consume(c: string): boolean {
    for (;;) {
      const top = this.stack[this.stack.length - 1];
      if (!top) return false; // past the end of the answer
      switch (top.kind) {
        case 'literal': {
          const typed = top.typed + c;
          if (top.alternatives.some((a) => a.startsWith(typed))) {
            top.typed = typed;
            if (!top.alternatives.some((a) => a.startsWith(typed) && a !== typed)) this.pop();
            return true;
          }
          if (!top.alternatives.includes(top.typed)) return false;
          this.pop(); // a shorter alternative ("1" of "1" | "10") ended: the parent reads `c`
          continue;
        }
        case 'string':
          if (top.phase === 'open') {
            if (c === ' ') return true;
            if (c !== '"') return false;
            top.phase = 'body';
          } else if (top.phase === 'escape') {
            top.phase = 'body';
            top.length++;
          } else if (c === '\\') {
            top.phase = 'escape';
          } else if (c === '"') {
            this.pop();
          } else {
            top.length++;
          }
          return true;
        case 'sequence': {
          const part = top.parts[top.index];
          if (!part) {
            this.pop();
            continue;
          }
          if ('text' in part) {
            if (c === part.text[top.offset]) {
              if (++top.offset === part.text.length) this.advance(top);
              return true;
            }
            return c === ' '; // a gap the grammar allows (after "{", ",", before "}", "]")
          }
          if (c === ' ') return true;
          if (!this.openPart(top, part.schema)) return false;
          continue;
        }
        case 'array':
          if (top.phase === 'open') {
            if (c !== '[') return false;
            top.phase = 'start';
            return true;
          }
          if (c === ' ') return true;
          if (top.phase === 'after') {
            if (c === ',' && top.count < top.max) top.phase = 'item';
            else if (c === ']' && top.count >= top.min) this.pop();
            else return false;
            return true;
          }
          if (top.phase === 'start' && c === ']' && top.min === 0) {
            this.pop();
            return true;
          }
          if (!this.openItem(top)) return false;
          continue;
      }
    }
  }

  /** Starts the value `schema` of `sequence`; false for a schema this module does not know. */
  private openPart(sequence: Extract<Frame, { kind: 'sequence' }>, schema: JsonSchema): boolean {
    const child = frameOf(schema);
    if (!child) return false;
    sequence.index++;
    this.stack.push(child);
    return true;
  }

  /** Starts the next item of `array`; false for an item schema this module does not know. */
  private openItem(array: Extract<Frame, { kind: 'array' }>): boolean {
    const child = frameOf(array.item);
    if (!child) return false;
    array.phase = 'after';
    array.count++;
    this.stack.push(child);
    return true;
  }

  private advance(sequence: Extract<Frame, { kind: 'sequence' }>) {
    sequence.index++;
    sequence.offset = 0;
    if (sequence.index >= sequence.parts.length) this.pop();
  }

  /** Ends the top value; a sequence it was the last part of ends with it. */
  private pop() {
    this.stack.pop();
    const parent = this.stack[this.stack.length - 1];
    if (parent?.kind === 'sequence' && parent.index >= parent.parts.length) this.pop();
  }
}

/** A frame reading a value of `schema`, or null for a schema this module does not know. */
function frameOf(schema: JsonSchema): Frame | null {
  const s = schema as Record<string, unknown>;
  if (Array.isArray(s.enum)) {
    return { kind: 'literal', alternatives: s.enum.map((v) => JSON.stringify(v)), typed: '' };
  }
  switch (s.type) {
    case 'boolean':
      return { kind: 'literal', alternatives: ['true', 'false'], typed: '' };
    case 'string':
      return { kind: 'string', phase: 'open', length: 0, max: (s.maxLength as number) ?? Infinity };
    case 'object': {
      const keys = Object.keys((s.properties as Record<string, JsonSchema>) ?? {});
      const required = (s.required as string[]) ?? [];
      // An optional key, or room for keys of the model's own: the keys are a choice.
      if (keys.some((k) => !required.includes(k)) || s.additionalProperties !== false) return null;
      const parts: Part[] = [];
      keys.forEach((key, i) => {
        parts.push({ text: `${i === 0 ? '{' : ','}${JSON.stringify(key)}:` });
        parts.push({ schema: (s.properties as Record<string, JsonSchema>)[key] });
      });
      parts.push({ text: keys.length ? '}' : '{}' });
      return { kind: 'sequence', parts, index: 0, offset: 0 };
    }
    case 'array': {
      if (Array.isArray(s.prefixItems)) {
        const parts: Part[] = [];
        (s.prefixItems as JsonSchema[]).forEach((item, i) => {
          parts.push({ text: i === 0 ? '[' : ',' });
          parts.push({ schema: item });
        });
        parts.push({ text: ']' });
        return { kind: 'sequence', parts, index: 0, offset: 0 };
      }
      if (!s.items) return null;
      return {
        kind: 'array',
        item: s.items as JsonSchema,
        min: (s.minItems as number) ?? 0,
        max: (s.maxItems as number) ?? Infinity,
        count: 0,
        phase: 'open',
      };
    }
    default:
      return null;
  }
}
