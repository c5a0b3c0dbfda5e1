/**
 * The run library: the runs on disk under `<dataDir>/runs/<runId>/` and the views of them that
 * only read the disk — the list and each run's summary and status, past frames, the timeline,
 * stats, the town, the event panel's lines and the export's files. None of them waits for the
 * step in progress (main/runs/README.md "Rules"): snapshots appear whole and a log line still
 * being written is left out. The live run's summary and status come from the run service
 * ({@link LiveView}).
 */
import { existsSync, readdirSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import yazl from 'yazl';
import type { ParsedInputOf, RawOutputOf } from '../../common/api/contract';
import { ApiError } from '../../common/api/protocol';
import type { RunsContract, RunStatus, RunSummary } from '../../common/api/runs';
import type { Scenario } from '../../common/scenario/schema';
import { parseScenario } from '../../common/scenario/validate';
import { Clock } from '../engine/sim/Clock';
import { EventLog } from '../engine/sim/EventLog';
import { listCheckpoints } from '../engine/sim/checkpoint';
import { frameAt, timeline as runTimeline } from '../engine/sim/frames';
import { LOG_FILE, SCENARIO_FILE, readRunScenario } from '../engine/sim/runFiles';
import { runStats } from '../engine/sim/stats';
import { LogTally } from './logTally';
import {
  STUDIO_RUN_FILE,
  heldByAnotherProcess,
  readLock,
  readStudioRun,
  runDirOf,
} from './runFolder';

type In<K extends keyof RunsContract['methods']> = ParsedInputOf<RunsContract, K>;
type Out<K extends keyof RunsContract['methods']> = RawOutputOf<RunsContract, K>;

/** The live run as the library shows it. */
export interface LiveView {
  runId: string;
  status: 'running' | 'paused';
  /** Steps done so far. */
  step: number;
}

/** A file of a run folder, for the export. */
export interface RunFile {
  name: string;
  bytes: Buffer;
}

/** The runs under `<dataDir>/runs` and the views that only read them. */
export class RunLibrary {
  readonly runsDir: string;
  private readonly tally = new LogTally();
  private readonly settingsCache = new Map<string, Scenario['settings']>();

  /**
   * @param pid this process's id: a lock naming another living process is not ours to call
   *   crashed
   * @param live the live run of this process, if any
   */
  constructor(
    dataDir: string,
    private readonly pid: number,
    private readonly live: () => LiveView | null,
  ) {
    this.runsDir = path.join(dataDir, 'runs');
  }

  /** The folder of run `runId` (which need not exist). */
  dirOf(runId: string): string {
    return runDirOf(this.runsDir, runId);
  }

  /** The folder of an existing run; a not-found error naming it otherwise. */
  existing(runId: string): string {
    const dir = this.dirOf(runId);
    if (!existsSync(path.join(dir, STUDIO_RUN_FILE))) {
      throw new ApiError({ code: 'not-found', message: `no run "${runId}"` });
    }
    return dir;
  }

  /** Forgets what is cached of a deleted run. */
  forget(runId: string): void {
    this.tally.forget(path.join(this.dirOf(runId), LOG_FILE));
    this.settingsCache.delete(runId);
  }

  async list({ scenarioId }: In<'runs.list'>): Promise<Out<'runs.list'>> {
    if (!existsSync(this.runsDir)) return [];
    const out: RunSummary[] = [];
    for (const entry of readdirSync(this.runsDir, { withFileTypes: true })) {
      if (!entry.isDirectory() || !/^[a-z0-9][a-z0-9-]{0,79}$/.test(entry.name)) continue;
      let summary: RunSummary;
      try {
        summary = this.summaryOf(entry.name);
      } catch {
        // A folder that is not (or no longer) a whole run: a half-deleted one, a stray folder.
        continue;
      }
      if (scenarioId === undefined || summary.scenarioId === scenarioId) out.push(summary);
    }
    return out.sort((a, b) => (a.createdAt < b.createdAt ? 1 : a.createdAt > b.createdAt ? -1 : 0));
  }

  summaryOf(runId: string): RunSummary {
    const dir = this.dirOf(runId);
    const meta = readStudioRun(dir);
    const settings = this.settingsOf(runId, dir);
    const clock = new Clock(settings.startTime, settings.secondsPerStep);
    const totals = this.tally.totals(path.join(dir, LOG_FILE));
    const current = this.live();
    const live = current?.runId === runId ? current : null;
    const snapshots = listCheckpoints(dir);
    const steps = live
      ? live.step
      : Math.max(totals.stepsLogged, snapshots[snapshots.length - 1] ?? 0);
    const firstStep = meta.parent?.step ?? 0;
    return {
      id: runId,
      name: meta.name,
      scenarioName: meta.scenarioName,
      scenarioId: meta.scenarioId,
      createdAt: meta.createdAt,
      parent: meta.parent,
      status: this.statusOf(runId, dir),
      steps,
      startClock: clock.label(clock.gameSecondsAt(firstStep)),
      endClock: clock.label(clock.gameSecondsAt(steps)),
      gameSeconds: clock.gameSecondsAt(steps - firstStep),
      tokens: totals.tokens,
      calls: totals.calls,
      models: meta.models,
      conditions: meta.conditions,
      ...(meta.failure && !live ? { failure: meta.failure } : {}),
    };
  }

  statusOf(runId: string, dir: string): RunStatus {
    const live = this.live();
    if (live?.runId === runId) return live.status;
    const lock = readLock(dir);
    if (!lock) return 'stored';
    // Held elsewhere (another studio on the same data folder): not ours to call crashed. Our
    // own pid with no live run here means an earlier service in this process left it (tests).
    return heldByAnotherProcess(lock, this.pid) ? 'stored' : 'crashed';
  }

  private settingsOf(runId: string, dir: string): Scenario['settings'] {
    let settings = this.settingsCache.get(runId);
    if (!settings) {
      settings = readRunScenario(dir).settings;
      this.settingsCache.set(runId, settings);
    }
    return settings;
  }

  /** The frame after `step` steps rebuilt from disk (a stored run's "now": where it stopped). */
  frame(runId: string, step: number | undefined): Out<'runs.frame'> {
    const dir = this.existing(runId);
    try {
      // Rebuilt from disk, which is safe mid-step: snapshots appear whole (renamed into place)
      // and a log line still being written is left out. A stored run's "now" is where it stopped.
      return { ...frameAt(dir, step ?? this.summaryOf(runId).steps), runId };
    } catch (error) {
      if (error instanceof RangeError) {
        throw new ApiError({ code: 'rejected', message: `run "${runId}": ${error.message}` });
      }
      throw error;
    }
  }

  async timeline({ runId }: In<'runs.timeline'>): Promise<Out<'runs.timeline'>> {
    return runTimeline(this.existing(runId));
  }

  async stats({ runId }: In<'runs.stats'>): Promise<Out<'runs.stats'>> {
    return runStats(this.existing(runId));
  }

  async scenario({ runId }: In<'runs.scenario'>): Promise<Out<'runs.scenario'>> {
    const dir = this.existing(runId);
    try {
      // Written once when the run was created (a fork copies its parent's); never edited after.
      return parseScenario(readRunScenario(dir), path.join(dir, SCENARIO_FILE));
    } catch (error) {
      throw new ApiError({
        code: 'rejected',
        message: `run "${runId}" has no readable town: ${(error as Error).message}`,
      });
    }
  }

  async events(input: In<'runs.events'>): Promise<Out<'runs.events'>> {
    const dir = this.existing(input.runId);
    const file = path.join(dir, LOG_FILE);
    // With types, only those lines are parsed (most of a log is model calls with whole prompts).
    const events = input.types
      ? EventLog.readTypes(file, new Set(input.types))
      : EventLog.read(file).events;
    const types = input.types ? new Set(input.types) : null;
    const out = [];
    for (const e of events) {
      if (e.step < input.fromStep) continue;
      if (input.toStep !== undefined && e.step > input.toStep) continue;
      if (types && !types.has(e.type)) continue;
      out.push(e);
      if (out.length >= input.limit) break;
    }
    return out;
  }
}

/** The files of a run folder for its export: not the lock, nor a torn temp folder. */
export async function runFiles(dir: string): Promise<RunFile[]> {
  const files: RunFile[] = [];
  const walk = async (rel: string) => {
    for (const entry of await readdir(path.join(dir, rel), { withFileTypes: true })) {
      const name = rel ? `${rel}/${entry.name}` : entry.name;
      // Not the lock (it means "live in this process" only here) nor a torn temp folder.
      if (name === 'live.lock' || name.endsWith('.tmp')) continue;
      if (entry.isDirectory()) await walk(name);
      else if (entry.isFile()) files.push({ name, bytes: await readFile(path.join(dir, name)) });
    }
  };
  await walk('');
  return files;
}

/** A zip of a run's files under `<runId>/`, in name order, as `runs.export` returns it. */
export async function zipRun(runId: string, files: RunFile[]): Promise<Out<'runs.export'>> {
  const zip = new yazl.ZipFile();
  for (const f of files.sort((a, b) => (a.name < b.name ? -1 : 1))) {
    zip.addBuffer(f.bytes, `${runId}/${f.name}`);
  }
  zip.end();
  const data = await new Promise<Buffer>((resolve, reject) => {
    const chunks: Buffer[] = [];
    zip.outputStream.on('data', (c: Buffer) => chunks.push(c));
    zip.outputStream.on('error', reject);
    zip.outputStream.on('end', () => resolve(Buffer.concat(chunks)));
  });
  return { fileName: `${runId}.zip`, data: data.toString('base64') };
}
