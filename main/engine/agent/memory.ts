/**
 * The memory stream (Park et al. 2023 §4.1; reverie
 * `persona/memory_structures/associative_memory.py`): every observation, chat, thought and plan
 * an agent has, in the order it had them, with one embedding per memory.
 *
 * Time: `createdAt`, `lastAccessedAt` and `expiresAt` are **game seconds since the run
 * started** (step × secondsPerStep), not wall-clock time, so a replay computes the same
 * recency. Embeddings live in one row-major Float32Array matrix (row r = memory r), each row
 * scaled to unit length on insert, so cosine similarity is one dot product per row.
 *
 *   matrix: [ m1: d0 d1 … d(dims-1) | m2: d0 … | … | unused capacity ]
 */
import { z } from 'zod';

/** What a memory is (reverie has event | chat | thought; plans are its planning thoughts). */
export type MemoryKind = 'observation' | 'chat' | 'thought' | 'plan';
export const MEMORY_KINDS: readonly MemoryKind[] = ['observation', 'chat', 'thought', 'plan'];

/** A run-local memory id, `m<n>` with n = 1, 2, 3… in insertion order. */
export type MemoryId = string & { readonly __brand: 'MemoryId' };

const MEMORY_ID = /^m([1-9][0-9]*)$/;

/** Checks the `m<n>` form and brands the string; throws a RangeError otherwise. */
export function parseMemoryId(raw: string): MemoryId {
  if (!MEMORY_ID.test(raw)) throw new RangeError(`expected a memory id like "m12", got "${raw}"`);
  return raw as MemoryId;
}

/** Lowest and highest importance ("poignancy") a memory can have (Park et al. §4.1). */
export const MIN_IMPORTANCE = 1;
export const MAX_IMPORTANCE = 10;

/**
 * How long plan and chat memories stay current, in game seconds: reverie sets `expiration`
 * 30 days ahead for planning thoughts and chats (`reflect.py`, `converse.py`).
 */
export const PLAN_EXPIRY_GAME_SECONDS = 30 * 24 * 60 * 60;

/** One memory. Its embedding is row `row` of the stream's matrix. */
export interface MemoryNode {
  readonly id: MemoryId;
  /** Row of this memory in the embedding matrix (its insertion ordinal, from 0). */
  readonly row: number;
  readonly kind: MemoryKind;
  /** The natural-language memory, e.g. "Isabella Rodriguez is making coffee". */
  readonly description: string;
  readonly subject: string;
  readonly predicate: string;
  readonly object: string;
  /** Game seconds since run start. */
  readonly createdAt: number;
  /** Game seconds since run start; retrieval moves it forward. */
  lastAccessedAt: number;
  /** Integer 1–10 (1 = mundane, 10 = poignant). */
  readonly importance: number;
  /** Lower-cased keywords (reverie's `kw_to_event` index terms). */
  readonly keywords: readonly string[];
  /** Memories this one was inferred from (reflections and plans). */
  readonly evidence: readonly MemoryId[];
  /** 0 for observations and chats; thoughts and plans: 1 + the deepest evidence's depth. */
  readonly depth: number;
  /** Game seconds since run start after which the memory is stale, or null for never. */
  readonly expiresAt: number | null;
  /** What the memory holds beyond its description: a chat's transcript lines (reverie `filling`). */
  readonly filling: readonly string[];
}

/** What a caller supplies to add a memory; the stream assigns id, row, depth and access time. */
export interface NewMemory {
  kind: MemoryKind;
  description: string;
  subject?: string;
  predicate?: string;
  object?: string;
  /** Game seconds since run start. */
  createdAt: number;
  importance: number;
  /** Any length-`dims` vector; the stream stores a unit-length copy. */
  embedding: Float32Array;
  keywords?: readonly string[];
  evidence?: readonly MemoryId[];
  expiresAt?: number | null;
  filling?: readonly string[];
}

const nodeMetaSchema = z.object({
  id: z.string().regex(MEMORY_ID),
  kind: z.enum(['observation', 'chat', 'thought', 'plan']),
  description: z.string(),
  subject: z.string(),
  predicate: z.string(),
  object: z.string(),
  createdAt: z.number().finite(),
  lastAccessedAt: z.number().finite(),
  importance: z.number().int().min(MIN_IMPORTANCE).max(MAX_IMPORTANCE),
  keywords: z.array(z.string()),
  evidence: z.array(z.string().regex(MEMORY_ID)),
  depth: z.number().int().min(0),
  expiresAt: z.number().finite().nullable(),
  /** Absent in snapshots from before chats kept their transcript. */
  filling: z.array(z.string()).default([]),
});

