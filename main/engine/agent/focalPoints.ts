/**
 * Retrieval on several focal points at once (reverie `new_retrieve(persona, focal_points, n)`):
 * `n` memories for each focal point, in focal-point order, best of each first. A memory two
 * focal points find is kept once, at its first place (reverie lists it twice; a small context
 * is better spent on another memory).
 */
import type { Agent } from './Agent';
import type { MemoryNode } from './memory';
import { recall, type Mind } from './mind';

/** The memories of `agent` retrieved on each of `focalPoints`, `perFocalPoint` each. */
export async function recallOnFocalPoints(
  mind: Mind,
  agent: Agent,
  focalPoints: readonly string[],
  perFocalPoint: number,
): Promise<MemoryNode[]> {
  const seen = new Set<string>();
  const out: MemoryNode[] = [];
  for (const query of focalPoints) {
    for (const m of await recall(mind, agent, query, perFocalPoint)) {
      if (seen.has(m.id)) continue;
      seen.add(m.id);
      out.push(m);
    }
  }
  return out;
}
