import { describe, expect, it } from 'vitest';
import type { AgentFrame, RunStats } from '../../../common/api/runs';
import { filterMemories, reflectionTree, type Memory } from './memories';
import { conversationSeries, heatmapCells, MAX_FN_SERIES, perFunctionSeries } from './charts';
import {
  agentAtPoint,
  objectAt,
  objectPlaces,
  SpriteTweens,
  TWEEN_MAX_TILES,
  placeBubble,
  wrapBubble,
} from './mapGeometry';
import { forkPoint } from './runFrames';
import { smallTown } from '../test/fixtures';

function memory(id: string, patch: Partial<Memory> = {}): Memory {
  return {
    id,
    kind: 'observation',
    description: id,
    importance: 3,
    createdAt: 0,
    createdClock: '07:00',
    lastAccessedAt: 0,
    depth: 0,
    evidence: [],
    ...patch,
  };
}

function agent(id: string, x: number, y: number): AgentFrame {
  return {
    id,
    name: id,
    sprite: 'villager-1',
    x,
    y,
    emoji: '',
    action: 'idle',
    address: '',
    chattingWith: null,
    asleep: false,
    resident: false,
  };
}

describe('memories', () => {
  const stream = [
    memory('m1', { description: 'Bo is reading at the library' }),
    memory('m2', { kind: 'chat', description: 'Talked with Bo about the willow' }),
    memory('t1', {
      kind: 'thought',
      description: 'Bo cares about the willow',
      evidence: ['m1', 'm2'],
      depth: 1,
      createdAt: 5,
    }),
    memory('t2', {
      kind: 'thought',
      description: 'The town may save the willow',
      evidence: ['t1', 'gone'],
      depth: 2,
      createdAt: 9,
    }),
    memory('t3', { kind: 'thought', description: 'a plain thought' }),
  ];
  it('filters by type and by every word of the search', () => {
    expect(filterMemories(stream, 'chat', '').map((m) => m.id)).toEqual(['m2']);
    expect(filterMemories(stream, 'all', 'willow bo').map((m) => m.id)).toEqual(['m2', 't1']);
    expect(filterMemories(stream, 'thought', 'WILLOW').map((m) => m.id)).toEqual(['t1', 't2']);
  });
  it('builds reflection trees from evidence, roots uncited, forgotten evidence counted', () => {
    const tree = reflectionTree(stream);
    expect(tree.map((n) => n.id)).toEqual(['t2']);
    expect(tree[0]!.missing).toBe(1);
    expect(tree[0]!.children.map((c) => c.id)).toEqual(['t1']);
    expect(tree[0]!.children[0]!.children.map((c) => c.id)).toEqual(['m1', 'm2']);
  });
  it('survives evidence cycles', () => {
    const cyclic = [
      memory('a', { kind: 'thought', evidence: ['b'] }),
      memory('b', { kind: 'thought', evidence: ['a'] }),
      memory('c', { kind: 'thought', evidence: ['a'] }),
    ];
    const tree = reflectionTree(cyclic);
    expect(tree.map((n) => n.id)).toEqual(['c']);
    expect(JSON.stringify(tree).length).toBeLessThan(2000);
  });
});

describe('charts', () => {
  const fns = Array.from({ length: MAX_FN_SERIES + 2 }, (_, i) => `fn${i}`);
  const stats: RunStats = {
    perFunction: [],
    perHour: [0, 1].map((hour) => ({
      hour,
      clock: `Monday, 0${7 + hour}:00`,
      tokensByFn: Object.fromEntries(fns.map((fn, i) => [fn, (fns.length - i) * 10 + hour])),
      msByFn: { plan: 100 },
      conversations: hour * 2,
    })),
    relationships: {
      agents: [
        { id: 'a', name: 'A' },
        { id: 'b', name: 'B' },
      ],
      conversations: [
        [0, 4],
        [4, 0],
      ],
    },
  };
  it('keeps the biggest functions as lines and merges the rest into "other"', () => {
    const set = perFunctionSeries(stats, 'tokensByFn');
    expect(set.series).toHaveLength(MAX_FN_SERIES);
    expect(set.series[0]!.name).toBe('fn0');
    expect(set.series.at(-1)!.name).toBe('other');
    const total = (h: number) => set.series.reduce((s, x) => s + x.values[h]!, 0);
    const expected = (h: number) =>
      Object.values(stats.perHour[h]!.tokensByFn).reduce((s, v) => s + v, 0);
    expect(total(0)).toBe(expected(0));
    expect(total(1)).toBe(expected(1));
    expect(set.labels).toEqual(['07:00', '08:00']);
  });
  it('counts conversations per hour and scales the heatmap to the busiest pair', () => {
    expect(conversationSeries(stats).series[0]!.values).toEqual([0, 2]);
    expect(heatmapCells(stats).map((c) => c.t)).toEqual([0, 1, 1, 0]);
  });
});

