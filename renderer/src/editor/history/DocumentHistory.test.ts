import { describe, expect, it } from 'vitest';
import { createEmptyScenario } from '../../../../common/scenario/create';
import type { Scenario } from '../../../../common/scenario/schema';
import { DocumentHistory, MERGE_WINDOW_MS } from './DocumentHistory';
import { applyPaths, changedPaths } from './docDiff';

const base = createEmptyScenario('h', 'H', 4, 3);
const named = (doc: Scenario, name: string): Scenario => ({ ...doc, name });

describe('docDiff', () => {
  it('names exactly the fields whose references changed', () => {
    const collision = base.map.collision.slice();
    const next = { ...base, map: { ...base.map, collision } };
    expect(changedPaths(base, next)).toEqual(['map.collision']);
    const zoned = { ...base, map: { ...base.map, zones: { ...base.map.zones, arena: [] } } };
    expect(changedPaths(base, zoned)).toEqual(['map.zones.arena']);
    expect(applyPaths(base, zoned, ['map.zones.arena']).map.zones.arena).toBe(
      zoned.map.zones.arena,
    );
    expect(applyPaths(base, zoned, ['map.zones.arena']).map.collision).toBe(base.map.collision);
  });
});

describe('DocumentHistory', () => {
  it('merges a burst of same-label writes into one step, but not across the window', () => {
    const h = new DocumentHistory();
    const a = named(base, 'a');
    const ab = named(base, 'ab');
    const abc = named(base, 'abc');
    h.record('rename', base, a, 1000);
    h.record('rename', a, ab, 1500);
    h.record('rename', ab, abc, 1500 + MERGE_WINDOW_MS + 1);
    expect(h.getUndoLabels()).toEqual(['rename', 'rename']);
    expect(h.undo(abc)!.name).toBe('ab');
    expect(h.undo(ab)!.name).toBe('H');
  });

  it('a no-op gesture leaves no step and keeps redo', () => {
    const h = new DocumentHistory();
    const a = named(base, 'a');
    h.record('x', base, a);
    h.undo(a);
    h.mark('paint', base);
    h.squashToMark(base);
    expect(h.getCanRedo()).toBe(true);
    expect(h.getCanUndo()).toBe(false);
  });

  it('bailing restores the marked document and keeps redo', () => {
    const h = new DocumentHistory();
    const a = named(base, 'a');
    h.record('x', base, a);
    h.undo(a);
    h.mark('paint', base);
    const mid = { ...named(base, 'mid'), description: 'changed' };
    expect(h.bailToMark(mid)).toEqual(base);
    expect(h.getCanRedo()).toBe(true);
  });
});
