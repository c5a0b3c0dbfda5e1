import { describe, expect, it } from 'vitest';
import {
  BASELINE_CONDITIONS,
  COST_LAYER_CONDITIONS,
  runConditionsSchema,
} from '../../../common/runs/conditions';
import { PAPER_EXACT } from '../../../common/runs/guards';
import { bytes, compact, conditionsLabel, duration, headEmoji, minuteLabel } from './format';

describe('format', () => {
  it('keeps only emoji for the head label, at most two', () => {
    expect(headEmoji('☕')).toBe('☕');
    expect(headEmoji('👩‍🍳🍳🔥')).toBe('👩‍🍳🍳');
    expect(headEmoji('tSTZ')).toBe('');
    expect(headEmoji('a📖b')).toBe('📖');
  });
  it('writes figures compactly', () => {
    expect(compact(950)).toBe('950');
    expect(compact(4_550_000)).toBe('4.55M');
    expect(compact(12_345)).toBe('12k');
    expect(duration(3725)).toBe('1 h 02 min');
    expect(duration(null)).toBe('–');
    expect(minuteLabel(7 * 60 + 5)).toBe('07:05');
    expect(bytes(91_000_000)).toBe('91 MB');
    expect(bytes(2_100_000_000)).toBe('2.1 GB');
  });

  it("names a run's conditions: the cost-layer parts on, and any ablation", () => {
    expect(conditionsLabel(BASELINE_CONDITIONS)).toBe('Cost layer off');
    expect(conditionsLabel(COST_LAYER_CONDITIONS)).toBe(
      'Cost layer: lifestyle policy, social memory, mind wandering',
    );
    expect(
      conditionsLabel(
        runConditionsSchema.parse({
          behaviourAblation: 'no-reflection',
          costLayer: { socialMemory: true },
        }),
      ),
    ).toBe('Cost layer: social memory · no reflection (run)');
    // Guards are named when any is off (all on is every run's default and says nothing new).
    expect(conditionsLabel(runConditionsSchema.parse({ guards: { echoGuard: false } }))).toBe(
      'Cost layer off · Guards off: echo',
    );
    expect(conditionsLabel(runConditionsSchema.parse({ guards: PAPER_EXACT }))).toBe(
      'Cost layer off · Paper-exact (no guards)',
    );
  });
});
