/**
 * The text side of node-llama-cpp's JSON grammars: a grammar's stop strings, the same grammar
 * with its JSON on one line, and whether a completion is a whole JSON value yet.
 */
import { isLlamaText, type LlamaGrammar } from 'node-llama-cpp';

/** The texts that end generation under `grammar` (its string stop triggers). */
export function grammarStopStrings(grammar: LlamaGrammar): string[] {
  return grammar.stopGenerationTriggers.flatMap((trigger) => {
    const values: readonly unknown[] =
      typeof trigger === 'string'
        ? [trigger]
        : isLlamaText(trigger)
          ? trigger.values
          : (trigger as readonly unknown[]);
    return values.every((v) => typeof v === 'string') ? [values.join('')] : [];
  });
}

/**
 * A node-llama-cpp JSON grammar (GBNF) whose whitespace rules allow at most one space: their
 * definitions (`whitespace-…` and `comma-whitespace-…`, which allow a line break and indent) are
 * rewritten; everything else is kept. A grammar naming its rules otherwise comes back unchanged,
 * so a later node-llama-cpp can cost tokens here, never correctness.
 */
export function compactJsonGrammar(gbnf: string): string {
  return gbnf
    .split('\n')
    .map((line) => {
      const rule = /^((comma-)?whitespace-[\w-]*) ::= /.exec(line);
      if (!rule) return line;
      return `${rule[1]} ::= ${rule[2] ? '"," ' : ''}[ ]?`;
    })
    .join('\n');
}

/** Whether `text` is a whole JSON object or array (the answer is complete). */
export function isCompleteJsonContainer(text: string): boolean {
  const trimmed = text.trim();
  const first = trimmed[0];
  const last = trimmed[trimmed.length - 1];
  if (!((first === '{' && last === '}') || (first === '[' && last === ']'))) return false;
  try {
    JSON.parse(trimmed);
    return true;
  } catch {
    return false;
  }
}
