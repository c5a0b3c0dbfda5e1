/**
 * The run view in the main area: controls and status on top, the live map, and the timeline
 * below. Without a watched run it explains what a run is and offers to start one. The map draws
 * the run's own town (runs.scenario), never the library document being edited.
 */
import { useState } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { NoticeSlot } from '../components/Notices';
import { useStudio } from '../stores/studioStore';
import { useRun, useRunStore } from './RunProvider';
import { RunMap } from './RunMap';
import { Timeline } from './Timeline';
import { ObjectStatePopover } from './Interventions';
import { StartRunDialog } from './StartRunDialog';
import { JoinDialog } from './Join';
import { compact, failureTitle, shortStatus, speedFigure } from './format';
import { ActivityLine } from './ActivityLine';
import { callsLabel } from './activity';
import { isLive } from './runState';
import { RESUME_HINT } from './resumeHint';
import { RUN_SHORTCUTS } from '../shortcuts/registry';
import { useShortcuts } from '../shortcuts/useShortcuts';
import type { RunSummary } from '../../../common/api/runs';
import { useDescribeModel } from '../servers/serversStore';

const SPEEDS: { value: number; label: string }[] = [
  { value: 1, label: '1 step/s' },
  { value: 2, label: '2 steps/s' },
  { value: 5, label: '5 steps/s' },
  { value: 10, label: '10 steps/s' },
  { value: 0, label: 'Max speed' },
];

export function RunView() {
  const store = useRunStore();
  const doc = useStudio((s) => s.doc);
  const { runId, frame, summary, town, townError, bubbles, selectedAgentId, follow, resident } =
    useRun(
      useShallow((s) => ({
        runId: s.runId,
        frame: s.frame,
        summary: s.summary,
        town: s.town,
        townError: s.townError,
        bubbles: s.bubbles,
        selectedAgentId: s.selectedAgentId,
        follow: s.follow,
        resident: s.resident,
      })),
    );
  const starting = useRun((s) => s.startDialogOpen);
  const setStarting = (startDialogOpen: boolean) => store.setState({ startDialogOpen });
  const [popover, setPopover] = useState<{ address: string; x: number; y: number } | null>(null);
  useKeyboard();

  if (!doc) return null;
  const showRun = runId && summary && summary.scenarioId === doc.id;
  return (
    <main className="main run-view" data-testid="run-view">
      <RunToolbar />
      {showRun ? (
        <>
          <div className="run-view__stage">
            {town ? (
              <RunMap
                map={town.map}
                tree={town.tree}
                frame={frame}
                bubbles={bubbles}
                selectedAgentId={selectedAgentId}
                follow={follow}
                residentId={resident?.agentId ?? null}
                onSelectAgent={(id) => void store.getState().selectAgent(id)}
                onStopFollow={() => store.getState().setFollow(false)}
                onObjectClick={(address, at) => {
                  // Setting a state needs the loaded simulation; a closed run is only watched.
                  if (isLive(summary)) setPopover({ address, ...at });
                }}
                onTileClick={(x, y) => void store.getState().moveResident(x, y)}
              />
            ) : (
              <div className="run-view__town-pending" data-testid="run-town-pending">
                {townError ? `This run's town cannot be shown: ${townError}` : 'Reading the town…'}
              </div>
            )}
            <NoticeSlot />
            {summary.failure && !isLive(summary) && <FailureNote summary={summary} />}
            {popover && (
              <ObjectStatePopover
                address={popover.address}
                at={popover}
                current={frame?.objects.find((o) => o.address === popover.address)?.state ?? null}
                onClose={() => setPopover(null)}
              />
            )}
          </div>
          {/* Below the map, not over it: the map's bottom rows stay in sight (issue 25). */}
          <ActivityLine />
          <StatusBar />
          <Timeline />
        </>
      ) : (
        <NoRun onStart={() => setStarting(true)} />
      )}
      {starting && <StartRunDialog onClose={() => setStarting(false)} />}
    </main>
  );
}

/**
 * Why the watched run stopped on its own and what to do, over the map until it is opened again
 * (the library row and the event log keep it too).
 */
