/**
 * The runs of the open town, in the sidebar: status (a crashed run offers Resume), game time,
 * tokens, models; watch, export as a zip, delete (after a confirmation).
 */
import { useState } from 'react';
import type { RunSummary } from '../../../common/api/runs';
import { useStudio } from '../stores/studioStore';
import { downloadBytes } from '../util/download';
import { useRun, useRunStore } from './RunProvider';
import { RESUME_HINT } from './resumeHint';
import { useDescribeModel } from '../servers/serversStore';
import {
  compact,
  conditionsLabel,
  duration,
  failureTitle,
  forkedFrom,
  runGameSeconds,
} from './format';

export function RunLibrary() {
  const store = useRunStore();
  const docId = useStudio((s) => s.doc?.id);
  const runs = useRun((s) => s.runs);
  const loaded = useRun((s) => s.runsLoaded);
  const open = useRun((s) => s.open);
  if (!docId) return null;
  return (
    <section className="run-library" data-testid="run-library">
      <div className="sidebar__heading">
        <span>Runs of this town</span>
        <span className="muted">{loaded ? runs.length : ''}</span>
      </div>
      <div className="run-library__actions">
        <button
          type="button"
          className={`button ${open ? '' : 'button--primary'}`}
          data-testid="run-open-view"
          onClick={() => store.getState().setOpen(!open)}
        >
          {open ? '‹ Back to the editor' : '▶ Simulate'}
        </button>
        <button
          type="button"
          className="button"
          data-testid="run-new"
          onClick={() => store.setState({ open: true, startDialogOpen: true })}
        >
          + New run
        </button>
      </div>
      <ul className="library-list run-library__list" data-testid="run-list">
        {runs.map((r) => (
          <RunItem key={r.id} run={r} />
        ))}
        {loaded && runs.length === 0 && (
          <li className="sidebar__empty">No runs yet. Simulate to start the first.</li>
        )}
      </ul>
    </section>
  );
}

function RunItem({ run }: { run: RunSummary }) {
  const store = useRunStore();
  const watched = useRun((s) => s.runId === run.id && s.open);
  const parentName = useRun((s) =>
    run.parent && 'runId' in run.parent
      ? s.runs.find((r) => r.id === (run.parent as { runId: string }).runId)?.name
      : undefined,
  );
  // A fork's game time counts from the town's start; a fork with no steps of its own yet is
  // measured with the town's step length.
  const secondsPerStep = useStudio((s) => s.doc?.settings.secondsPerStep);
  const [confirming, setConfirming] = useState(false);
  // A model on a server is named with the server ("SmolLM2 on Lab box (127.0.0.1:8080)").
  const model = useDescribeModel()(run.models.chat);
  const conditions = conditionsLabel(run.conditions);
  const live = run.status === 'running' || run.status === 'paused' || run.status === 'loading';
  return (
    <li
      className={`library-item run-item ${watched ? 'library-item--active' : ''}`}
      data-testid="run-item"
      data-run-id={run.id}
      data-status={run.status}
    >
      <button
        type="button"
        className="library-item__main"
        onClick={() => {
          if (live) {
            store.setState({ open: true });
            if (store.getState().runId !== run.id) void store.getState().openRun(run.id);
          } else void store.getState().openRun(run.id);
        }}
        title={run.parent ? forkedFrom(run.parent, parentName) : run.id}
      >
        <span className="library-item__name run-item__head">
          <span className="run-item__title">
            {run.parent && '↳ '}
            {run.name}
          </span>
          <span
            className={`run-status run-status--${run.failure ? 'failed' : run.status}`}
            data-testid="run-item-status"
            title={run.status === 'crashed' ? RESUME_HINT : undefined}
          >
            {run.failure ? 'failed' : run.status === 'crashed' ? 'crashed · Resume' : run.status}
          </span>
        </span>
        {run.failure && (
          <span
            className="library-item__meta run-item__failure"
            data-testid="run-item-failure"
            title={`${run.failure.reason}\n\nWhat to do: ${run.failure.remedy}`}
          >
            {failureTitle(run.failure)}: {run.failure.reason}
          </span>
        )}
        <span className="library-item__meta" data-testid="run-item-figures">
          {duration(runGameSeconds(run, secondsPerStep))} game time · {run.steps} steps ·{' '}
          {compact(run.tokens)} tokens
        </span>
        {/* Cut with an ellipsis in the narrow sidebar; the whole label shows on hover. */}
        <span className="library-item__meta" data-testid="run-item-conditions" title={conditions}>
          {conditions}
        </span>
        {run.parent && (
          <span className="library-item__meta" data-testid="run-item-parent">
            {forkedFrom(run.parent, parentName)}
          </span>
        )}
        <span className="library-item__meta" data-testid="run-item-model" title={model}>
          {model} · {new Date(run.createdAt).toLocaleString()}
        </span>
      </button>
      {confirming ? (
        <div className="run-item__confirm">
          <span>Delete this run and its log?</span>
          <button
            type="button"
            className="button button--small button--danger"
            data-testid="run-delete-confirm"
            onClick={() => {
              setConfirming(false);
              void store.getState().deleteRun(run.id);
            }}
          >
            Delete
          </button>
          <button
            type="button"
            className="button button--small"
            onClick={() => setConfirming(false)}
          >
            Keep
          </button>
        </div>
      ) : (
        <div className="library-item__tools">
          <button
            type="button"
            className="icon-button"
            title="Export as zip"
            aria-label={`Export ${run.name}`}
            data-testid="run-export"
            onClick={async () => {
              const zip = await store.getState().exportRun(run.id);
              if (zip) downloadBytes(zip.fileName, zip.bytes);
            }}
          >
            ⤓
          </button>
          <button
            type="button"
            className="icon-button icon-button--danger"
            title="Delete"
            aria-label={`Delete ${run.name}`}
            data-testid="run-delete"
            onClick={() => setConfirming(true)}
          >
            ✕
          </button>
        </div>
      )}
    </li>
  );
}
