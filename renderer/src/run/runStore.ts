/**
 * The run view's store: the runs of the open scenario, the one run being watched (live or
 * replayed), its frames, the selected agent, interventions, timeline, charts and the user's
 * resident. A vanilla zustand store built over the `runs.*` / `models.*` API so tests drive it
 * with a double; `attach()` subscribes to the run events once for the whole window, so a run
 * keeps being followed while the user edits elsewhere.
 *
 * This file holds the runs themselves (library, watching, playback, scrubbing, forks, the log,
 * the timeline, bookmarks); the actions about people are in agentActions.ts, the start dialog's
 * models in modelActions.ts, and the state's shape in runState.ts.
 */
import { createStore } from 'zustand/vanilla';
import type { RunFrame, RunFailure, RunSummary } from '../../../common/api/runs';
import type { Scenario } from '../../../common/scenario/schema';
import { base64ToBytes } from '../util/base64';
import { errorMessage, reportFailures } from '../util/reportFailures';
import { agentActions } from './agentActions';
import { EVENT_PANEL_LIMIT, PANEL_EVENT_TYPES, eventEntries, namesFromLog } from './eventEntries';
import { modelActions } from './modelActions';
import { kindLabel } from './names';
import { growTimeline, nextBubbles, ownGameSeconds } from './runFrames';
import {
  CLOSED_RUN_NOTE,
  isLive,
  type RunDeps,
  type RunState,
  type RunStore,
  type ProgressEvent,
  type RunStoreContext,
  type StatusEvent,
  type StepEvent,
} from './runState';

/** How many runs' towns the store keeps read (switching between them costs no request). */
export const TOWN_CACHE_RUNS = 8;

