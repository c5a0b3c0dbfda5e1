/**
 * Whether a memory is about a person, read from its words: where a resident's memories are
 * sorted by whom they concern (social memory's summary of one acquaintance; what a resident
 * remembers about someone they notice, before reacting; the relationship network's check that a
 * "yes, I know them" has a memory behind it; diffusion's keyword match).
 */
import type { MemoryNode } from './memory';

/** Whether `text` names `name` as a whole word: the full name or the first name, any case. */
export function namesPerson(text: string, name: string): boolean {
  const first = name.trim().split(/\s+/)[0] ?? '';
  return containsPhrase(text, name) || containsPhrase(text, first);
}

/**
 * Whether memory `m` concerns `person`: they are its subject or object (an observation of them;
 * a thought or plan a chat with them left), or its words name them.
 */
export function concerns(
  m: Pick<MemoryNode, 'description' | 'subject' | 'object'>,
  person: string,
): boolean {
  return m.subject === person || m.object === person || namesPerson(m.description, person);
}

/** Whether `text` holds `phrase` as whole words (not inside a longer word), any case. */
export function containsPhrase(text: string, phrase: string): boolean {
  const escaped = phrase.trim().replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  if (escaped === '') return false;
  return new RegExp(`(^|[^\\p{L}\\p{N}])${escaped}($|[^\\p{L}\\p{N}])`, 'iu').test(text);
}
