/**
 * Writes an experiment's report: `report.html` (self-contained: inline CSS and SVG, no script,
 * no external links), `results.csv` (one long table, one value per row) and `results.json`
 * (the summary plus every cell's measurements). All three come from the same summary
 * (./summary.ts), so their numbers agree.
 */
import { writeFileAtomic } from '../files';
import path from 'node:path';
import { DIFFUSION_CLASSES, factQuestion } from '../diffusion';
import type { ExperimentResult } from '../experiment';
import { esc, groupedBars, heatmap, lineChart } from './charts';
import { summarise, tokensOf, type ExperimentSummary } from './summary';

/** Numbers as the report prints them: integers with separators, small values with 2 decimals. */
export function num(n: number | null | undefined, digits = 0): string {
  if (n === null || n === undefined || !Number.isFinite(n)) return '–';
  return n.toLocaleString('en-US', {
    minimumFractionDigits: digits,
    maximumFractionDigits: digits,
  });
}

function pct(n: number): string {
  return `${(n * 100).toFixed(0)}%`;
}

function ratio(r: number | null): string {
  return r === null ? '–' : `${r.toFixed(2)}×`;
}

/** One CSV field, quoted when it has to be. */
function csvField(v: unknown): string {
  const s = typeof v === 'number' ? String(v) : String(v ?? '');
  return /[",\n\r]/.test(s) ? `"${s.replaceAll('"', '""')}"` : s;
}

/** The long-format CSV: section, condition, seed, subject, metric, value. */
export function resultsCsv(result: ExperimentResult, summary: ExperimentSummary): string {
  const rows: unknown[][] = [['section', 'condition', 'seed', 'subject', 'metric', 'value']];
  const costKeys = ['calls', 'promptTokens', 'cachedTokens', 'completionTokens', 'ms'] as const;
  for (const cell of result.cells) {
    const c = cell.evaluation.cost;
    const base = [cell.condition, cell.seed];
    for (const k of costKeys) rows.push(['cost.run', ...base, 'total', k, c.total[k]]);
    for (const [fn, t] of Object.entries(c.byFunction)) {
      for (const k of costKeys) rows.push(['cost.run', ...base, fn, k, t[k]]);
    }
    for (const [fn, t] of Object.entries(c.perAgentDay)) {
      for (const k of costKeys) rows.push(['cost.perAgentDay', ...base, fn, k, t[k]]);
    }
    for (const which of ['start', 'end'] as const) {
      const net = cell.evaluation.networks[which];
      rows.push(['density', ...base, which, 'density', net.density]);
      rows.push(['density', ...base, which, 'supportedDensity', net.supportedDensity]);
    }
    for (const p of cell.evaluation.diffusion.curve) {
      for (const k of DIFFUSION_CLASSES) {
        rows.push(['diffusion', ...base, `${p.factId}@${p.step}`, k, p.counts[k]]);
      }
    }
    for (const w of cell.evaluation.coordination) {
      rows.push(['coordination', ...base, w.label, 'attendees', w.attendees]);
      for (const p of w.presence) {
        rows.push(['coordination', ...base, w.label, `stepsPresent:${p.agentId}`, p.stepsPresent]);
      }
    }
    for (const a of cell.evaluation.battery) {
      rows.push(['interview', ...base, `${a.agentId}:${a.questionId}`, a.question, a.answer]);
    }
  }
  for (const c of summary.conditions) {
    rows.push([
      'cost.summary',
      c.name,
      'mean',
      'total',
      'tokensPerAgentDay',
      tokensOf(c.perAgentDay.total),
    ]);
    rows.push(['cost.summary', c.name, 'mean', 'total', 'ratioToBaseline', c.ratio ?? '']);
    for (const fn of summary.functions) {
      rows.push([
        'cost.summary',
        c.name,
        'mean',
        fn,
        'tokensPerAgentDay',
        tokensOf(c.perAgentDay[fn]),
      ]);
      rows.push([
        'cost.summary',
        c.name,
        'mean',
        fn,
        'ratioToBaseline',
        c.ratioByFunction[fn] ?? '',
      ]);
    }
  }
  return rows.map((r) => r.map(csvField).join(',')).join('\n') + '\n';
}

const CSS = `
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;margin:24px auto;max-width:1100px;padding:0 12px;color:#1b1f23}
h1{font-size:22px;margin-bottom:4px}h2{font-size:18px;margin-top:32px;border-bottom:1px solid #ddd;padding-bottom:4px}
h3{font-size:15px;margin-bottom:6px}table{border-collapse:collapse;margin:8px 0 16px;max-width:100%}
table:not(.answers){display:block;overflow-x:auto;font-size:12px}td.n{white-space:nowrap}svg{max-width:100%;height:auto}
th,td{border:1px solid #ddd;padding:3px 6px;text-align:left;vertical-align:top}td.n,th.n{text-align:right;font-variant-numeric:tabular-nums}
th{background:#f6f8fa}table.answers{table-layout:fixed;width:100%}table.answers td{overflow-wrap:anywhere;word-break:break-word}.muted{color:#57606a}.warn{background:#fff8c5;border:1px solid #d4a72c;padding:8px 12px;margin:12px 0}
.charts{display:flex;flex-wrap:wrap;gap:16px}.seed{color:#57606a;font-size:12px}
`;

function costSection(s: ExperimentSummary): string {
  const head = s.conditions.map((c) => `<th class="n">${esc(c.name)}</th>`).join('');
  const summaryRows = s.conditions
    .map(
      (c) =>
        `<tr><td>${esc(c.name)}${c.isBaseline ? ' <span class="muted">(baseline)</span>' : ''}</td>` +
        `<td class="n">${num(c.runTotal.calls, 1)}</td><td class="n">${num(tokensOf(c.runTotal))}</td>` +
        `<td class="n">${num(c.perAgentDay.total.calls)}</td>` +
        `<td class="n">${num(c.perAgentDay.total.promptTokens)}</td><td class="n">${num(c.perAgentDay.total.cachedTokens)}</td>` +
        `<td class="n">${num(c.perAgentDay.total.completionTokens)}</td>` +
        `<td class="n">${num(tokensOf(c.perAgentDay.total))}</td><td class="n">${num(c.perAgentDay.total.ms / 1000, 1)}</td>` +
        `<td class="n">${ratio(c.ratio)}</td></tr>`,
    )
    .join('');
  const fnRows = s.functions
    .map(
      (fn) =>
        `<tr><td>${esc(fn)}</td>` +
        s.conditions
          .map(
            (c) =>
              `<td class="n">${num(tokensOf(c.perAgentDay[fn]))} <span class="muted">(${num(c.perAgentDay[fn].calls, 1)} calls; ${ratio(c.ratioByFunction[fn])})</span></td>`,
          )
          .join('') +
        '</tr>',
    )
    .join('');
  const chart = groupedBars({
    categories: s.functions,
    series: s.conditions.map((c) => c.name),
    values: s.conditions.map((c) => s.functions.map((fn) => tokensOf(c.perAgentDay[fn]))),
    unit: 'tokens per agent per game day',
  });
  return `<h2>Cost</h2>
<p class="muted">From each run's event log (model calls of the run only; evaluation interviews are not counted). Means over seeds; per agent per game day = run total ÷ (agents × game days run). Ratio = tokens (prompt + completion) ÷ the baseline's.</p>
<table><tr><th>condition</th><th class="n">calls / run</th><th class="n">tokens / run</th><th class="n">calls / agent-day</th><th class="n">prompt / agent-day</th><th class="n">cached</th><th class="n">completion</th><th class="n">tokens / agent-day</th><th class="n">model seconds / agent-day</th><th class="n">ratio</th></tr>${summaryRows}</table>
<h3>By cognitive function (tokens per agent per game day)</h3>
<table><tr><th>function</th>${head}</tr>${fnRows}</table>
${chart}`;
}

function diffusionSection(s: ExperimentSummary): string {
  if (s.facts.length === 0) return '<h2>Information diffusion</h2><p>No facts were followed.</p>';
  const parts = s.facts.map((fact) => {
    const series = s.conditions.flatMap((c) => [
      {
        name: `${c.name}: knows`,
        points: (c.diffusion[fact.id] ?? []).map(
          (p) => [p.gameTime / 3600, p.fractions.knows] as [number, number],
        ),
      },
      {
        name: `${c.name}: hallucinated`,
        dashed: true,
        points: (c.diffusion[fact.id] ?? []).map(
          (p) => [p.gameTime / 3600, p.fractions.hallucinated] as [number, number],
        ),
      },
    ]);
    const rows = s.conditions
      .flatMap((c) =>
        (c.diffusion[fact.id] ?? []).map(
          (p) =>
            `<tr><td>${esc(c.name)}</td><td class="n">${p.step}</td><td class="n">${num(p.gameTime / 3600, 2)}</td>` +
            DIFFUSION_CLASSES.map((k) => `<td class="n">${pct(p.fractions[k])}</td>`).join('') +
            '</tr>',
        ),
      )
      .join('');
    return `<h3>${esc(fact.id)}: “${esc(fact.statement)}”</h3>
<p class="muted">Asked: “${esc(factQuestion(fact))}” — memory check: ${
      fact.keywords?.length
        ? `keywords ${fact.keywords.map((k) => `“${esc(k)}”`).join(' + ')} or `
        : ''
    }embedding similarity ≥ ${fact.similarity ?? 0.8}.</p>
${lineChart({ series, xLabel: 'game hours since start', yLabel: 'share of agents' })}
<table><tr><th>condition</th><th class="n">step</th><th class="n">game hours</th>${DIFFUSION_CLASSES.map((k) => `<th class="n">${k}</th>`).join('')}</tr>${rows}</table>`;
  });
  return `<h2>Information diffusion</h2>
<p class="muted">Each agent is asked whether it heard the fact, and its memory stream is checked: <b>knows</b> = said yes with a supporting memory; <b>hallucinated</b> = said yes with none; <b>forgot</b> = said no although a memory supports it; <b>unaware</b> = neither. Shares of agents, mean over seeds.</p>
${parts.join('\n')}`;
}

function relationshipSection(s: ExperimentSummary): string {
  const rows = s.conditions
    .map(
      (c) =>
        `<tr><td>${esc(c.name)}</td><td class="n">${num(c.density.start, 2)}</td><td class="n">${num(c.density.end, 2)}</td>` +
        `<td class="n">${num(c.density.supportedStart, 2)}</td><td class="n">${num(c.density.supportedEnd, 2)}</td></tr>`,
    )
    .join('');
  const labels = s.agents.map((a) => a.name);
  const maps = s.conditions
    .flatMap((c) =>
      (['start', 'end'] as const).map(
        (which) =>
          `<div><h3>${esc(c.name)} — ${which}</h3>${heatmap({
            labels,
            values: which === 'start' ? c.knownAtStart : c.knownAtEnd,
            title: `${c.name}: who knows whom at the ${which}`,
          })}</div>`,
      ),
    )
    .join('');
  return `<h2>Relationships</h2>
<p class="muted">“Do you know &lt;name&gt;?” asked of every ordered pair at the first and last checkpoint. Density = pairs answered yes ÷ n(n−1); “supported” also needs a memory naming the other. Heatmap: row agent says it knows column agent, share of seeds.</p>
<table><tr><th>condition</th><th class="n">density start</th><th class="n">density end</th><th class="n">supported start</th><th class="n">supported end</th></tr>${rows}</table>
<div class="charts">${maps}</div>`;
}

function coordinationSection(s: ExperimentSummary): string {
  const labels = [...new Set(s.conditions.flatMap((c) => Object.keys(c.coordination)))];
  if (labels.length === 0) {
    return '<h2>Coordination</h2><p class="muted">No place windows were given (evaluation.places).</p>';
  }
  const rows = labels
    .flatMap((label) =>
      s.conditions.map((c) => {
        const w = c.coordination[label];
        const who = s.agents.map((a) => `${esc(a.name)} ${pct(w?.present[a.id] ?? 0)}`).join(', ');
        return `<tr><td>${esc(label)}</td><td>${esc(c.name)}</td><td class="n">${num(w?.attendees ?? 0, 2)}</td><td>${who}</td></tr>`;
      }),
    )
    .join('');
  return `<h2>Coordination</h2>
<p class="muted">From the event log: agents standing inside the place during the window (mean attendees over seeds; per agent, share of seeds present).</p>
<table><tr><th>window</th><th>condition</th><th class="n">attendees</th><th>present</th></tr>${rows}</table>`;
}

function interviewSection(s: ExperimentSummary): string {
  if (s.interviews.length === 0)
    return '<h2>Interviews</h2><p class="muted">No interview questions were asked.</p>';
  const names = new Map(s.agents.map((a) => [a.id, a.name]));
  const head = s.conditions.map((c) => `<th>${esc(c.name)}</th>`).join('');
  const rows = s.interviews
    .map(
      (r) =>
        `<tr><td>${esc(names.get(r.agentId) ?? r.agentId)}</td><td><span class="muted">${esc(r.category)}</span><br>${esc(r.question)}</td>` +
        s.conditions
          .map(
            (c) =>
              `<td>${(r.answers[c.name] ?? [])
                .map((a) => `<div><span class="seed">seed ${a.seed}:</span> ${esc(a.answer)}</div>`)
                .join('')}</td>`,
          )
          .join('') +
        '</tr>',
    )
    .join('');
  return `<h2>Interviews</h2>
<p class="muted">The battery asked at the last checkpoint, on an in-memory copy (the runs keep no trace).</p>
<table class="answers"><tr><th style="width:120px">agent</th><th style="width:200px">question</th>${head}</tr>${rows}</table>`;
}

/** The report page. */
export function reportHtml(s: ExperimentSummary): string {
  const conditions = s.conditions
    .map(
      (c) =>
        `<tr><td>${esc(c.name)}${c.isBaseline ? ' <span class="muted">(baseline)</span>' : ''}</td><td>${esc(c.ablation)}</td>` +
        `<td>${esc(c.costLayer)}</td><td>${esc(c.models.join(', '))}</td><td>${c.seeds.join(', ')}</td>` +
        `<td>${c.conditionsRecorded ? 'yes' : '<b>no</b>'}</td></tr>`,
    )
    .join('');
  const ignored = s.conditions.filter((c) => !c.conditionsRecorded).map((c) => c.name);
  const warning = ignored.length
    ? `<div class="warn">The runs of ${ignored.map(esc).join(', ')} do not record their condition in run.json: the engine that ran them did not apply it, so those cells ran the plain architecture.</div>`
    : '';
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>Experiment report — ${esc(s.scenario.name)}</title><style>${CSS}</style></head>
<body>
<h1>Experiment report — ${esc(s.scenario.name)}</h1>
<p class="muted">${s.conditions.length} condition(s) × ${s.seeds.length} seed(s), ${s.steps} steps (${num(s.gameHours, 2)} game hours) each, ${s.agents.length} agents.</p>
${warning}
<table><tr><th>condition</th><th>ablation</th><th>cost layer</th><th>model</th><th>seeds</th><th>applied by engine</th></tr>${conditions}</table>
${costSection(s)}
${diffusionSection(s)}
${relationshipSection(s)}
${coordinationSection(s)}
${interviewSection(s)}
</body></html>
`;
}

/** Writes report.html, results.csv and results.json into `out`; returns their paths. */
export function writeReport(
  result: ExperimentResult,
  out: string,
): {
  html: string;
  csv: string;
  json: string;
  summary: ExperimentSummary;
} {
  const summary = summarise(result);
  const files = {
    html: path.join(out, 'report.html'),
    csv: path.join(out, 'results.csv'),
    json: path.join(out, 'results.json'),
  };
  writeFileAtomic(files.html, reportHtml(summary));
  writeFileAtomic(files.csv, resultsCsv(result, summary));
  writeFileAtomic(files.json, `${JSON.stringify({ summary, result }, null, 1)}\n`);
  return { ...files, summary };
}
