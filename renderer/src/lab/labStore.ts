/**
 * The Lab's state: the experiments of the open town (with the running one's progress), the
 * report being read, the local models for the form, and the lifestyle policies stored for the
 * town's people. Fed by `lab.*` calls and events; `attach()` subscribes for as long as the Lab
 * is on screen. Created by a factory so tests give it a double of the API.
 */
import { createStore, type StoreApi } from 'zustand/vanilla';
import type { ExperimentProgress, ExperimentSummary, PolicyView } from '../../../common/api/lab';
import type { StudioApi } from '../../../common/api/studio';
import type { InputOf, OutputOf } from '../../../common/api/contract';
import type { ExperimentCellRef, RunStatus, RunSummary } from '../../../common/api/runs';

/** Statuses of a run that holds the simulation process (see main/runs/lab/oneHeavyJob.ts). */
const LIVE_STATUSES: ReadonlySet<RunStatus> = new Set(['loading', 'running', 'paused']);
import type { StudioContract } from '../../../common/api/studio';
import { reportFailures } from '../util/reportFailures';

export type LabApi = Pick<StudioApi, 'lab' | 'models'> & {
  runs: Pick<StudioApi['runs'], 'list' | 'close' | 'fork' | 'onDidChangeStatus'>;
};
export type CreateExperimentInput = InputOf<StudioContract, 'lab.createExperiment'>;
export type InterviewInput = InputOf<StudioContract, 'lab.interviewRun'>;
export type InterviewResult = OutputOf<StudioContract, 'lab.interviewRun'> & { runId: string };

export interface LabDeps {
  api: LabApi;
  reportError(title: string, err: unknown): void;
  showToast(message: string): void;
  /** Shows a run that just became live (a forked cell) in the run view. */
  showRun(summary: RunSummary): void;
}

export interface ReportFiles {
  id: string;
  html: string;
  csv: string;
  json: string;
}

export interface PersonaPolicies {
  key: string;
  personaId: string | null;
  policies: PolicyView[];
  error: string | null;
}

export interface LabState {
  scenarioId: string | null;
  /** List every experiment in the data folder, not only this town's. */
  showAll: boolean;
  experiments: ExperimentSummary[];
  loaded: boolean;
  /** Progress of running experiments by id (the latest event). */
  progress: Record<string, ExperimentProgress>;
  /** The experiment shown on the right. */
  selected: string | null;
  report: ReportFiles | null;
  reportLoading: boolean;
  /** Local models for the form. */
  models: { path: string; name: string; kind: 'chat' | 'embedding' }[];
  /** The models folder (named by the empty state, as one way to add a model). */
  modelsDir: string;
  modelsLoaded: boolean;
  policies: { folder: string; personas: PersonaPolicies[] } | null;
  /** A call in flight that the buttons wait for. */
  pending: string | null;
  /** Stored runs of the town, for the interview battery. */
  runs: RunSummary[];
  /**
   * The live run of any town (loading, running or paused), or null: while there is one the
   * simulation process refuses experiments, so the Lab says which and offers to close it.
   */
  liveRun: RunSummary | null;
  interview: InterviewResult | null;

  attach(): () => void;
  load(scenarioId: string | null): Promise<void>;
  setShowAll(showAll: boolean): Promise<void>;
  loadModels(): Promise<void>;
  select(id: string | null): void;
  create(input: CreateExperimentInput): Promise<boolean>;
  start(id: string): Promise<void>;
  cancel(id: string): Promise<void>;
  remove(id: string): Promise<void>;
  openReport(id: string): Promise<void>;
  loadRuns(scenarioId: string): Promise<void>;
  interviewRun(input: InterviewInput): Promise<void>;
  /**
   * Opens an experiment cell in the run view: forks it (its latest snapshot, or the latest at or
   * before `step`) into an ordinary run, since running the cell itself would change the
   * experiment's results; the run view then shows the new run.
   */
  openCell(source: ExperimentCellRef, step?: number): Promise<void>;
  /** Closes the town's live run (snapshot written) so Lab jobs can use the model. */
  closeLiveRun(runId: string): Promise<void>;
  loadPolicies(scenarioId: string, personaIds: string[]): Promise<void>;
  clearPolicies(scenarioId: string, personaIds: string[], personaId?: string): Promise<void>;
}

export type LabStore = StoreApi<LabState>;

/** The `pending` key of opening a cell ("open:<experiment>/<condition>/<seed>"). */
export function cellKeyOf(c: ExperimentCellRef): string {
  return `${c.experimentId}/${c.condition}/${c.seed}`;
}