function FailureNote({ summary }: { summary: RunSummary }) {
  const store = useRunStore();
  const failure = summary.failure!;
  return (
    <div className="run-failure" role="alert" data-testid="run-failure">
      <strong className="run-failure__title">{failureTitle(failure)}</strong>
      <p className="run-failure__reason" data-testid="run-failure-reason">
        {failure.reason}
      </p>
      <p className="run-failure__remedy" data-testid="run-failure-remedy">
        <span className="run-failure__label">What to do: </span>
        {failure.remedy}
      </p>
      <button
        type="button"
        className="button button--primary"
        data-testid="run-failure-open"
        onClick={() => void store.getState().openRun(summary.id)}
      >
        Open again
      </button>
    </div>
  );
}

function NoRun({ onStart }: { onStart(): void }) {
  const runs = useRun((s) => s.runs);
  const people = useStudio((s) => s.doc?.personas.length ?? 0);
  return (
    <div className="empty run-view__empty" data-testid="run-empty">
      <div className="empty__badge" aria-hidden>
        ▶
      </div>
      <h1 className="empty__title">Run this town</h1>
      <p className="empty__text">
        A run lets the {people} {people === 1 ? 'person' : 'people'} of this town live their day on
        your computer: they plan, walk, talk and remember, driven by a language model on this
        machine. You can watch, ask them questions, whisper to them, change the world, rewind and
        fork.
      </p>
      <div className="empty__actions">
        <button
          type="button"
          className="button button--primary"
          data-testid="run-start-open"
          onClick={onStart}
          disabled={people === 0}
        >
          Start a run…
        </button>
      </div>
      {people === 0 && <p className="muted">Add at least one person to the town first.</p>}
      {runs.length > 0 && (
        <p className="muted">Or pick one of its {runs.length} earlier runs in the sidebar.</p>
      )}
    </div>
  );
}

function RunToolbar() {
  const store = useRunStore();
  const { summary, pending, speed, follow, selectedAgentId, resident, viewStep } = useRun(
    useShallow((s) => ({
      summary: s.summary,
      pending: s.pending,
      speed: s.speed,
      follow: s.follow,
      selectedAgentId: s.selectedAgentId,
      resident: s.resident,
      viewStep: s.viewStep,
    })),
  );
  const docId = useStudio((s) => s.doc?.id);
  const [joining, setJoining] = useState(false);
  const watching = summary && summary.scenarioId === docId;
  const live = watching && (summary.status === 'running' || summary.status === 'paused');
  const running = summary?.status === 'running';
  return (
    <div className="run-toolbar" role="toolbar" aria-label="Run controls">
      <button
        type="button"
        className="button"
        data-testid="run-back-to-editor"
        onClick={() => store.getState().setOpen(false)}
        title="Back to the map editor (the run keeps going)"
      >
        ‹ Edit town
      </button>
      {watching && (
        <span className="run-toolbar__name">
          <span
            className="run-toolbar__title"
            data-testid="run-name"
            data-run-id={summary.id}
            title={summary.name}
          >
            {summary.name}
          </span>
          <span className={`run-status run-status--${summary.status}`} data-testid="run-status">
            {summary.status}
          </span>
        </span>
      )}
      {watching && (summary.status === 'crashed' || summary.status === 'stored') && (
        <button
          type="button"
          className="button button--primary"
          data-testid="run-resume"
          onClick={() => void store.getState().openRun(summary.id)}
          title={RESUME_HINT}
        >
          {summary.status === 'crashed' ? 'Resume' : 'Open'}
        </button>
      )}
      {live && (
        <>
          <button
            type="button"
            className="button button--primary run-toolbar__play"
            data-testid={running ? 'run-pause' : 'run-play'}
            onClick={() => void store.getState().togglePlay()}
            title={running ? 'Pause (Space)' : 'Play (Space)'}
          >
            {running ? '❚❚ Pause' : '▶ Play'}
          </button>
          <button
            type="button"
            className="button"
            data-testid="run-step"
            disabled={!!pending}
            onClick={() => void store.getState().stepOnce()}
            title="One step (.)"
          >
            Step ›
          </button>
          <select
            className="select"
            aria-label="Speed"
            data-testid="run-speed"
            value={speed}
            onChange={(e) => void store.getState().setSpeed(Number(e.target.value))}
          >
            {SPEEDS.map((s) => (
              <option key={s.value} value={s.value}>
                {s.label}
              </option>
            ))}
          </select>
          <label className="toggle" title="Keep the selected person centred">
            <input
              type="checkbox"
              data-testid="run-follow"
              checked={follow}
              disabled={!selectedAgentId}
              onChange={(e) => store.getState().setFollow(e.target.checked)}
            />
            Follow
          </label>
          {resident ? (
            <button
              type="button"
              className="button"
              data-testid="run-leave"
              onClick={() => void store.getState().leave()}
            >
              Leave
            </button>
          ) : (
            <button
              type="button"
              className="button"
              data-testid="run-join-open"
              onClick={() => setJoining(true)}
            >
              Join…
            </button>
          )}
          <button
            type="button"
            className="button"
            data-testid="run-close"
            disabled={!!pending}
            onClick={() => void store.getState().closeRun()}
            aria-label="Close run"
            title="Close run: stop after the current step, save a snapshot and unload it; it stays in the run library and opens again where it stopped"
          >
            Close
          </button>
        </>
      )}
      {viewStep !== null && (
        <span
          className="run-toolbar__replay"
          data-testid="run-replay"
          title={`The map shows step ${viewStep}, rebuilt from the run's log`}
        >
          Replaying step {viewStep}
        </span>
      )}
      {pending && (
        <span className="run-toolbar__pending" data-testid="run-pending" title={pending}>
          {shortStatus(pending)}
        </span>
      )}
      {joining && <JoinDialog onClose={() => setJoining(false)} />}
    </div>
  );
}

