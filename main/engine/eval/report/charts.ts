/**
 * Static SVG charts for the experiment report, drawn with d3-scale (positions, colours) and
 * d3-shape (line paths) into strings — no DOM, no script, no network, so the report opens
 * anywhere and stays self-contained. Every chart has a <title> per mark for hover values.
 */
import { scaleBand, scaleLinear, scalePoint } from 'd3-scale';
import { line } from 'd3-shape';

/** Escapes text for HTML and SVG. */
export function esc(text: unknown): string {
  return String(text)
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&#39;');
}

/** A colour per series, from a fixed palette (colour-blind-safe Okabe–Ito). */
export const PALETTE = [
  '#0072B2',
  '#E69F00',
  '#009E73',
  '#CC79A7',
  '#56B4E9',
  '#D55E00',
  '#F0E442',
  '#000000',
];

function fmt(n: number): string {
  if (!Number.isFinite(n)) return '–';
  if (Math.abs(n) >= 1000) return Math.round(n).toLocaleString('en-US');
  if (Math.abs(n) >= 10) return n.toFixed(0);
  return n.toFixed(2).replace(/\.?0+$/, '') || '0';
}

function legend(series: readonly string[], x: number, y: number): string {
  return series
    .map(
      (name, i) =>
        `<g transform="translate(${x},${y + i * 16})"><rect width="10" height="10" fill="${PALETTE[i % PALETTE.length]}"/>` +
        `<text x="14" y="9" font-size="11">${esc(name)}</text></g>`,
    )
    .join('');
}

/**
 * Grouped horizontal bars: one group per category (e.g. cognitive function), one bar per series
 * (condition). `values[series][category]`.
 */
export function groupedBars(args: {
  categories: readonly string[];
  series: readonly string[];
  values: readonly (readonly number[])[];
  unit: string;
}): string {
  const { categories, series, values } = args;
  const left = 130;
  const legendWidth = 190;
  const width = 720;
  const rowHeight = Math.max(14, series.length * 10 + 6);
  const height = 30 + categories.length * rowHeight + 20;
  const max = Math.max(1e-9, ...values.flat());
  const x = scaleLinear()
    .domain([0, max])
    .nice()
    .range([left, width - legendWidth]);
  const y = scaleBand<string>()
    .domain([...categories])
    .range([20, height - 20])
    .paddingInner(0.2);
  const inner = scaleBand<string>()
    .domain([...series])
    .range([0, y.bandwidth()]);
  const bars = categories
    .map((cat, ci) =>
      series
        .map((s, si) => {
          const v = values[si]?.[ci] ?? 0;
          const y0 = (y(cat) ?? 0) + (inner(s) ?? 0);
          return (
            `<rect x="${left}" y="${y0.toFixed(1)}" width="${Math.max(0, x(v) - left).toFixed(1)}" ` +
            `height="${Math.max(1, inner.bandwidth() - 1).toFixed(1)}" fill="${PALETTE[si % PALETTE.length]}">` +
            `<title>${esc(`${s} · ${cat}: ${fmt(v)} ${args.unit}`)}</title></rect>`
          );
        })
        .join(''),
    )
    .join('');
  const labels = categories
    .map(
      (cat) =>
        `<text x="${left - 6}" y="${((y(cat) ?? 0) + y.bandwidth() / 2 + 4).toFixed(1)}" text-anchor="end" font-size="11">${esc(cat)}</text>`,
    )
    .join('');
  const tickLabel = x.tickFormat(5, '~s');
  const ticks = x
    .ticks(5)
    .map(
      (t) =>
        `<g transform="translate(${x(t).toFixed(1)},0)"><line y1="16" y2="${height - 20}" stroke="#ddd"/>` +
        `<text y="${height - 6}" text-anchor="middle" font-size="10">${tickLabel(t)}</text></g>`,
    )
    .join('');
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}" role="img">` +
    `${ticks}${bars}${labels}` +
    `<text x="${width - legendWidth}" y="12" font-size="10" text-anchor="end">${esc(args.unit)}</text>` +
    `${legend(series, width - legendWidth + 14, 20)}</svg>`
  );
}

