import { describe, expect, it } from 'vitest';
import type { Embedder } from '../../models/types';
import { harness } from '../testing/harness';
import { PLACES_OFFERED, placesFor } from './placeRelevance';

/** One axis per word: a text's vector counts these words, so similarity is shared words. */
const WORDS = ['read', 'books', 'library', 'bake', 'bread', 'oven', 'swim', 'pond'];
class WordEmbedder implements Embedder {
  readonly id = 'word-embedder';
  readonly dimensions = WORDS.length;
  texts: string[] = [];
  async embed(texts: string[]): Promise<Float32Array[]> {
    this.texts.push(...texts);
    return texts.map((t) => {
      const words = t.toLowerCase().split(/\W+/);
      const v = Float32Array.from(WORDS, (w) => (words.includes(w) ? 1 : 0));
      const norm = Math.hypot(...v) || 1;
      return v.map((x) => x / norm);
    });
  }
  async dispose(): Promise<void> {}
}

/** Ada lives in the cafe kitchen and stands in it (harness). */
const PLACES = [
  'park > lawn > bench',
  'park > pond',
  'library > reading room > books',
  'cafe > dining > table',
  'cafe > kitchen > oven',
  'bakery > oven',
];

describe('places offered for a task', () => {
  it(`offers the ${PLACES_OFFERED} places whose names are most like the task, best first`, async () => {
    const h = await harness();
    const embedder = new WordEmbedder();
    const mind = h.mind(0, { embedder });
    const offered = await placesFor(h.agents.ada, mind, 'read books', PLACES);
    expect(offered).toHaveLength(PLACES_OFFERED);
    expect(offered[0]).toBe('library > reading room > books');
    expect(await placesFor(h.agents.ada, mind, 'swim in the pond', PLACES)).toContain(
      'park > pond',
    );
    // As like the task and at home beats as like the task elsewhere.
    expect(await placesFor(h.agents.ada, mind, 'use the oven', PLACES)).toEqual([
      'cafe > kitchen > oven',
      'bakery > oven',
      'cafe > dining > table',
    ]);
    // Place names are embedded once, whatever the number of tasks.
    expect(embedder.texts.filter((t) => t === PLACES[0])).toHaveLength(1);
  });

  it('with nothing like the task: home and the current area first, then the order given', async () => {
    const h = await harness();
    const mind = h.mind(0, { embedder: new WordEmbedder() });
    expect(await placesFor(h.agents.ada, mind, 'think', PLACES)).toEqual([
      'cafe > kitchen > oven',
      'cafe > dining > table',
      'park > lawn > bench',
    ]);
  });

  it('ranks a task within its schedule block: a task that names no place goes where the block says', async () => {
    const h = await harness();
    const embedder = new WordEmbedder();
    const mind = h.mind(0, { embedder });
    const offered = await placesFor(h.agents.ada, mind, 'take notes', PLACES, 'go to the library');
    expect(offered[0]).toBe('library > reading room > books');
    // Ranked as reverie names a decomposed task: "block (task)".
    expect(embedder.texts).toContain('go to the library (take notes)');
    // Alone, the same task stays at home.
    expect((await placesFor(h.agents.ada, mind, 'take notes', PLACES))[0]).toBe(
      'cafe > kitchen > oven',
    );
  });

  it("leaves other people's homes out unless the task names them or their residents", async () => {
    const h = await harness();
    const embedder = new WordEmbedder();
    // Ada lives in the cafe; the bakery is Bo Park's home.
    const homes = new Map([
      ['cafe', [h.agents.ada.name]],
      ['bakery', ['Bo Park']],
    ]);
    const mind = h.mind(0, { embedder, homes });
    expect(await placesFor(h.agents.ada, mind, 'bake bread in the oven', PLACES)).not.toContain(
      'bakery > oven',
    );
    for (const task of ['bake bread in the oven with Bo', 'bake bread in the oven at the bakery'])
      expect(await placesFor(h.agents.ada, mind, task, PLACES)).toContain('bakery > oven');
    // Her own home is never left out.
    expect(await placesFor(h.agents.ada, mind, 'bake bread in the oven', PLACES)).toContain(
      'cafe > kitchen > oven',
    );
  });

  it(`offers every place, in order and without embedding, when there are ${PLACES_OFFERED} or fewer`, async () => {
    const h = await harness();
    const embedder = new WordEmbedder();
    const few = PLACES.slice(0, PLACES_OFFERED);
    expect(await placesFor(h.agents.ada, h.mind(0, { embedder }), 'bake bread', few)).toEqual(few);
    expect(embedder.texts).toEqual([]);
  });
});
