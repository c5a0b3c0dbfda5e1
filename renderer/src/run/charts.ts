/** Shapes runs.stats into chart series (pure, so the numbers are tested without a canvas). */
import type { RunStats } from '../../../common/api/runs';

export interface SeriesSet {
  /** x values: game hour index. */
  x: number[];
  /** Hour labels for the axis ("07:00"). */
  labels: string[];
  series: { name: string; values: number[] }[];
}

/** Most functions drawn as their own line; the rest are summed into "other". */
export const MAX_FN_SERIES = 7;

/**
 * One series per cognitive function over game hours, for `field` (tokens or ms), the largest
 * functions first; beyond MAX_FN_SERIES the smallest are merged into "other".
 */
export function perFunctionSeries(stats: RunStats, field: 'tokensByFn' | 'msByFn'): SeriesSet {
  const hours = stats.perHour;
  const totals = new Map<string, number>();
  for (const h of hours)
    for (const [fn, v] of Object.entries(h[field])) totals.set(fn, (totals.get(fn) ?? 0) + v);
  const ranked = [...totals.entries()].sort((a, b) => b[1] - a[1]).map(([fn]) => fn);
  const own = ranked.length > MAX_FN_SERIES ? ranked.slice(0, MAX_FN_SERIES - 1) : ranked;
  const rest = ranked.slice(own.length);
  const series = own.map((fn) => ({ name: fn, values: hours.map((h) => h[field][fn] ?? 0) }));
  if (rest.length)
    series.push({
      name: 'other',
      values: hours.map((h) => rest.reduce((sum, fn) => sum + (h[field][fn] ?? 0), 0)),
    });
  return {
    x: hours.map((h) => h.hour),
    labels: hours.map((h) => h.clock.slice(-5)),
    series,
  };
}

/** Conversations started per game hour. */
export function conversationSeries(stats: RunStats): SeriesSet {
  return {
    x: stats.perHour.map((h) => h.hour),
    labels: stats.perHour.map((h) => h.clock.slice(-5)),
    series: [{ name: 'conversations', values: stats.perHour.map((h) => h.conversations) }],
  };
}

/** The heatmap's cells with a 0–1 intensity (count over the largest count). */
export function heatmapCells(
  stats: RunStats,
): { row: number; col: number; count: number; t: number }[] {
  const m = stats.relationships.conversations;
  const max = Math.max(1, ...m.flat());
  const out: { row: number; col: number; count: number; t: number }[] = [];
  m.forEach((row, r) =>
    row.forEach((count, c) => out.push({ row: r, col: c, count, t: count / max })),
  );
  return out;
}

/** A distinct, readable colour per series index on the dark theme. */
export const SERIES_COLORS = [
  '#7c9cff',
  '#5fd49a',
  '#f2c14e',
  '#ff8a65',
  '#c792ea',
  '#4dd0e1',
  '#f48fb1',
  '#a2a8b1',
];