/** Lines over x (game time, hours): `series[i].points` as [x, y] with y in [0, 1]. */
export function lineChart(args: {
  series: readonly { name: string; points: readonly [number, number][]; dashed?: boolean }[];
  xLabel: string;
  yLabel: string;
}): string {
  const width = 560;
  const height = 240;
  const m = { left: 44, right: 170, top: 14, bottom: 36 };
  const xs = args.series.flatMap((s) => s.points.map((p) => p[0]));
  const xMax = Math.max(1e-9, ...xs);
  const x = scaleLinear()
    .domain([0, xMax])
    .range([m.left, width - m.right]);
  const y = scaleLinear()
    .domain([0, 1])
    .range([height - m.bottom, m.top]);
  const path = line<[number, number]>()
    .x((p) => x(p[0]))
    .y((p) => y(p[1]));
  const lines = args.series
    .map((s, i) => {
      const colour = PALETTE[Math.floor(i / 2) % PALETTE.length];
      const dots = s.points
        .map(
          (p) =>
            `<circle cx="${x(p[0]).toFixed(1)}" cy="${y(p[1]).toFixed(1)}" r="3" fill="${colour}">` +
            `<title>${esc(`${s.name}: ${(p[1] * 100).toFixed(0)}% at ${fmt(p[0])} h`)}</title></circle>`,
        )
        .join('');
      return (
        `<path d="${path(s.points as [number, number][]) ?? ''}" fill="none" stroke="${colour}" stroke-width="2"` +
        `${s.dashed ? ' stroke-dasharray="5 3"' : ''}/>${dots}`
      );
    })
    .join('');
  const xLabel = x.tickFormat(5, '~g');
  const xTicks = x
    .ticks(5)
    .map(
      (t) =>
        `<text x="${x(t).toFixed(1)}" y="${height - m.bottom + 14}" text-anchor="middle" font-size="10">${xLabel(t)}</text>`,
    )
    .join('');
  const yTicks = [0, 0.25, 0.5, 0.75, 1]
    .map(
      (t) =>
        `<g><line x1="${m.left}" x2="${width - m.right}" y1="${y(t)}" y2="${y(t)}" stroke="#eee"/>` +
        `<text x="${m.left - 6}" y="${y(t) + 3}" text-anchor="end" font-size="10">${t * 100}%</text></g>`,
    )
    .join('');
  const key = args.series
    .map((s, i) => {
      const colour = PALETTE[Math.floor(i / 2) % PALETTE.length];
      return (
        `<g transform="translate(${width - m.right + 12},${m.top + i * 16})">` +
        `<line x2="14" y1="5" y2="5" stroke="${colour}" stroke-width="2"${s.dashed ? ' stroke-dasharray="5 3"' : ''}/>` +
        `<text x="18" y="9" font-size="11">${esc(s.name)}</text></g>`
      );
    })
    .join('');
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}" role="img">` +
    `${yTicks}${xTicks}${lines}${key}` +
    `<text x="${(m.left + width - m.right) / 2}" y="${height - 4}" text-anchor="middle" font-size="11">${esc(args.xLabel)}</text>` +
    `<text transform="translate(11,${(m.top + height - m.bottom) / 2}) rotate(-90)" text-anchor="middle" font-size="11">${esc(args.yLabel)}</text>` +
    `</svg>`
  );
}

/** A square matrix of fractions in [0, 1] (null cells drawn grey), rows asking about columns. */
export function heatmap(args: {
  labels: readonly string[];
  values: readonly (readonly (number | null)[])[];
  title: string;
}): string {
  const n = args.labels.length;
  const cell = 34;
  const longest = Math.max(0, ...args.labels.map((l) => l.length));
  // Room for the rotated column labels (about 6 px per character at 11 px).
  const left = Math.min(200, 12 + longest * 6);
  const top = Math.min(160, 16 + longest * 4.6);
  const size = top + n * cell + 8;
  const width = left + n * cell + Math.min(140, longest * 4);
  const colour = scaleLinear<string>().domain([0, 1]).range(['#f3f4f6', '#0b5394']);
  const band = scalePoint<number>()
    .domain(args.labels.map((_, i) => i))
    .range([0, (n - 1) * cell]);
  const cells = args.values
    .map((row, i) =>
      row
        .map((v, j) => {
          const xPos = left + (band(j) ?? 0);
          const yPos = top + (band(i) ?? 0);
          const text = v === null ? '' : `${Math.round(v * 100)}%`;
          return (
            `<rect x="${xPos}" y="${yPos}" width="${cell - 2}" height="${cell - 2}" fill="${v === null ? '#ccc' : colour(v)}">` +
            `<title>${esc(`${args.labels[i]} knows ${args.labels[j]}: ${v === null ? '—' : text}`)}</title></rect>` +
            (v === null
              ? ''
              : `<text x="${xPos + cell / 2 - 1}" y="${yPos + cell / 2 + 3}" text-anchor="middle" font-size="9" fill="${v > 0.5 ? '#fff' : '#111'}">${text}</text>`)
          );
        })
        .join(''),
    )
    .join('');
  const rowLabels = args.labels
    .map(
      (l, i) =>
        `<text x="${left - 6}" y="${top + (band(i) ?? 0) + cell / 2 + 3}" text-anchor="end" font-size="11">${esc(l)}</text>`,
    )
    .join('');
  const colLabels = args.labels
    .map(
      (l, j) =>
        `<text transform="translate(${left + (band(j) ?? 0) + cell / 2},${top - 6}) rotate(-50)" font-size="11">${esc(l)}</text>`,
    )
    .join('');
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${width} ${size}" width="${width}" height="${size}" role="img">` +
    `<title>${esc(args.title)}</title>${cells}${rowLabels}${colLabels}</svg>`
  );
}