export function createRunStore(deps: RunDeps): RunStore {
  const { api } = deps;
  // Timeline scrubbing: whether a frame request is out, and the step wanted after it.
  const scrub: { inFlight: boolean; wanted: number | null } = { inFlight: false, wanted: null };
  let eventsTimer: ReturnType<typeof setTimeout> | null = null;
  // The event panel reads the log incrementally: the last step it has read (per run).
  let eventsCursor = { runId: '', step: -2 };
  // Residents who joined (by the log's join lines), named after they left the map.
  let logNames = { runId: '', names: new Map<string, string>() };
  // Each run's town, read once: a run's scenario.json never changes after it starts.
  const towns = new Map<string, Scenario>();

  const store = createStore<RunState>()((set, get) => {
    const guarded = reportFailures(deps.reportError);

    const context: RunStoreContext = { set, get, deps, guarded };
    const people = agentActions(context);
    const models = modelActions(context);
    function upsertSummary(summary: RunSummary) {
      set((s) => {
        const listed = s.runs.some((r) => r.id === summary.id);
        const belongs = s.scenarioId === null || summary.scenarioId === s.scenarioId;
        return {
          runs: listed
            ? s.runs.map((r) => (r.id === summary.id ? summary : r))
            : belongs
              ? [summary, ...s.runs]
              : s.runs,
          summary: s.runId === summary.id ? summary : s.summary,
        };
      });
    }

    /** Reads the watched run's town unless it is known already. */
    async function loadTown(runId: string) {
      const known = towns.get(runId);
      if (known) {
        towns.delete(runId); // now the most recently looked at
        towns.set(runId, known);
        return;
      }
      try {
        const town = await api.runs.scenario({ runId });
        towns.set(runId, town);
        // A big town is megabytes: keep the few runs looked at last (oldest first in a Map).
        for (const old of towns.keys()) {
          if (towns.size <= TOWN_CACHE_RUNS) break;
          if (old !== runId) towns.delete(old);
        }
        if (get().runId === runId) set({ town, townError: null });
      } catch (err) {
        if (get().runId !== runId) return;
        set({ townError: errorMessage(err) });
        deps.reportError("Could not read the run's town", err);
      }
    }

    /** Starts watching `summary`'s run at `frame`. */
    async function watch(summary: RunSummary, frame: RunFrame | null) {
      upsertSummary(summary);
      eventsCursor = { runId: '', step: -2 };
      set({
        open: true,
        runId: summary.id,
        summary,
        town: towns.get(summary.id) ?? null,
        townError: null,
        liveFrame: frame,
        frame,
        viewStep: null,
        rates: null,
        activity: null,
        bubbles: [],
        timeline: null,
        events: [],
        stats: null,
        agent: null,
        interview: null,
        resident: null,
        bookmarks: [],
      });
      void loadTown(summary.id);
      const bookmarks = await deps.bookmarks.list(summary.id).catch(() => []);
      if (get().runId === summary.id) set({ bookmarks });
      if (!frame) {
        const f = await guarded('Could not show the run', () =>
          api.runs.frame({ runId: summary.id }),
        );
        if (f && get().runId === summary.id) set({ liveFrame: f, frame: f });
      }
      void get().loadTimeline();
      void get().loadEvents();
      const selected = get().selectedAgentId;
      if (selected && !get().frame?.agents.some((a) => a.id === selected))
        set({ selectedAgentId: null });
      else if (selected) void get().refreshAgent();
    }

    function scheduleEvents() {
      if (eventsTimer) return;
      eventsTimer = setTimeout(() => {
        eventsTimer = null;
        void get().loadEvents();
      }, 250);
    }

    function onStep(e: StepEvent) {
      const s = get();
      if (e.runId !== s.runId) return;
      const following = s.viewStep === null;
      set({
        liveFrame: e.frame,
        frame: following ? e.frame : s.frame,
        rates: e.rates,
        bubbles: nextBubbles(s.bubbles, e.frame, e.chats),
        timeline: growTimeline(s.timeline, e.frame.step),
        summary: s.summary
          ? {
              ...s.summary,
              steps: Math.max(s.summary.steps, e.frame.step),
              tokens: e.rates.tokens,
              calls: e.rates.calls,
            }
          : null,
        runs: s.runs.map((r) =>
          r.id === e.runId
            ? {
                ...r,
                steps: Math.max(r.steps, e.frame.step),
                gameSeconds: ownGameSeconds(e.frame, r.parent?.step ?? 0),
              }
            : r,
        ),
      });
      for (const i of e.interventions)
        if (!i.ok)
          deps.reportError(`“${kindLabel(i.name)}” was not applied`, { message: i.error ?? '' });
      if (e.interventions.length) scheduleEvents();
      if (following) people.scheduleRefresh();
    }

    /**
     * While the live run works: what it is doing, its figures, and everyone where they are now
     * (possibly steps ahead of the last written record, which the timeline follows).
     */
    function onProgress(e: ProgressEvent) {
      const s = get();
      if (e.runId !== s.runId) return;
      const following = s.viewStep === null;
      const working = e.activity.work !== null || e.activity.calls.length > 0;
      set({
        liveFrame: e.frame,
        frame: following ? e.frame : s.frame,
        rates: e.rates,
        activity: working || e.activity.waiting.length > 0 ? e.activity : null,
        summary: s.summary ? { ...s.summary, tokens: e.rates.tokens, calls: e.rates.calls } : null,
        runs: s.runs.map((r) =>
          r.id === e.runId ? { ...r, tokens: e.rates.tokens, calls: e.rates.calls } : r,
        ),
      });
    }

    /**
     * A run's new status; a failure is kept with it (library row, run view) until the run is
     * loaded again, which clears it.
     */
    function setStatus(runId: string, status: RunSummary['status'], failure?: RunFailure) {
      const patch = (r: RunSummary): RunSummary => {
        if (failure) return { ...r, status, failure };
        if (status === 'stored' || status === 'crashed') return { ...r, status };
        const { failure: _cleared, ...rest } = r;
        return { ...rest, status };
      };
      set((s) => ({
        runs: s.runs.map((r) => (r.id === runId ? patch(r) : r)),
        summary: s.summary?.id === runId ? patch(s.summary) : s.summary,
      }));
    }

    function onStatus(e: StatusEvent) {
      setStatus(e.runId, e.status, e.failure);
      if (e.runId === get().runId && (e.status === 'stored' || e.status === 'crashed'))
        set({ activity: null });
      // A run failing out of sight (the editor is open, or another run is watched) says so.
      const s = get();
      if (e.failure && e.failure.phase !== 'start' && (!s.open || s.runId !== e.runId)) {
        const name = s.runs.find((r) => r.id === e.runId)?.name ?? 'A run';
        deps.reportError(`${name} stopped`, {
          message: `${e.failure.reason} — ${e.failure.remedy}`,
        });
      }
      if (e.failure && e.runId === s.runId) scheduleEvents();
      // The library's figures (steps, tokens, game time) are current whenever a run stops.
      if (e.status !== 'running' && e.status !== 'loading') void get().loadRuns(get().scenarioId);
      if (e.status === 'crashed')
        deps.reportError('The simulation stopped', {
          message:
            e.message ??
            'The simulation process ended unexpectedly. Resume continues from the last snapshot.',
        });
      if (e.runId === get().runId && (e.status === 'paused' || e.status === 'stored'))
        void get().loadTimeline();
    }

    return {
      open: false,
      startDialogOpen: false,
      scenarioId: null,
      runs: [],
      runsLoaded: false,
      runId: null,
      summary: null,
      town: null,
      townError: null,
      liveFrame: null,
      frame: null,
      viewStep: null,
      timeline: null,
      rates: null,
      activity: null,
      bubbles: [],
      speed: 0,
      pending: null,
      startError: null,
      selectedAgentId: null,
      follow: false,
      agent: null,
      agentError: null,
      interview: null,
      events: [],
      bookmarks: [],
      stats: null,
      resident: null,
      ...models.actions,
      ...people.actions,

      attach() {
        const offs = [
          api.runs.onDidStep(onStep),
          api.runs.onDidProgress(onProgress),
          api.runs.onDidChangeStatus(onStatus),
          models.followDownload(),
        ];
        return () => {
          for (const off of offs) off();
          people.dispose();
          if (eventsTimer) clearTimeout(eventsTimer);
          eventsTimer = null;
        };
      },

      setOpen(open) {
        set({ open });
      },

      async loadRuns(scenarioId) {
        if (scenarioId !== get().scenarioId) set({ scenarioId, runs: [], runsLoaded: false });
        const runs = await guarded('Could not list the runs', () =>
          api.runs.list(scenarioId ? { scenarioId } : {}),
        );
        if (runs && get().scenarioId === scenarioId)
          set((s) => ({
            runs: [...runs].sort((a, b) => b.createdAt.localeCompare(a.createdAt)),
            runsLoaded: true,
            // The watched run's figures (tokens, calls) come with the listing.
            summary: runs.find((r) => r.id === s.runId) ?? s.summary,
          }));
      },

      async startRun(opts) {
        set({ pending: 'Loading the models…', startError: null });
        try {
          let summary: RunSummary;
          try {
            summary = await api.runs.create({
              scenario: opts.scenario,
              scenarioId: opts.scenarioId,
              name: opts.name || undefined,
              chatModelPath: opts.chatModelPath,
              chatServer: opts.chatServer,
              embeddingModelPath: opts.embeddingModelPath,
              embeddingServer: opts.embeddingServer,
              startTime: opts.startTime || undefined,
              conditions: opts.conditions,
            });
          } catch (err) {
            // Said in the start dialog, beside the choices that can fix it.
            set({ startError: errorMessage(err) });
            return false;
          }
          await watch(summary, null);
          if (opts.playAt !== null) {
            set({ speed: opts.playAt });
            await get().play();
          }
          return true;
        } finally {
          set({ pending: null });
        }
      },

      async openRun(runId) {
        if (
          get().runId === runId &&
          get().summary?.status !== 'stored' &&
          get().summary?.status !== 'crashed'
        ) {
          set({ open: true });
          return;
        }
        set({ pending: 'Opening the run…' });
        try {
          const opened = await guarded('Could not open the run', () => api.runs.open({ runId }));
          if (opened) await watch(opened.summary, opened.frame);
        } finally {
          set({ pending: null });
        }
      },

      async watchRun(summary) {
        await watch(summary, null);
      },

      async closeRun() {
        const runId = get().runId;
        if (!runId || get().pending) return;
        // The service stops after the step in progress (a model call can take a while).
        set({ pending: 'Closing the run…' });
        let summary: RunSummary | undefined;
        try {
          summary = await guarded('Could not close the run', () => api.runs.close({ runId }));
        } finally {
          set({ pending: null });
        }
        if (!summary || get().runId !== runId) return;
        upsertSummary(summary);
        // Still watched, now from disk: the frame it stopped at, its timeline and its log. What
        // needs the live run (inspector details, an interview, the resident) is let go.
        const stoppedAt = summary.steps;
        set((s) => ({
          rates: null,
          activity: null,
          agent: null,
          agentError: s.selectedAgentId ? CLOSED_RUN_NOTE : null,
          interview: s.selectedAgentId ? { agentId: s.selectedAgentId, lines: [] } : null,
          resident: null,
          bubbles: [],
          timeline: growTimeline(s.timeline, stoppedAt),
        }));
        void get().loadTimeline();
      },

      async play() {
        const runId = get().runId;
        if (!runId || !isLive(get().summary)) return;
        if (get().viewStep !== null) set({ viewStep: null, frame: get().liveFrame });
        const ok = await guarded('Could not play the run', () =>
          api.runs.play({ runId, stepsPerSecond: get().speed }),
        );
        if (ok) setStatus(runId, 'running');
      },

      async pause() {
        const runId = get().runId;
        if (!runId) return;
        // The run stops after the step in progress, which can take a while (a model call).
        set({ pending: 'Pausing after this step…' });
        const frame = await guarded('Could not pause the run', () =>
          api.runs.pause({ runId }),
        ).finally(() => set({ pending: null }));
        if (frame && get().runId === runId) {
          // Answered: the run is paused (its status event may trail the answer).
          setStatus(runId, 'paused');
          set((s) => ({
            liveFrame: frame,
            frame: s.viewStep === null ? frame : s.frame,
            timeline: growTimeline(s.timeline, frame.step),
          }));
          void get().loadTimeline();
        }
      },

      async togglePlay() {
        if (get().summary?.status === 'running') await get().pause();
        else await get().play();
      },

      async stepOnce(steps = 1) {
        const runId = get().runId;
        if (!runId || get().pending || !isLive(get().summary)) return;
        if (get().summary?.status === 'running') await get().pause();
        set({ pending: 'Stepping…', viewStep: null });
        try {
          let frame: RunFrame | undefined;
          try {
            frame = await api.runs.step({ runId, steps });
          } catch (err) {
            // A failed step arrives as a status event first and is shown in the run view (why,
            // what to do); only an error that is not a run failure needs a notice.
            if (!get().summary?.failure) deps.reportError('Could not step the run', err);
          }
          if (frame && get().runId === runId)
            set((s) => ({
              liveFrame: frame,
              frame,
              timeline: growTimeline(s.timeline, frame.step),
            }));
        } finally {
          set({ pending: null });
        }
        void get().refreshAgent();
        void get().loadRuns(get().scenarioId);
      },

      async setSpeed(stepsPerSecond) {
        set({ speed: stepsPerSecond });
        if (get().summary?.status === 'running') await get().play();
      },

      async scrub(step) {
        const runId = get().runId;
        if (!runId) return;
        const live = get().liveFrame;
        if (step === null || (live && step >= live.step)) {
          scrub.wanted = null;
          set({ viewStep: null, frame: live });
          return;
        }
        set({ viewStep: step });
        // Dragging the timeline asks for many steps; past frames are rebuilt from the log, so
        // at most one request is in flight and only the latest wish is asked for next.
        scrub.wanted = step;
        if (scrub.inFlight) return;
        scrub.inFlight = true;
        try {
          while (scrub.wanted !== null && get().runId === runId) {
            const want = scrub.wanted;
            scrub.wanted = null;
            const frame = await guarded(`Could not rebuild step ${want}`, () =>
              api.runs.frame({ runId, step: want }),
            );
            if (frame && get().runId === runId && get().viewStep === want) set({ frame });
          }
        } finally {
          scrub.inFlight = false;
        }
      },

      async fork(step, choices = {}) {
        const runId = get().runId;
        if (!runId) return false;
        set({ pending: 'Forking…' });
        try {
          const summary = await guarded('Could not fork the run', () =>
            api.runs.fork({ runId, step, ...choices }),
          );
          if (!summary) return false;
          await watch(summary, null);
          deps.showToast(`Forked “${summary.name}” from step ${summary.parent?.step ?? step}.`);
          return true;
        } finally {
          set({ pending: null });
        }
      },

      async deleteRun(runId) {
        const known = get().runs.find((r) => r.id === runId) ?? get().summary;
        const live = known?.id === runId && ['running', 'paused', 'loading'].includes(known.status);
        // A live run is closed first (its snapshot written), as the service requires.
        if (live && !(await guarded('Could not close the run', () => api.runs.close({ runId }))))
          return;
        const ok = await guarded('Could not delete the run', () => api.runs.delete({ runId }));
        if (!ok) return;
        await deps.bookmarks.removeRun(runId).catch(() => undefined);
        towns.delete(runId);
        set((s) => ({ runs: s.runs.filter((r) => r.id !== runId) }));
        if (get().runId === runId)
          set({
            runId: null,
            summary: null,
            town: null,
            frame: null,
            liveFrame: null,
            timeline: null,
          });
      },

      async exportRun(runId) {
        const zip = await guarded('Could not export the run', () => api.runs.export({ runId }));
        return zip ? { fileName: zip.fileName, bytes: base64ToBytes(zip.data) } : null;
      },

      async loadEvents() {
        const runId = get().runId;
        if (!runId) return;
        if (eventsCursor.runId !== runId) eventsCursor = { runId, step: -2 };
        const fromStep = eventsCursor.step + 1;
        const events = await guarded('Could not read the event log', () =>
          api.runs.events({ runId, fromStep, types: PANEL_EVENT_TYPES, limit: 10_000 }),
        );
        if (!events || get().runId !== runId || eventsCursor.runId !== runId) return;
        // Re-read the last step next time: it may still gain lines (an interview mid-step).
        const last = events.at(-1)?.step;
        if (last !== undefined) eventsCursor = { runId, step: Math.max(-2, last - 1) };
        // Names for ids: the people on the map, and residents the log saw join (gone once left).
        if (logNames.runId !== runId) logNames = { runId, names: new Map() };
        for (const [id, name] of namesFromLog(events)) logNames.names.set(id, name);
        const names = new Map(logNames.names);
        for (const a of get().liveFrame?.agents ?? []) names.set(a.id, a.name);
        const fresh = eventEntries(events, names);
        set((s) => ({
          events: [...s.events.filter((x) => x.step < fromStep), ...fresh].slice(
            -EVENT_PANEL_LIMIT,
          ),
        }));
      },

      async loadTimeline() {
        const runId = get().runId;
        if (!runId) return;
        const timeline = await guarded('Could not read the timeline', () =>
          api.runs.timeline({ runId }),
        );
        if (timeline && get().runId === runId)
          set((s) => ({
            timeline: {
              ...timeline,
              steps: Math.max(timeline.steps, s.liveFrame?.step ?? 0),
            },
          }));
      },

      async loadStats() {
        const runId = get().runId;
        if (!runId) return;
        const stats = await guarded('Could not compute the charts', () =>
          api.runs.stats({ runId }),
        );
        if (stats && get().runId === runId) set({ stats });
      },

      async addBookmark(label) {
        const { runId, frame } = get();
        if (!runId || !frame) return;
        const bookmark = await guarded('Could not save the bookmark', () =>
          deps.bookmarks.add(runId, frame.step, label),
        );
        if (bookmark && get().runId === runId)
          set((s) => ({
            bookmarks: [...s.bookmarks, bookmark].sort((a, b) => a.step - b.step || a.id - b.id),
          }));
      },

      async removeBookmark(id) {
        await guarded('Could not remove the bookmark', () => deps.bookmarks.remove(id));
        set((s) => ({ bookmarks: s.bookmarks.filter((b) => b.id !== id) }));
      },
    };
  });
  return store;
}
