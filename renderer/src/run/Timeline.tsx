/**
 * The timeline under the map: scrub to any step (rebuilt from the event log), hour marks,
 * snapshot marks (where a fork can start), bookmarks, back to live, and "fork from here" (which
 * asks for the fork's name and cost layer first: ForkDialog).
 */
import { useState } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { useRun, useRunStore } from './RunProvider';
import { ForkDialog } from './ForkDialog';
import { timelinePosition } from './format';
import { forkPoint } from './runFrames';
import { isLive } from './runState';

export function Timeline() {
  const store = useRunStore();
  const { timeline, viewStep, liveStep, bookmarks, frameStep, pending, live, status, failed } =
    useRun(
      useShallow((s) => ({
        live: isLive(s.summary),
        status: s.summary?.status ?? null,
        failed: !!s.summary?.failure,
        timeline: s.timeline,
        viewStep: s.viewStep,
        liveStep: s.liveFrame?.step ?? 0,
        bookmarks: s.bookmarks,
        frameStep: s.frame?.step ?? 0,
        pending: s.pending,
      })),
    );
  const [label, setLabel] = useState('');
  const [forking, setForking] = useState(false);
  const max = Math.max(timeline?.steps ?? 0, liveStep, 1);
  const shown = viewStep ?? liveStep;
  const pct = (step: number) => `${(step / max) * 100}%`;
  // Where a fork starts: a live run followed live is snapshotted now, so exactly here; a past
  // step (or a closed run) forks from the last snapshot at or before it (RunService.fork).
  const forkAt =
    live && viewStep === null
      ? liveStep
      : timeline
        ? forkPoint(timeline.snapshots, frameStep)
        : null;
  const exact = forkAt === frameStep;

  return (
    <div className="timeline" data-testid="timeline">
      {forking && forkAt !== null && (
        <ForkDialog
          at={forkAt}
          exact={exact}
          frameStep={frameStep}
          onClose={() => setForking(false)}
        />
      )}
      <div className="timeline__track">
        <div className="timeline__marks" aria-hidden>
          {timeline?.hours.map((h) => (
            <span key={`h${h.step}`} className="timeline__hour" style={{ left: pct(h.step) }}>
              {h.clock.slice(-5)}
            </span>
          ))}
          {timeline?.snapshots.map((s) => (
            <span
              key={`s${s}`}
              className="timeline__snapshot"
              style={{ left: pct(s) }}
              title={`Snapshot at step ${s}`}
            />
          ))}
        </div>
        <input
          type="range"
          className="timeline__range"
          aria-label="Step"
          data-testid="timeline-range"
          min={0}
          max={max}
          value={shown}
          onChange={(e) => void store.getState().scrub(Number(e.target.value))}
        />
        <div className="timeline__bookmarks">
          {bookmarks.map((b) => (
            <button
              key={b.id}
              type="button"
              className="timeline__bookmark"
              style={{ left: pct(b.step) }}
              title={`${b.label} (step ${b.step})`}
              data-testid="timeline-bookmark"
              onClick={() => void store.getState().scrub(b.step)}
            >
              ★
            </button>
          ))}
        </div>
      </div>
      <div className="timeline__row">
        <span className="timeline__pos" data-testid="timeline-pos">
          {timelinePosition(status, viewStep, liveStep, failed)}
        </span>
        <button
          type="button"
          className="button button--small"
          data-testid="timeline-live"
          disabled={viewStep === null}
          onClick={() => void store.getState().scrub(null)}
        >
          {live ? 'Back to live' : 'Back to the end'}
        </button>
        <input
          className="input input--small"
          placeholder="Bookmark label"
          aria-label="Bookmark label"
          data-testid="bookmark-label"
          value={label}
          maxLength={120}
          onChange={(e) => setLabel(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter') {
              void store.getState().addBookmark(label);
              setLabel('');
            }
          }}
        />
        <button
          type="button"
          className="button button--small"
          data-testid="bookmark-add"
          onClick={() => {
            void store.getState().addBookmark(label);
            setLabel('');
          }}
        >
          ★ Bookmark
        </button>
        <span className="timeline__spacer" />
        {forkAt !== null && !exact && (
          <span className="timeline__fork-note" data-testid="timeline-fork-note">
            the last snapshot before step {frameStep}
          </span>
        )}
        <button
          type="button"
          className="button button--small"
          data-testid="timeline-fork"
          disabled={forkAt === null || !!pending}
          title={
            forkAt === null
              ? 'No snapshot at or before this step yet'
              : `A new run continues from step ${forkAt}${exact ? '' : ` (the last snapshot before step ${frameStep})`}`
          }
          onClick={() => setForking(true)}
        >
          {forkAt === null
            ? 'Fork from here'
            : exact
              ? `Fork at step ${forkAt}`
              : `Fork from step ${forkAt}`}
        </button>
      </div>
      {bookmarks.length > 0 && (
        <ul className="timeline__list" data-testid="bookmark-list">
          {bookmarks.map((b) => (
            <li key={b.id}>
              <button
                type="button"
                className="link"
                onClick={() => void store.getState().scrub(b.step)}
              >
                ★ {b.label} · step {b.step}
              </button>
              <button
                type="button"
                className="icon-button"
                aria-label={`Remove bookmark ${b.label}`}
                onClick={() => void store.getState().removeBookmark(b.id)}
              >
                ✕
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
