import { describe, expect, it } from 'vitest';
import { ALL_GUARDS_ON, PAPER_EXACT } from '../../../common/runs/guards';
import { buildConditions, cellKey } from './conditions';

describe('Lab conditions: small-model guards', () => {
  const picked = new Set([
    cellKey({ ablation: 'full', costLayer: false }),
    cellKey({ ablation: 'full', costLayer: true }),
  ]);

  it('runs the picked cells with every guard on unless told otherwise', () => {
    const design = buildConditions(picked, ['smollm2.gguf'])!;
    expect(design.conditions.map((c) => [c.name, c.guards])).toEqual([
      ['full', ALL_GUARDS_ON],
      ['full-cost-layer', ALL_GUARDS_ON],
    ]);
  });

  it('paper-exact turns every guard off; both runs each cell each way, the baseline with guards on', () => {
    const exact = buildConditions(picked, ['smollm2.gguf'], 'paper-exact')!;
    expect(exact.conditions.map((c) => [c.name, c.guards])).toEqual([
      ['full-paper-exact', PAPER_EXACT],
      ['full-cost-layer-paper-exact', PAPER_EXACT],
    ]);
    const both = buildConditions(picked, ['smollm2.gguf', 'qwen.gguf'], 'both')!;
    expect(both.conditions.map((c) => c.name)).toEqual([
      'full',
      'full-paper-exact',
      'full-cost-layer',
      'full-cost-layer-paper-exact',
      'full-qwen',
      'full-paper-exact-qwen',
      'full-cost-layer-qwen',
      'full-cost-layer-paper-exact-qwen',
    ]);
    expect(both.baseline).toBe('full');
  });

  it('keeps a long condition name within a folder name’s 64 characters', () => {
    const longest = new Set([
      cellKey({ ablation: 'no-observation-reflection-planning', costLayer: true }),
    ]);
    const design = buildConditions(
      longest,
      ['a.gguf', 'a-very-long-model-file-name-q4_k_m.gguf'],
      'both',
    )!;
    for (const c of design.conditions) {
      expect(c.name.length, c.name).toBeLessThanOrEqual(64);
      expect(c.name).toMatch(/^[A-Za-z0-9][A-Za-z0-9._-]*[A-Za-z0-9]$/);
    }
    expect(new Set(design.conditions.map((c) => c.name)).size).toBe(design.conditions.length);
  });
});
