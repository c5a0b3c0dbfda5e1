/**
 * The Lab: experiments on the open town (new experiment form, the list, the selected one's
 * progress and report) and the lifestyle policies its people have learned. Replaces the main
 * area while open (the header's Lab button); experiments keep running in the simulation
 * process when it is closed, and the list picks their state up again on return.
 */
import { useEffect, useState } from 'react';
import { useStore } from 'zustand';
import { studio } from '../api/studio';
import { useStudio, useStudioStore } from '../stores/studioStore';
import { ExperimentDetail, ExperimentList } from './Experiments';
import { ExperimentForm } from './ExperimentForm';
import { useRunStore } from '../run/RunProvider';
import { createLabStore } from './labStore';
import { useLabNav } from './labNav';
import { InterviewPanel } from './InterviewPanel';
import { PoliciesPanel } from './PoliciesPanel';
import './lab.css';

export function LabView() {
  const studioStore = useStudioStore();
  const runStore = useRunStore();
  const [store] = useState(() =>
    createLabStore({
      api: studio,
      reportError: (title, err) => studioStore.getState().reportError(title, err),
      showToast: (message) => studioStore.getState().showToast(message),
      showRun: (summary) => {
        void runStore.getState().watchRun(summary);
        useLabNav.getState().setOpen(false);
      },
    }),
  );
  const lab = useStore(store);
  const doc = useStudio((s) => s.doc);
  const docId = doc?.id ?? null;
  const personaKey = doc?.personas.map((p) => p.id).join('|') ?? '';

  useEffect(() => store.getState().attach(), [store]);
  useEffect(() => void store.getState().loadModels(), [store]);
  useEffect(() => void store.getState().load(docId), [store, docId]);
  useEffect(() => {
    if (docId) void store.getState().loadRuns(docId);
  }, [store, docId]);
  useEffect(() => {
    if (docId) void store.getState().loadPolicies(docId, personaKey ? personaKey.split('|') : []);
  }, [store, docId, personaKey]);

  if (!doc) return null;
  const selected = lab.experiments.find((e) => e.id === lab.selected) ?? null;
  const live = lab.liveRun;
  return (
    <main className="main lab" data-testid="lab-view">
      <div className="lab__left">
        {live && (
          <div className="lab-live" data-testid="lab-live-run">
            <span>
              Run “{live.name}”{live.scenarioId !== doc.id ? ` (of “${live.scenarioName}”)` : ''} is
              live. The simulation process does one model job at a time: experiments and interviews
              wait until it is closed.
            </span>
            <button
              type="button"
              className="button"
              data-testid="lab-close-run"
              disabled={lab.pending === `close:${live.id}`}
              onClick={() => void lab.closeLiveRun(live.id)}
            >
              Close the run
            </button>
          </div>
        )}
        <ExperimentForm doc={doc} lab={lab} />
        <div className="lab-detail__head">
          <h3 className="lab__heading">Experiments</h3>
          <span className="run-toolbar__spacer" />
          <label className="lab-models__row muted">
            <input
              type="checkbox"
              data-testid="lab-show-all"
              checked={lab.showAll}
              onChange={(e) => void lab.setShowAll(e.target.checked)}
            />
            every town (and the command line’s)
          </label>
        </div>
        <ExperimentList lab={lab} />
        <InterviewPanel doc={doc} lab={lab} />
        <PoliciesPanel doc={doc} lab={lab} />
      </div>
      <div className="lab__right">
        {selected ? (
          <ExperimentDetail
            key={selected.id}
            summary={selected}
            lab={lab}
            canOpenCells={selected.resumable && selected.scenarioId === doc.id}
          />
        ) : (
          <div className="lab__placeholder muted">
            Pick an experiment to see its progress and its report: a cost table with ratios to the
            baseline, diffusion curves, a relationship heatmap and interview answers side by side.
          </div>
        )}
      </div>
    </main>
  );
}