describe('map geometry', () => {
  it('glides sprites between tiles and jumps on long moves', () => {
    const tweens = new SpriteTweens();
    tweens.update([agent('a', 0, 0)], 1000);
    tweens.update([agent('a', 1, 0)], 1500);
    expect(tweens.at('a', 1500).x).toBe(0);
    const mid = tweens.at('a', 1600).x;
    expect(mid).toBeGreaterThan(0);
    expect(mid).toBeLessThan(1);
    expect(tweens.moving(1600)).toBe(true);
    expect(tweens.at('a', 5000).x).toBe(1);
    expect(tweens.moving(5000)).toBe(false);
    tweens.update([agent('a', 1 + TWEEN_MAX_TILES + 1, 0)], 6000);
    expect(tweens.at('a', 6000).x).toBe(1 + TWEEN_MAX_TILES + 1);
  });
  it('finds objects by tile and places their badge on them', () => {
    const town = smallTown();
    const places = objectPlaces(town.map, town.tree);
    const bed = [...places.values()][0]!;
    expect(bed.address).toMatch(/:Mill:Loft:bed$/);
    expect([bed.x0, bed.y0, bed.cx, bed.cy]).toEqual([0, 0, 0.5, 0.5]);
    expect(objectAt(town.map, town.tree, 0, 0)).toBe(bed.address);
    expect(objectAt(town.map, town.tree, 1, 0)).toBeNull();
    expect(objectAt(town.map, town.tree, -1, 0)).toBeNull();
  });
  it('hits the topmost agent under a point, head included', () => {
    const frame = { agents: [agent('a', 2, 2), agent('b', 2, 2)] } as never;
    const pos = (id: string) => ({ a: { x: 2, y: 2 }, b: { x: 2, y: 2 } })[id]!;
    expect(agentAtPoint(frame, pos, 32, 70, 50)).toBe('b');
    expect(agentAtPoint(frame, pos, 32, 70, 10)).toBeNull();
    expect(agentAtPoint(null, pos, 32, 70, 70)).toBeNull();
  });
});

describe('timeline and bubbles', () => {
  it('forks from the latest snapshot at or before the step', () => {
    expect(forkPoint([0, 5, 10], 7)).toBe(5);
    expect(forkPoint([0, 5, 10], 10)).toBe(10);
    expect(forkPoint([5], 3)).toBeNull();
  });
  it('wraps speech into at most three lines', () => {
    expect(wrapBubble('Hello there')).toEqual(['Hello there']);
    const long = wrapBubble('word '.repeat(60));
    expect(long).toHaveLength(3);
    expect(long[2]!.endsWith('…')).toBe(true);
  });
});

describe('placeBubble', () => {
  const view = { viewW: 800, viewH: 600, width: 200, height: 40 };
  it('sits above the speaker, tail on them, when there is room', () => {
    expect(placeBubble({ ...view, anchorX: 400, top: 300, bottom: 340 })).toEqual({
      x: 388,
      y: 254,
      tailX: 400,
      below: false,
    });
  });
  it('stays whole at the right and left edges, the tail still on the speaker', () => {
    const right = placeBubble({ ...view, anchorX: 790, top: 300, bottom: 340 });
    expect(right.x + view.width).toBeLessThanOrEqual(view.viewW - 4);
    expect(right).toMatchObject({ x: 596, tailX: 788 });
    const left = placeBubble({ ...view, anchorX: 2, top: 300, bottom: 340 });
    expect(left.x).toBe(4);
    expect(left.tailX).toBe(12);
  });
  it('goes under the speaker at the top of the map', () => {
    const top = placeBubble({ ...view, anchorX: 400, top: 20, bottom: 60 });
    expect(top).toMatchObject({ below: true, y: 66 });
  });
});
