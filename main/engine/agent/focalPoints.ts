/**
 * Retrieval on several focal points at once (reverie `new_retrieve(persona, focal_points, n)`):
 * `n` memories for each focal point, best of each first. A memory two focal points find is kept
 * once, at its first place (reverie lists it twice; a small context is better spent on another
 * memory).
 */
import type { Agent } from './Agent';
import type { MemoryNode } from './memory';
import { recall, type Mind } from './mind';

/**
 * How the focal points' lists are joined: one after another (reverie's order), or by rank —
 * every focal point's best memory, then every second best, and so on — so that a list cut to fit
 * the context keeps the best of each (reflection's one insights prompt answers all its questions).
 */
export type FocalPointOrder = 'by focal point' | 'by rank';

/** The memories of `agent` retrieved on each of `focalPoints`, `perFocalPoint` each. */
export async function recallOnFocalPoints(
  mind: Mind,
  agent: Agent,
  focalPoints: readonly string[],
  perFocalPoint: number,
  order: FocalPointOrder = 'by focal point',
): Promise<MemoryNode[]> {
  const lists: MemoryNode[][] = [];
  for (const query of focalPoints) lists.push(await recall(mind, agent, query, perFocalPoint));
  const joined =
    order === 'by focal point'
      ? lists.flat()
      : Array.from({ length: Math.max(0, ...lists.map((l) => l.length)) }, (_, rank) =>
          lists.flatMap((l) => l[rank] ?? []),
        ).flat();
  const seen = new Set<string>();
  return joined.filter((m) => {
    if (seen.has(m.id)) return false;
    seen.add(m.id);
    return true;
  });
}
