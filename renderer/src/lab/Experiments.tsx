/**
 * The experiments of the open town (list) and the selected one (progress with cancel, resume,
 * delete, and its report). The report is the runner's own report.html — self-contained, no
 * script — shown in an iframe with an empty `sandbox` (no scripts, no same-origin, no forms,
 * no navigation of the window) through `srcdoc`, so nothing in it can reach the studio API.
 */
import { useState } from 'react';
import type { ExperimentProgress, ExperimentSummary } from '../../../common/api/lab';
import { downloadBytes } from '../util/download';
import { LabelledField } from '../components/LabelledField';
import { cellKeyOf, type LabState } from './labStore';
import { etaLabel, formatSeconds, progressLabel } from './progressText';
import { useDescribeModel } from '../servers/serversStore';

const STATUS_LABEL: Record<ExperimentSummary['status'], string> = {
  running: 'Running',
  incomplete: 'Stopped',
  done: 'Done',
};

export function ExperimentList({
  lab,
}: {
  lab: Pick<LabState, 'experiments' | 'loaded' | 'selected' | 'select' | 'progress'>;
}) {
  // A model on a server is named with the server ("SmolLM2 on Lab box (127.0.0.1:8080)").
  const describe = useDescribeModel();
  if (!lab.loaded) return <p className="muted">Loading experiments…</p>;
  if (lab.experiments.length === 0) {
    return (
      <p className="panel__empty" data-testid="lab-empty">
        No experiments for this town yet. Pick conditions above and run one: each cell is an
        ordinary run, then every cell is interviewed and measured and a report compares them.
      </p>
    );
  }
  return (
    <ul className="lab-list" data-testid="lab-list">
      {lab.experiments.map((e) => {
        const p = lab.progress[e.id];
        return (
          <li key={e.id}>
            <button
              type="button"
              className={`lab-list__item ${lab.selected === e.id ? 'lab-list__item--on' : ''}`}
              data-testid="lab-experiment"
              data-id={e.id}
              onClick={() => lab.select(e.id)}
            >
              <span className="lab-list__name">{e.name}</span>
              <span className={`run-status lab-status--${e.status}`} data-testid="lab-status">
                {STATUS_LABEL[e.status]}
              </span>
              <span className="muted lab-list__meta">
                {e.conditions.length} × {e.seeds.length} ·{' '}
                {p ? `${Math.round(p.fraction * 100)}%` : `${e.cellsDone}/${e.cells} cells`} ·{' '}
                {e.models ? `${describe(e.models.chat)} · ` : ''}
                {new Date(e.createdAt).toLocaleString()}
              </span>
            </button>
          </li>
        );
      })}
    </ul>
  );
}

function ProgressBar({ p }: { p: ExperimentProgress }) {
  const estimating = p.etaSeconds === null && p.fraction === 0;
  return (
    <div className="lab-progress" data-testid="lab-progress">
      <div
        className={`lab-progress__bar${estimating ? ' lab-progress__bar--estimating' : ''}`}
        role="progressbar"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={estimating ? undefined : Math.round(p.fraction * 100)}
      >
        <div className="lab-progress__fill" style={{ width: `${p.fraction * 100}%` }} />
      </div>
      <div className="lab-progress__label">
        <span data-testid="lab-progress-label">{progressLabel(p)}</span>
        <span className="muted" data-testid="lab-progress-eta">
          {etaLabel(p)}
        </span>
      </div>
    </div>
  );
}

const text = (s: string) => new TextEncoder().encode(s) as Uint8Array<ArrayBuffer>;

/**
 * Each cell with "Open in run view": a fork of the cell (its latest snapshot, or the latest at or
 * before the step typed in) as a new run, because watching the cell itself live would write into
 * the experiment and break its results and its resume.
 */
function CellList({
  summary,
  lab,
}: {
  summary: ExperimentSummary;
  lab: Pick<LabState, 'pending' | 'openCell'>;
}) {
  const [step, setStep] = useState('');
  const at = step.trim() === '' ? undefined : Math.max(0, Math.floor(Number(step)));
  return (
    <div className="lab-cells" data-testid="lab-cell-list">
      <div className="lab-cells__head">
        <span className="lab__heading">Cells</span>
        <span className="run-toolbar__spacer" />
        <LabelledField label="From step">
          <input
            type="number"
            min={0}
            className="input"
            placeholder="last snapshot"
            data-testid="lab-cell-step"
            value={step}
            onChange={(e) => setStep(e.target.value)}
          />
        </LabelledField>
      </div>
      <ul className="lab-cells__list">
        {summary.conditions.flatMap((c) =>
          summary.seeds.map((seed) => {
            const ref = { experimentId: summary.id, condition: c.name, seed };
            return (
              <li key={`${c.name}/${seed}`} className="lab-cells__item">
                <span>
                  {c.name} · seed {seed}
                </span>
                <button
                  type="button"
                  className="button"
                  data-testid="lab-open-cell"
                  data-cell={`${c.name}/${seed}`}
                  disabled={lab.pending !== null || (at !== undefined && !Number.isFinite(at))}
                  title="Fork this cell into a new run and watch it; the experiment is not changed"
                  onClick={() => void lab.openCell(ref, at)}
                >
                  {lab.pending === `open:${cellKeyOf(ref)}` ? 'Opening…' : 'Open in run view'}
                </button>
              </li>
            );
          }),
        )}
      </ul>
    </div>
  );
}

