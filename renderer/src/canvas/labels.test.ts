import { describe, expect, it } from 'vitest';
import type { EnvTree, TownMap } from '../../../common/scenario/schema';
import {
  fitText,
  keepApart,
  layoutLabels,
  NAME_MAX_PX,
  TAG_POINTER_PX,
  zoneLabelCandidates,
  type LabelCandidate,
} from './labels';
import { indexTree, zoneShapes } from './zones';
import willowMap from '../../../templates/willow-bend/map.json';
import willowTree from '../../../templates/willow-bend/tree.json';

/** A fixed-pitch stand-in for the canvas's text measure: 0.6 × size per character. */
const measure = (text: string, size: number) => text.length * size * 0.6;

function candidate(over: Partial<LabelCandidate> & { key: string }): LabelCandidate {
  return {
    text: over.key,
    size: 10,
    x: 0,
    y: 0,
    anchor: 'centre',
    padding: 0,
    maxWidth: Infinity,
    maxScreenPx: NAME_MAX_PX,
    priority: 0,
    ...over,
  };
}

describe('map label layout', () => {
  it('shortens a name longer than its zone with "…", and hides it when not even a stub fits', () => {
    const m = (t: string) => measure(t, 10);
    expect(fitText('Fernhall Dormitory', 200, m)).toBe('Fernhall Dormitory');
    expect(fitText('Fernhall Dormitory', 60, m)).toBe('Fernhall…');
    expect(fitText('Fernhall Dormitory', 12, m)).toBeNull();
  });

  it('keeps the more important of two labels that would overlap and hides the other', () => {
    const a = candidate({ key: 'sector-big', x: 100, y: 100, priority: 0 });
    const b = candidate({ key: 'sector-small', x: 120, y: 100, priority: 1 });
    expect([...layoutLabels([b, a], 1, measure).keys()]).toEqual(['sector-big']);
    // Zoomed in far enough, both fit side by side.
    expect([...layoutLabels([a, b], 8, measure).keys()].sort()).toEqual([
      'sector-big',
      'sector-small',
    ]);
  });

  it('never lets two shown labels of Willow Bend overlap, at any zoom from 10% to 200%', () => {
    const map = willowMap as unknown as TownMap;
    const tree = willowTree as unknown as EnvTree;
    const index = indexTree({ ...tree });
    const shapes = (kind: keyof TownMap['zones']) =>
      zoneShapes(map.zones[kind], map.width, map.height);
    const candidates = zoneLabelCandidates({
      sectors: shapes('sector'),
      arenas: shapes('arena'),
      objects: shapes('object'),
      spawns: shapes('spawn'),
      tileSize: map.tileSize,
      name: (kind, zone) =>
        kind === 'sector'
          ? index.sectors.get(zone)!.name
          : kind === 'arena'
            ? index.arenas.get(zone)!.arena.name
            : kind === 'object'
              ? index.objects.get(zone)!.object.name
              : `spawn ${zone}`,
    });
    let shownAtLow = 0;
    const overlapping: string[] = [];
    for (let zoom = 0.1; zoom <= 2; zoom += 0.05) {
      const shown = layoutLabels(candidates, zoom, measure);
      if (zoom < 0.3) shownAtLow = Math.max(shownAtLow, shown.size);
      const boxes = candidates
        .filter((c) => shown.has(c.key))
        .map((c) => {
          const w = measure(shown.get(c.key)!, c.size) + 2 * c.padding;
          const h = c.size * 1.2 + 2 * c.padding;
          const y0 =
            c.anchor === 'above'
              ? c.y * zoom - h - TAG_POINTER_PX
              : c.anchor === 'centre'
                ? c.y * zoom - h / 2
                : c.y * zoom;
          return { key: c.key, x0: c.x * zoom - w / 2, x1: c.x * zoom + w / 2, y0, y1: y0 + h };
        });
      for (const a of boxes)
        for (const b of boxes)
          if (a !== b && a.x0 < b.x1 && b.x0 < a.x1 && a.y0 < b.y1 && b.y0 < a.y1)
            overlapping.push(`${a.key} covers ${b.key} at ${Math.round(zoom * 100)}%`);
    }
    expect(overlapping).toEqual([]);
    // Zoomed out, the town still names some of its places (shortened if need be).
    expect(shownAtLow).toBeGreaterThanOrEqual(3);
  });
});

describe('keepApart (the run map’s name tags and object badges)', () => {
  it('keeps the first of two tags that would cover each other, and every tag clear of them', () => {
    // Three people in one kitchen: Agnes (picked) and Tobias stand a tile apart, their tags
    // overlap; the kettle's badge sits above them, clear.
    const kept = keepApart([
      { key: 'agent agnes', x0: 100, y0: 200, x1: 150, y1: 214 },
      { key: 'object kettle', x0: 90, y0: 150, x1: 170, y1: 165 },
      { key: 'agent tobias', x0: 130, y0: 202, x1: 185, y1: 216 },
      { key: 'agent marisol', x0: 300, y0: 200, x1: 350, y1: 214 },
    ]);
    expect([...kept]).toEqual(['agent agnes', 'object kettle', 'agent marisol']);
  });
});
