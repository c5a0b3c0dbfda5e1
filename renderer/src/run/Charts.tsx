/**
 * Charts of a run (runs.stats): tokens and model time per cognitive function over game hours,
 * conversations per hour (uPlot: small, canvas, no dependencies), and a relationship heatmap
 * (a plain SVG grid: n×n cells need no library).
 */
import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { useRun, useRunStore } from './RunProvider';
import {
  conversationSeries,
  heatmapCells,
  perFunctionSeries,
  SERIES_COLORS,
  type SeriesSet,
} from './charts';
import { compact, duration } from './format';

const CHART_WIDTH = 320;
const CHART_HEIGHT = 170;

function LineChart({
  data,
  testId,
  unit,
  bars = false,
}: {
  data: SeriesSet;
  testId: string;
  unit: (v: number) => string;
  bars?: boolean;
}) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const el = ref.current;
    if (!el || data.x.length === 0) return;
    const axis = { stroke: '#a2a8b1', grid: { stroke: '#262a31' }, ticks: { stroke: '#343a43' } };
    const plot = new uPlot(
      {
        width: CHART_WIDTH,
        height: CHART_HEIGHT,
        legend: { show: true, live: false },
        cursor: { drag: { x: false, y: false } },
        scales: { x: { time: false } },
        axes: [
          {
            ...axis,
            values: (_u, ticks) => ticks.map((t) => data.labels[data.x.indexOf(t)] ?? ''),
          },
          { ...axis, size: 46, values: (_u, ticks) => ticks.map(unit) },
        ],
        series: [
          { label: 'hour' },
          ...data.series.map((s, i) => ({
            label: s.name,
            stroke: SERIES_COLORS[i % SERIES_COLORS.length],
            width: 1.5,
            fill: bars ? `${SERIES_COLORS[i % SERIES_COLORS.length]}66` : undefined,
            paths: bars ? uPlot.paths.bars!({ size: [0.6, 40] }) : undefined,
            points: { show: data.x.length < 3 },
          })),
        ],
      },
      [data.x, ...data.series.map((s) => s.values)],
      el,
    );
    return () => plot.destroy();
  }, [data, unit, bars]);
  if (data.x.length === 0)
    return <p className="muted">Nothing yet: charts fill in as game hours pass.</p>;
  return <div ref={ref} className="chart" data-testid={testId} />;
}

export function ChartsPanel() {
  const store = useRunStore();
  const stats = useRun((s) => s.stats);
  const runId = useRun((s) => s.runId);
  const step = useRun((s) => s.liveFrame?.step ?? 0);
  // Refresh on open and then at most every ~30 steps while the run moves on.
  const bucket = Math.floor(step / 30);
  useEffect(() => {
    if (runId) void store.getState().loadStats();
  }, [store, runId, bucket]);
  if (!runId) return <ChartsState text="No run is open." />;
  if (!stats)
    return (
      <ChartsState
        busy
        text="Reading the run’s log for the charts… (a long run’s log takes a few seconds the first time)"
      />
    );
  const cells = heatmapCells(stats);
  const agents = stats.relationships.agents;
  const cell = Math.max(10, Math.min(28, Math.floor(220 / Math.max(1, agents.length))));
  const totalTokens = stats.perFunction.reduce(
    (s, f) => s + f.promptTokens + f.completionTokens,
    0,
  );
  return (
    <div className="charts" data-testid="charts">
      <button
        type="button"
        className="button button--small"
        onClick={() => void store.getState().loadStats()}
      >
        Refresh
      </button>
      <h4 className="inspector__sub">Cost by cognitive function</h4>
      {stats.perFunction.length === 0 ? (
        <p className="muted">No model calls yet.</p>
      ) : (
        <table className="scores" data-testid="cost-table">
          <thead>
            <tr>
              <th>Function</th>
              <th>calls</th>
              <th>tokens</th>
              <th>share</th>
              <th>time</th>
            </tr>
          </thead>
          <tbody>
            {[...stats.perFunction]
              .sort(
                (a, b) =>
                  b.promptTokens + b.completionTokens - (a.promptTokens + a.completionTokens),
              )
              .map((f) => (
                <tr key={f.fn}>
                  <td>{f.fn}</td>
                  <td>{f.calls}</td>
                  <td>{compact(f.promptTokens + f.completionTokens)}</td>
                  <td>
                    {totalTokens
                      ? `${Math.round(((f.promptTokens + f.completionTokens) / totalTokens) * 100)}%`
                      : '–'}
                  </td>
                  <td>{duration(f.ms / 1000)}</td>
                </tr>
              ))}
          </tbody>
        </table>
      )}
      <h4 className="inspector__sub">Tokens per game hour</h4>
      <LineChart
        data={perFunctionSeries(stats, 'tokensByFn')}
        unit={compact}
        testId="chart-tokens"
      />
      <h4 className="inspector__sub">Model time per game hour</h4>
      <LineChart
        data={perFunctionSeries(stats, 'msByFn')}
        unit={(v) => `${compact(v / 1000)}s`}
        testId="chart-time"
      />
      <h4 className="inspector__sub">Conversations per hour</h4>
      <LineChart
        data={conversationSeries(stats)}
        unit={(v) => String(v)}
        bars
        testId="chart-conversations"
      />
      <h4 className="inspector__sub">Who talks with whom</h4>
      {agents.length < 2 ? (
        <p className="muted">Needs at least two people.</p>
      ) : (
        <svg
          className="heatmap"
          data-testid="heatmap"
          width={80 + agents.length * cell + 44}
          height={80 + agents.length * cell}
          role="img"
          aria-label="Conversations between each pair"
        >
          {agents.map((a, i) => (
            <g key={a.id}>
              <text x={76} y={80 + i * cell + cell / 2} textAnchor="end" dominantBaseline="middle">
                {a.name.split(' ')[0]}
              </text>
              <text
                transform={`translate(${80 + i * cell + cell / 2}, 76) rotate(-50)`}
                textAnchor="start"
              >
                {a.name.split(' ')[0]}
              </text>
            </g>
          ))}
          {cells.map((c) => (
            <rect
              key={`${c.row}-${c.col}`}
              x={80 + c.col * cell}
              y={80 + c.row * cell}
              width={cell - 1}
              height={cell - 1}
              fill={c.row === c.col ? '#15181c' : `rgba(124, 156, 255, ${0.08 + c.t * 0.92})`}
            >
              <title>
                {agents[c.row]?.name} & {agents[c.col]?.name}: {c.count} conversation
                {c.count === 1 ? '' : 's'}
              </title>
            </rect>
          ))}
        </svg>
      )}
    </div>
  );
}

/** The panel before there is anything to chart: padded like the charts, busy or not. */
function ChartsState({ text, busy = false }: { text: string; busy?: boolean }) {
  return (
    <div
      className="charts charts__state"
      data-testid={busy ? 'charts-loading' : 'charts-empty'}
      role="status"
      aria-busy={busy}
    >
      {busy && <div className="charts__busy" aria-hidden />}
      <p className="muted">{text}</p>
    </div>
  );
}