/** The JSON half of a snapshot; `embeddings` (rows × dims float32) travels as a binary file. */
export const memoryStreamMetaSchema = z.object({
  dims: z.number().int().min(1),
  nodes: z.array(nodeMetaSchema),
});
export type MemoryStreamMeta = z.infer<typeof memoryStreamMetaSchema>;

/** A whole stream: JSON metadata plus the used rows of the embedding matrix. */
export interface MemoryStreamSnapshot {
  meta: MemoryStreamMeta;
  /** `meta.nodes.length × meta.dims` floats, row-major, unit-length rows. */
  embeddings: Float32Array;
}

const INITIAL_CAPACITY_ROWS = 256;

/**
 * `memories` with each wording once, at its first place. The same words stored again (a
 * resident seen "reading the novel in the library" after each break) say nothing new to a
 * prompt that lists them: they were a third of the statements in a busy day's reflection
 * prompts, and three of a recorded new-day revision's (agent/planMemory.ts).
 */
export function onceEach<M extends Pick<MemoryNode, 'description'>>(memories: readonly M[]): M[] {
  const seen = new Set<string>();
  return memories.filter((m) => {
    if (seen.has(m.description)) return false;
    seen.add(m.description);
    return true;
  });
}

/**
 * An agent's memories, append-only. Ids, rows and order are assigned on insert, so two runs that
 * add the same memories get the same stream.
 * @example
 * const stream = new MemoryStream(384);
 * stream.add({ kind: 'observation', description: 'bed is idle', createdAt: 0, importance: 1, embedding });
 */
export class MemoryStream {
  /** Length of every embedding. */
  readonly dims: number;
  private matrix: Float32Array;
  private readonly list: MemoryNode[] = [];
  private readonly byId = new Map<MemoryId, MemoryNode>();
  /** The newest memory of each kind and wording (see {@link newestWith}). */
  private readonly byText = new Map<string, MemoryNode>();

  constructor(dims: number, initialCapacityRows = INITIAL_CAPACITY_ROWS) {
    if (!Number.isInteger(dims) || dims < 1) throw new RangeError(`bad embedding dims ${dims}`);
    this.dims = dims;
    this.matrix = new Float32Array(Math.max(1, initialCapacityRows) * dims);
  }

  /** Number of memories. */
  get size(): number {
    return this.list.length;
  }

  /** Every memory in insertion order (oldest first). */
  get nodes(): readonly MemoryNode[] {
    return this.list;
  }

  /** The used rows of the embedding matrix (a view, `size × dims` floats; unit-length rows). */
  get embeddings(): Float32Array {
    return this.matrix.subarray(0, this.list.length * this.dims);
  }

  /** The unit-length embedding of one memory (a view into the matrix). */
  embeddingOf(node: MemoryNode): Float32Array {
    return this.matrix.subarray(node.row * this.dims, (node.row + 1) * this.dims);
  }

  get(id: MemoryId): MemoryNode | undefined {
    return this.byId.get(id);
  }

  /** The newest memory of `kind` worded exactly `description`, if the agent has one. */
  newestWith(kind: MemoryKind, description: string): MemoryNode | undefined {
    return this.byText.get(textKey(kind, description));
  }

  /**
   * Appends a memory and returns it. Throws a RangeError for a wrong-length or zero embedding,
   * an importance outside 1–10, or evidence naming no memory in this stream: those are caller
   * bugs (model output is validated before it gets here).
   */
  add(input: NewMemory): MemoryNode {
    const { dims } = this;
    if (input.embedding.length !== dims) {
      throw new RangeError(`expected a ${dims}-dim embedding, got ${input.embedding.length}`);
    }
    if (
      !Number.isInteger(input.importance) ||
      input.importance < MIN_IMPORTANCE ||
      input.importance > MAX_IMPORTANCE
    ) {
      throw new RangeError(`expected an integer importance 1–10, got ${input.importance}`);
    }
    const evidence = (input.evidence ?? []).map((id) => {
      const node = this.byId.get(id);
      if (!node) throw new RangeError(`evidence ${id} is not in this memory stream`);
      return node;
    });
    let norm = 0;
    for (let i = 0; i < dims; i++) norm += input.embedding[i] * input.embedding[i];
    norm = Math.sqrt(norm);
    if (!(norm > 0) || !Number.isFinite(norm)) {
      throw new RangeError('expected a non-zero, finite embedding');
    }

    const row = this.list.length;
    this.ensureCapacity(row + 1);
    const base = row * dims;
    for (let i = 0; i < dims; i++) this.matrix[base + i] = input.embedding[i] / norm;

    // Reverie: a thought's depth is 1 + the deepest evidence (associative_memory.add_thought).
    const inferred = input.kind === 'thought' || input.kind === 'plan';
    const depth = inferred ? 1 + Math.max(0, ...evidence.map((e) => e.depth)) : 0;
    const node: MemoryNode = {
      id: `m${row + 1}` as MemoryId,
      row,
      kind: input.kind,
      description: input.description,
      subject: input.subject ?? '',
      predicate: input.predicate ?? '',
      object: input.object ?? '',
      createdAt: input.createdAt,
      lastAccessedAt: input.createdAt,
      importance: input.importance,
      keywords: (input.keywords ?? []).map((k) => k.toLowerCase()),
      evidence: evidence.map((e) => e.id),
      depth,
      expiresAt: input.expiresAt ?? null,
      filling: [...(input.filling ?? [])],
    };
    this.index(node);
    return node;
  }

