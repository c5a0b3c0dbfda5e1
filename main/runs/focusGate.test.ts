import { describe, expect, it } from 'vitest';
import { FocusGate, GRACE_MS } from './focusGate';

/** A call of `agent` through `gate` taking `ms`; `log` gets its start and end. */
async function call(gate: FocusGate, log: string[], agent: string, ms = 5): Promise<void> {
  const gated = await gate.enter(agent);
  log.push(`${agent}+`);
  await new Promise((resolve) => setTimeout(resolve, ms));
  log.push(`${agent}-`);
  if (gated) gate.leave(agent);
}

describe('FocusGate: one person planned first', () => {
  it('answers one call at a time, and the person just answered keeps the model for their next call', async () => {
    const gate = new FocusGate(() => true);
    const log: string[] = [];
    const planOf = async (agent: string) => {
      await call(gate, log, agent); // the wake-up hour
      await new Promise((resolve) => setTimeout(resolve, 20)); // handling the answer
      await call(gate, log, agent); // the day's plan
    };
    await Promise.all([planOf('delphine'), planOf('tobias'), planOf('agnes')]);
    expect(log).toEqual([
      'delphine+',
      'delphine-',
      'delphine+',
      'delphine-',
      'tobias+',
      'tobias-',
      'tobias+',
      'tobias-',
      'agnes+',
      'agnes-',
      'agnes+',
      'agnes-',
    ]);
  });

  it('gives the model to the next person when the one answered does not call again in time', async () => {
    const gate = new FocusGate(() => true);
    const log: string[] = [];
    const started = performance.now();
    await Promise.all([call(gate, log, 'delphine'), call(gate, log, 'tobias')]);
    expect(log).toEqual(['delphine+', 'delphine-', 'tobias+', 'tobias-']);
    expect(performance.now() - started).toBeGreaterThanOrEqual(GRACE_MS);
  });

  it('lets calls pass together once everyone has planned, and frees those waiting then', async () => {
    let focused = true;
    const gate = new FocusGate(() => focused);
    const log: string[] = [];
    const first = call(gate, log, 'delphine', 30);
    const waiting = call(gate, log, 'tobias');
    focused = false; // the last plan is made while Delphine's call runs
    await Promise.all([first, waiting]);
    expect(log.slice(0, 3)).toEqual(['delphine+', 'delphine-', 'tobias+']);
    log.length = 0;
    await Promise.all([call(gate, log, 'tobias'), call(gate, log, 'agnes')]);
    expect(log.slice(0, 2)).toEqual(['tobias+', 'agnes+']);
  });
});
