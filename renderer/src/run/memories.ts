/** Memory stream helpers for the inspector: filtering, search, and the reflection tree. */
import type { AgentDetail } from '../../../common/api/runs';

export type Memory = AgentDetail['memories'][number];
export type MemoryKind = Memory['kind'];

/** Memories of `kind` ('all' for any) whose description holds every word of `query`. */
export function filterMemories<M extends { kind: MemoryKind; description: string }>(
  memories: readonly M[],
  kind: MemoryKind | 'all',
  query: string,
): M[] {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  return memories.filter(
    (m) =>
      (kind === 'all' || m.kind === kind) &&
      words.every((w) => m.description.toLowerCase().includes(w)),
  );
}

export interface ReflectionNode {
  id: string;
  description: string;
  depth: number;
  children: ReflectionNode[];
  /** Evidence ids no longer in the stream. */
  missing: number;
}

/** Deepest nesting shown; evidence chains are shallow in practice, cycles would not be. */
const MAX_TREE_DEPTH = 6;

/**
 * Reflections (thoughts with evidence) as trees: each insight with the memories it rests on,
 * recursively. Roots are the reflections no other reflection cites, newest first.
 */
export function reflectionTree(memories: readonly Memory[]): ReflectionNode[] {
  const byId = new Map(memories.map((m) => [m.id, m]));
  const reflections = memories.filter((m) => m.kind === 'thought' && m.evidence.length > 0);
  const cited = new Set(reflections.flatMap((r) => r.evidence));
  const build = (m: Memory, level: number, seen: Set<string>): ReflectionNode => {
    const children: ReflectionNode[] = [];
    let missing = 0;
    if (level < MAX_TREE_DEPTH)
      for (const id of m.evidence) {
        const e = byId.get(id);
        if (!e) missing++;
        else if (!seen.has(id)) children.push(build(e, level + 1, new Set([...seen, id])));
      }
    return { id: m.id, description: m.description, depth: m.depth, children, missing };
  };
  return reflections
    .filter((r) => !cited.has(r.id))
    .sort((a, b) => b.createdAt - a.createdAt)
    .map((r) => build(r, 0, new Set([r.id])));
}
