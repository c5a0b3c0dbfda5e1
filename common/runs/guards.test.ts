import { describe, expect, it } from 'vitest';
import { runConditionsSchema, storedRunConditions } from './conditions';
import {
  ALL_GUARDS_ON,
  applyGuardsSpec,
  GUARD_IDS,
  GUARDS,
  guardChangesSchema,
  PAPER_EXACT,
} from './guards';

describe('small-model guards in the run conditions', () => {
  it('a run stored before guards existed reads as every guard on', () => {
    // A run.json of the last release: no guards field (and one older still, ablation only).
    const old = { ablation: 'full', behaviourAblation: 'full', costLayer: { socialMemory: true } };
    expect(runConditionsSchema.parse(storedRunConditions(old)).guards).toEqual(ALL_GUARDS_ON);
    const older = { ablation: 'no-reflection' };
    expect(runConditionsSchema.parse(storedRunConditions(older)).guards).toEqual(ALL_GUARDS_ON);
  });

  it('round-trips through JSON with some guards off', () => {
    const conditions = runConditionsSchema.parse({
      guards: { echoGuard: false, workedExamples: false },
    });
    expect(conditions.guards).toEqual({
      ...ALL_GUARDS_ON,
      echoGuard: false,
      workedExamples: false,
    });
    expect(runConditionsSchema.parse(JSON.parse(JSON.stringify(conditions)))).toEqual(conditions);
    const exact = runConditionsSchema.parse({ guards: PAPER_EXACT });
    expect(runConditionsSchema.parse(JSON.parse(JSON.stringify(exact))).guards).toEqual(
      PAPER_EXACT,
    );
  });

  it('refuses a guard value that is not a switch, naming the field', () => {
    const r = runConditionsSchema.safeParse({ guards: { echoGuard: 'no' } });
    expect(r.success).toBe(false);
    expect(r.error!.issues[0].path).toEqual(['guards', 'echoGuard']);
  });

  it('a fork’s changes name only what changes (the other guards are not filled in as on)', () => {
    expect(guardChangesSchema.parse({ drySampling: true })).toEqual({ drySampling: true });
  });

  it('every switch is listed with its own command-line name; the spec words apply left to right', () => {
    expect(GUARDS.map((g) => g.id)).toEqual([...GUARD_IDS]);
    expect(new Set(GUARDS.map((g) => g.cli)).size).toBe(GUARDS.length);
    expect(applyGuardsSpec(ALL_GUARDS_ON, 'paper-exact')).toEqual(PAPER_EXACT);
    expect(applyGuardsSpec(PAPER_EXACT, 'on,no-wake')).toEqual({
      ...ALL_GUARDS_ON,
      wakeWindow: false,
    });
    expect(() => applyGuardsSpec(ALL_GUARDS_ON, 'no-naps')).toThrow(/got "no-naps"/);
    expect(() => applyGuardsSpec(ALL_GUARDS_ON, ' , ')).toThrow(/--guards expects/);
  });
});