export function createLabStore(deps: LabDeps): LabStore {
  const { api } = deps;
  const attempt = reportFailures(deps.reportError);

  const store = createStore<LabState>()((set, get) => {
    /** Puts a summary in the list (in place, or first when new and of this town). */
    const upsert = (summary: ExperimentSummary) => {
      const s = get();
      const belongs = s.showAll || s.scenarioId === null || summary.scenarioId === s.scenarioId;
      const i = s.experiments.findIndex((e) => e.id === summary.id);
      if (i >= 0) {
        const experiments = s.experiments.slice();
        experiments[i] = summary;
        set({ experiments });
      } else if (belongs) {
        set({ experiments: [summary, ...s.experiments] });
      }
      if (summary.status !== 'running' && s.progress[summary.id]) {
        const progress = { ...s.progress };
        delete progress[summary.id];
        set({ progress });
      }
    };

    return {
      scenarioId: null,
      showAll: false,
      experiments: [],
      loaded: false,
      progress: {},
      selected: null,
      report: null,
      reportLoading: false,
      models: [],
      modelsDir: '',
      modelsLoaded: false,
      policies: null,
      pending: null,
      runs: [],
      liveRun: null,
      interview: null,

      attach() {
        const offs = [
          // A run opened, closed or crashed elsewhere: the live banner and the interview list follow.
          api.runs.onDidChangeStatus(() => {
            const scenarioId = get().scenarioId;
            if (scenarioId) void get().loadRuns(scenarioId);
          }),
          api.lab.onDidExperimentProgress((p) =>
            set((s) => ({ progress: { ...s.progress, [p.id]: p } })),
          ),
          api.lab.onDidChangeExperiment((summary) => {
            const was = get().experiments.find((e) => e.id === summary.id)?.status;
            upsert(summary);
            if (was === 'running' && summary.status === 'done') {
              deps.showToast(`Experiment “${summary.name}” finished: its report is ready`);
              if (get().selected === summary.id) void get().openReport(summary.id);
            } else if (was === 'running' && summary.status === 'incomplete' && summary.message) {
              deps.showToast(`Experiment “${summary.name}” stopped: ${summary.message}`);
            }
          }),
        ];
        return () => offs.forEach((off) => off());
      },

      async load(scenarioId) {
        if (scenarioId !== get().scenarioId) {
          set({ scenarioId, experiments: [], loaded: false, selected: null, report: null });
        }
        const showAll = get().showAll;
        const list = await attempt('Could not list experiments', () =>
          api.lab.listExperiments(scenarioId && !showAll ? { scenarioId } : {}),
        );
        if (list && get().scenarioId === scenarioId && get().showAll === showAll) {
          set({ experiments: list, loaded: true });
        }
      },

      async setShowAll(showAll) {
        set({ showAll });
        await get().load(get().scenarioId);
      },

      async loadModels() {
        const local = await attempt('Could not list local models', () => api.models.local({}));
        if (!local) return;
        set({
          models: local.models.map((m) => ({ path: m.path, name: m.name, kind: m.kind })),
          modelsDir: local.modelsDir,
          modelsLoaded: true,
        });
      },

      select(id) {
        set({ selected: id, report: get().report?.id === id ? get().report : null });
        const summary = get().experiments.find((e) => e.id === id);
        if (id && summary?.hasReport) void get().openReport(id);
      },

      async create(input) {
        set({ pending: 'create' });
        const summary = await attempt('Could not start the experiment', () =>
          api.lab.createExperiment(input),
        );
        set({ pending: null });
        if (!summary) return false;
        upsert(summary);
        set({ selected: summary.id, report: null });
        return true;
      },

      async start(id) {
        set({ pending: `start:${id}` });
        const summary = await attempt('Could not resume the experiment', () =>
          api.lab.startExperiment({ id }),
        );
        set({ pending: null });
        if (summary) upsert(summary);
      },

      async cancel(id) {
        const r = await attempt('Could not cancel the experiment', () =>
          api.lab.cancelExperiment({ id }),
        );
        if (r?.cancelling) deps.showToast('Cancelling after the current step…');
      },

      async remove(id) {
        const ok = await attempt('Could not delete the experiment', () =>
          api.lab.deleteExperiment({ id }),
        );
        if (!ok) return;
        set((s) => ({
          experiments: s.experiments.filter((e) => e.id !== id),
          selected: s.selected === id ? null : s.selected,
          report: s.report?.id === id ? null : s.report,
        }));
      },

      async openReport(id) {
        set({ reportLoading: true });
        const files = await attempt('Could not open the report', () =>
          api.lab.experimentReport({ id }),
        );
        set({ reportLoading: false });
        if (files && get().selected === id) set({ report: { id, ...files } });
      },

      async loadRuns(scenarioId) {
        // Every town's runs: the live one may belong to another town.
        const all = await attempt('Could not list runs', () => api.runs.list({}));
        if (all)
          set({
            runs: all.filter((r) => r.scenarioId === scenarioId),
            liveRun: all.find((r) => LIVE_STATUSES.has(r.status)) ?? null,
          });
      },

      async interviewRun(input) {
        set({ pending: 'interview' });
        const out = await attempt('Could not interview the run', () => api.lab.interviewRun(input));
        set({ pending: null });
        if (out) set({ interview: { ...out, runId: input.runId } });
      },

      async openCell(source, step) {
        set({ pending: `open:${cellKeyOf(source)}` });
        const summary = await attempt('Could not open the cell in the run view', () =>
          api.runs.fork(step === undefined ? { source } : { source, step }),
        );
        set({ pending: null });
        if (!summary) return;
        deps.showRun(summary);
        deps.showToast(
          `Opened “${summary.name}” from step ${summary.parent?.step ?? 0} as a new run; the experiment is unchanged.`,
        );
      },

      async closeLiveRun(runId) {
        set({ pending: `close:${runId}` });
        const closed = await attempt('Could not close the run', () => api.runs.close({ runId }));
        set({ pending: null });
        if (closed) set((s) => ({ runs: s.runs.map((r) => (r.id === runId ? closed : r)) }));
      },

      async loadPolicies(scenarioId, personaIds) {
        const list = await attempt('Could not list lifestyle policies', () =>
          api.lab.listPolicies({ scenarioId, personaIds }),
        );
        if (list) set({ policies: list });
      },

      async clearPolicies(scenarioId, personaIds, personaId) {
        const r = await attempt('Could not clear lifestyle policies', () =>
          api.lab.clearPolicies(personaId ? { scenarioId, personaId } : { scenarioId }),
        );
        if (!r) return;
        deps.showToast(`Cleared ${r.cleared} lifestyle polic${r.cleared === 1 ? 'y' : 'ies'}`);
        await get().loadPolicies(scenarioId, personaIds);
      },
    };
  });
  return store;
}