export function ExperimentDetail({
  summary,
  lab,
  canOpenCells,
}: {
  summary: ExperimentSummary;
  lab: Pick<
    LabState,
    | 'progress'
    | 'report'
    | 'reportLoading'
    | 'pending'
    | 'start'
    | 'cancel'
    | 'remove'
    | 'openCell'
    | 'liveRun'
  >;
  /** A studio experiment of the open town (the CLI's record no models to run a fork with). */
  canOpenCells: boolean;
}) {
  const [confirmDelete, setConfirmDelete] = useState(false);
  const describe = useDescribeModel();
  const p = lab.progress[summary.id];
  const report = lab.report?.id === summary.id ? lab.report : null;
  const slug = summary.id;
  return (
    <section className="lab-detail" data-testid="lab-detail">
      <header className="lab-detail__head">
        <h3 className="lab__heading">{summary.name}</h3>
        <span className={`run-status lab-status--${summary.status}`}>
          {STATUS_LABEL[summary.status]}
        </span>
        <span className="run-toolbar__spacer" />
        {summary.status === 'running' && (
          <button
            type="button"
            className="button"
            data-testid="lab-cancel"
            onClick={() => void lab.cancel(summary.id)}
          >
            Cancel
          </button>
        )}
        {summary.status === 'incomplete' && summary.resumable && (
          <button
            type="button"
            className="button button--primary"
            data-testid="lab-resume"
            disabled={lab.pending === `start:${summary.id}` || lab.liveRun !== null}
            title={lab.liveRun ? `Run “${lab.liveRun.name}” is live; close it first` : undefined}
            onClick={() => void lab.start(summary.id)}
          >
            Resume
          </button>
        )}
        {summary.status !== 'running' &&
          (confirmDelete ? (
            <span className="lab-confirm">
              Delete every cell’s run and the report?
              <button
                type="button"
                className="button button--danger"
                data-testid="lab-delete-confirm"
                onClick={() => void lab.remove(summary.id)}
              >
                Delete
              </button>
              <button type="button" className="button" onClick={() => setConfirmDelete(false)}>
                Keep
              </button>
            </span>
          ) : (
            <button
              type="button"
              className="button"
              data-testid="lab-delete"
              onClick={() => setConfirmDelete(true)}
            >
              Delete…
            </button>
          ))}
      </header>
      <p className="muted lab-detail__facts">
        {summary.conditions.map((c) => c.name).join(', ')} (baseline {summary.baseline}) ·{' '}
        {summary.seeds.length} seed{summary.seeds.length === 1 ? '' : 's'} ·{' '}
        {formatSeconds(summary.gameSeconds)} of game time per cell · {summary.cellsDone}/
        {summary.cells} cells done
        {summary.models ? ` · ${describe(summary.models.chat)}` : ''}
      </p>
      {!summary.resumable && summary.status !== 'done' && (
        <p className="muted">Made by the command line: resume it there with the same command.</p>
      )}
      {summary.status === 'running' &&
        (p ? <ProgressBar p={p} /> : <p className="muted">Loading models…</p>)}
      {summary.status === 'incomplete' && summary.message && (
        <p className="lab-detail__message" data-testid="lab-message">
          {summary.message}
        </p>
      )}
      {canOpenCells && summary.status !== 'running' && <CellList summary={summary} lab={lab} />}
      {summary.hasReport && (
        <div className="lab-report">
          <div className="lab-report__bar">
            <span className="lab__heading">Report</span>
            <span className="run-toolbar__spacer" />
            {report && (
              <>
                <button
                  type="button"
                  className="button"
                  data-testid="lab-download-csv"
                  onClick={() => downloadBytes(`${slug}-results.csv`, text(report.csv), 'text/csv')}
                >
                  results.csv
                </button>
                <button
                  type="button"
                  className="button"
                  data-testid="lab-download-json"
                  onClick={() =>
                    downloadBytes(`${slug}-results.json`, text(report.json), 'application/json')
                  }
                >
                  results.json
                </button>
                <button
                  type="button"
                  className="button"
                  data-testid="lab-download-html"
                  onClick={() =>
                    downloadBytes(`${slug}-report.html`, text(report.html), 'text/html')
                  }
                >
                  report.html
                </button>
              </>
            )}
          </div>
          {report ? (
            <iframe
              className="lab-report__frame"
              data-testid="lab-report"
              title={`Report of ${summary.name}`}
              sandbox=""
              srcDoc={report.html}
            />
          ) : (
            <p className="muted">{lab.reportLoading ? 'Opening the report…' : ''}</p>
          )}
        </div>
      )}
    </section>
  );
}
