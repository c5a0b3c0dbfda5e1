import { describe, expect, it } from 'vitest';
import { MemoryStream, parseMemoryId, type MemoryId, type NewMemory } from './memory';

const v = (...xs: number[]) => Float32Array.from(xs);
const obs = (description: string, createdAt: number, embedding = v(1, 0)): NewMemory => ({
  kind: 'observation',
  description,
  createdAt,
  importance: 3,
  embedding,
});

describe('MemoryStream', () => {
  it('assigns sequential ids and rows and stores unit-length embeddings', () => {
    const stream = new MemoryStream(2);
    const a = stream.add({ ...obs('bed is idle', 0, v(3, 4)), keywords: ['Bed', 'idle'] });
    const b = stream.add(obs('desk is idle', 10));
    expect([a.id, a.row, b.id, b.row]).toEqual(['m1', 0, 'm2', 1]);
    expect(Array.from(stream.embeddingOf(a))).toEqual([Math.fround(0.6), Math.fround(0.8)]);
    expect(a).toMatchObject({
      lastAccessedAt: 0,
      depth: 0,
      keywords: ['bed', 'idle'],
      expiresAt: null,
    });
    expect(stream.get('m2' as MemoryId)).toBe(b);
  });

  it('gives thoughts and plans depth 1 + their deepest evidence', () => {
    const stream = new MemoryStream(2);
    const o1 = stream.add(obs('Klaus is reading', 0));
    const t1 = stream.add({ ...obs('Klaus likes books', 5), kind: 'thought', evidence: [o1.id] });
    const t2 = stream.add({
      ...obs('Klaus is studious', 6),
      kind: 'thought',
      evidence: [o1.id, t1.id],
    });
    const bare = stream.add({ ...obs('I should read more', 7), kind: 'thought' });
    const plan = stream.add({
      ...obs('visit the library', 8),
      kind: 'plan',
      evidence: [t2.id],
      expiresAt: 99,
    });
    expect([o1.depth, t1.depth, t2.depth, bare.depth, plan.depth]).toEqual([0, 1, 2, 1, 3]);
    expect(plan.expiresAt).toBe(99);
  });

  it('rejects bad embeddings, importance and evidence', () => {
    const stream = new MemoryStream(2);
    expect(() => stream.add(obs('x', 0, v(1, 2, 3)))).toThrow(/2-dim/);
    expect(() => stream.add(obs('x', 0, v(0, 0)))).toThrow(/non-zero/);
    expect(() => stream.add({ ...obs('x', 0), importance: 11 })).toThrow(/importance/);
    expect(() => stream.add({ ...obs('x', 0), importance: 2.5 })).toThrow(/importance/);
    expect(() =>
      stream.add({ ...obs('x', 0), kind: 'thought', evidence: ['m9' as MemoryId] }),
    ).toThrow(/m9/);
    expect(stream.size).toBe(0);
    expect(() => parseMemoryId('agent_1')).toThrow(/memory id/);
    expect(parseMemoryId('m12')).toBe('m12');
  });

  it('grows its matrix past the initial capacity without losing rows', () => {
    const stream = new MemoryStream(3, 2);
    for (let i = 0; i < 5; i++) stream.add(obs(`m${i}`, i, v(i + 1, 0, 0)));
    stream.add(obs('last', 5, v(0, 0, 2)));
    expect(Array.from(stream.embeddings)).toEqual([
      1, 0, 0, 1, 0, 0, 1, 0, 0, 1, 0, 0, 1, 0, 0, 0, 0, 1,
    ]);
  });

  it('lists the latest memories of given kinds, newest first', () => {
    const stream = new MemoryStream(2);
    stream.add(obs('a', 0));
    stream.add({ ...obs('b', 1), kind: 'chat' });
    stream.add(obs('c', 2));
    stream.add(obs('d', 3));
    expect(stream.latest(['observation'], 2).map((n) => n.description)).toEqual(['d', 'c']);
    expect(stream.latest(['observation', 'chat'], 9).map((n) => n.description)).toEqual([
      'd',
      'c',
      'b',
      'a',
    ]);
  });

  it('round-trips through a snapshot of JSON metadata plus a Float32 buffer', () => {
    const stream = new MemoryStream(2);
    const o = stream.add({ ...obs('Klaus is reading', 0, v(1, 1)), keywords: ['klaus'] });
    stream.add({
      ...obs('Klaus likes books', 5, v(0, 2)),
      kind: 'thought',
      evidence: [o.id],
      importance: 7,
    });
    stream.touch([o], 3600);
    const snap = stream.toSnapshot();
    const bytes = Buffer.from(snap.embeddings.buffer.slice(0));
    const restored = MemoryStream.fromSnapshot({
      meta: JSON.parse(JSON.stringify(snap.meta)),
      embeddings: new Float32Array(bytes.buffer, bytes.byteOffset, bytes.byteLength / 4),
    });
    expect(restored.nodes).toEqual(stream.nodes);
    expect(restored.embeddings).toEqual(stream.embeddings);
    expect(restored.add(obs('next', 9)).id).toBe('m3');

    expect(() => MemoryStream.fromSnapshot({ ...snap, embeddings: new Float32Array(3) })).toThrow(
      /2 × 2/,
    );
    const shuffled = { ...snap.meta, nodes: [snap.meta.nodes[1], snap.meta.nodes[0]] };
    expect(() =>
      MemoryStream.fromSnapshot({ meta: shuffled, embeddings: snap.embeddings }),
    ).toThrow(/expected id m1/);
  });
});
