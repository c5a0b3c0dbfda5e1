/**
 * The inspector's retrieval score table stays legible in a narrow panel (issue 25): jsdom lays
 * nothing out, so this holds the stylesheet to what keeps it so — a fixed table layout, score
 * columns of a fixed width (room for "total" and "0.00") in tabular numerals that never wrap,
 * and a memory column that takes the rest and wraps.
 */
// A test reads the stylesheet's source under vitest (Node); vitest empties CSS imports, `?raw`
// included, so the renderer's no-Node rule is waived for this one read.
// eslint-disable-next-line no-restricted-imports
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const css = readFileSync(new URL('./run.css', import.meta.url), 'utf8');

/** The declarations of the first rule whose selector list is exactly `selector`. */
function rule(selector: string): Record<string, string> {
  const escaped = selector.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/\s+/g, '\\s*');
  const match = new RegExp(`(?:^|\\})\\s*${escaped}\\s*\\{([^}]*)\\}`, 'm').exec(css);
  expect(match, `a rule for ${selector}`).not.toBeNull();
  return Object.fromEntries(
    match![1]!
      .split(';')
      .map((d) => d.trim())
      .filter(Boolean)
      .map((d) => [d.slice(0, d.indexOf(':')).trim(), d.slice(d.indexOf(':') + 1).trim()]),
  );
}

describe('retrieval score table CSS', () => {
  it('lays the table out fixed', () => {
    expect(rule('.scores')['table-layout']).toBe('fixed');
  });

  it('gives each score column at least 4 characters, on one line, in tabular numerals', () => {
    const numeric = rule('.scores th:not(:first-child),\n.scores td:not(:first-child)');
    const width = /^([\d.]+)em$/.exec(numeric.width ?? '');
    expect(width, 'a width in em').not.toBeNull();
    // "total" in 600-weight 12px text needs about 3em; 4em leaves room for the cell padding.
    expect(Number(width![1])).toBeGreaterThanOrEqual(4);
    expect(numeric['white-space']).toBe('nowrap');
    expect(numeric['font-variant-numeric']).toBe('tabular-nums');
    expect(rule('.scores th')['white-space']).toBe('nowrap');
  });

  it('lets the memory column take the rest and wrap', () => {
    const memory = rule('.scores th:first-child,\n.scores td:first-child');
    expect(memory.width).toBeUndefined();
    expect(memory['overflow-wrap']).toBe('anywhere');
  });
});