function StatusBar() {
  const { frame, rates, activity, summary, viewStep } = useRun(
    useShallow((s) => ({
      frame: s.frame,
      rates: s.rates,
      activity: s.activity,
      summary: s.summary,
      viewStep: s.viewStep,
    })),
  );
  const describe = useDescribeModel();
  return (
    <div className="run-status-bar" data-testid="run-status-bar">
      <span className="run-status-bar__clock" data-testid="run-clock">
        {frame?.clock ?? summary?.endClock ?? '–'}
      </span>
      <span data-testid="run-step-label">step {frame?.step ?? 0}</span>
      {summary && !isLive(summary) && summary.status !== 'loading' && (
        <span className="run-status-bar__closed" data-testid="run-closed-note">
          {summary.failure
            ? `${failureTitle(summary.failure).toLowerCase()}; see why above`
            : summary.status === 'crashed'
              ? `stopped unexpectedly at step ${summary.steps}; resume from its last snapshot`
              : `closed at step ${summary.steps}; open it to go on`}
        </span>
      )}
      {viewStep === null && isLive(summary) && (
        <>
          <span title="Tokens the model generated per second, over the last 20 s">
            {rates ? compact(rates.tokensPerSecond) : '–'} tok/s
          </span>
          <span
            title="Model calls running, and waiting for the model (while days are planned, one person's calls go first)"
            data-testid="run-calls-in-flight"
          >
            {callsLabel(activity?.calls.length ?? 0, rates?.queueDepth ?? 0)}
          </span>
          {speedFigure(rates) && (
            <span
              data-testid="run-speed-figure"
              title="Real time one game hour took, measured over the game time stepped most recently (shown once 5 game minutes are measured)"
            >
              {speedFigure(rates)}
            </span>
          )}
        </>
      )}
      {summary && (
        <span title="Prompt and generated tokens so far" data-testid="run-tokens">
          {compact(summary.tokens)} tokens
        </span>
      )}
      {summary && (
        <span className="run-status-bar__model" data-testid="run-model">
          {describe(summary.models.chat)}
        </span>
      )}
    </div>
  );
}

/** The run view's shortcuts (shortcuts/registry.ts): Space plays/pauses, "." steps, arrows walk. */
function useKeyboard() {
  const store = useRunStore();
  // A focused button keeps Space and Enter for pressing itself.
  const onControl = (e: KeyboardEvent) => !!(e.target as HTMLElement | null)?.closest('button');
  const live = () => {
    const s = store.getState();
    return s.open && s.runId ? s : null;
  };
  useShortcuts(RUN_SHORTCUTS, {
    'run.togglePlay': (_, e) => {
      const s = live();
      if (!s || onControl(e)) return false;
      void s.togglePlay();
    },
    'run.step': () => {
      const s = live();
      if (!s) return false;
      void s.stepOnce();
    },
    'run.walk': ({ key }) => {
      const s = live();
      const d = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] }[
        key
      ];
      if (!s?.resident || !d) return false;
      void s.nudgeResident(d[0], d[1]);
    },
  });
}