  /** The newest `count` memories of the given kinds, newest first. */
  latest(
    kinds: readonly MemoryKind[],
    count: number,
    keep: (node: MemoryNode) => boolean = () => true,
  ): MemoryNode[] {
    const out: MemoryNode[] = [];
    for (let i = this.list.length - 1; i >= 0 && out.length < count; i--) {
      if (kinds.includes(this.list[i].kind) && keep(this.list[i])) out.push(this.list[i]);
    }
    return out;
  }

  /** Memories of the given kinds from the newest stored back, for scans that stop on a condition. */
  *newestFirst(kinds: readonly MemoryKind[]): Generator<MemoryNode> {
    for (let i = this.list.length - 1; i >= 0; i--) {
      if (kinds.includes(this.list[i].kind)) yield this.list[i];
    }
  }

  /** Marks memories as accessed at `now` (game seconds); never moves access time backwards. */
  touch(nodes: readonly MemoryNode[], now: number): void {
    for (const node of nodes) {
      if (now > node.lastAccessedAt) node.lastAccessedAt = now;
    }
  }

  /** The whole stream as JSON metadata plus a copy of the used embedding rows. */
  toSnapshot(): MemoryStreamSnapshot {
    return {
      meta: {
        dims: this.dims,
        nodes: this.list.map((n) => ({
          id: n.id,
          kind: n.kind,
          description: n.description,
          subject: n.subject,
          predicate: n.predicate,
          object: n.object,
          createdAt: n.createdAt,
          lastAccessedAt: n.lastAccessedAt,
          importance: n.importance,
          keywords: [...n.keywords],
          evidence: [...n.evidence],
          depth: n.depth,
          expiresAt: n.expiresAt,
          filling: [...n.filling],
        })),
      },
      embeddings: this.embeddings.slice(),
    };
  }

  /**
   * Rebuilds a stream saved by {@link toSnapshot}. Validates the metadata, that ids run
   * m1, m2, … in order, that evidence points backwards, and that the matrix has the right size.
   */
  static fromSnapshot(snapshot: MemoryStreamSnapshot): MemoryStream {
    const meta = memoryStreamMetaSchema.parse(snapshot.meta);
    const rows = meta.nodes.length;
    if (snapshot.embeddings.length !== rows * meta.dims) {
      throw new RangeError(
        `expected ${rows} × ${meta.dims} embedding floats, got ${snapshot.embeddings.length}`,
      );
    }
    const stream = new MemoryStream(meta.dims, Math.max(INITIAL_CAPACITY_ROWS, rows));
    stream.matrix.set(snapshot.embeddings);
    meta.nodes.forEach((n, row) => {
      if (n.id !== `m${row + 1}`) throw new RangeError(`expected id m${row + 1}, got ${n.id}`);
      for (const e of n.evidence) {
        if (!stream.byId.has(e as MemoryId)) throw new RangeError(`${n.id}: unknown evidence ${e}`);
      }
      const node: MemoryNode = {
        ...n,
        id: n.id as MemoryId,
        row,
        evidence: n.evidence as MemoryId[],
      };
      stream.index(node);
    });
    return stream;
  }

  private index(node: MemoryNode): void {
    this.list.push(node);
    this.byId.set(node.id, node);
    this.byText.set(textKey(node.kind, node.description), node);
  }

  private ensureCapacity(rows: number): void {
    if (rows * this.dims <= this.matrix.length) return;
    // Doubling keeps appends amortised O(dims).
    const capacityRows = Math.max(rows, (this.matrix.length / this.dims) * 2);
    const grown = new Float32Array(capacityRows * this.dims);
    grown.set(this.matrix);
    this.matrix = grown;
  }
}

function textKey(kind: MemoryKind, description: string): string {
  return `${kind}\u0000${description}`;
}
