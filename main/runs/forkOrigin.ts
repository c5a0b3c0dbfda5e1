/**
 * Where a fork (`runs.fork`) starts from: a snapshot of another run, or of an experiment cell
 * (lab/experimentCell.ts), and what the new run's studio-run.json takes from it — its base
 * (name, scenario, models, conditions) and its parent.
 */
import { ApiError } from '../../common/api/protocol';
import type { ExperimentCellRef } from '../../common/api/runs';
import { listCheckpoints } from '../engine/sim/checkpoint';
import { experimentCell } from './lab/experimentCell';
import { readStudioRun, type StudioRun } from './runFolder';

/** What a fork starts from: the folder and snapshot, and the new run's studio-run.json base. */
export interface ForkOrigin {
  fromDir: string;
  at: number;
  base: Omit<StudioRun, 'createdAt' | 'parent'>;
  parent: NonNullable<StudioRun['parent']>;
}

/**
 * Forking another run (in `fromDir`) from its latest snapshot at or before `step`; "fork from
 * now" on the live run has the run service snapshot it first.
 */
export function runForkOrigin(fromDir: string, runId: string, step: number): ForkOrigin {
  const at = snapshotAtOrBefore(fromDir, step, `run "${runId}"`);
  const parentMeta = readStudioRun(fromDir);
  return {
    fromDir,
    at,
    base: { ...parentMeta, name: `${parentMeta.name} (fork at step ${at})` },
    parent: { runId, step: at },
  };
}

/**
 * Forking an experiment cell: its folder is only read (Simulation.fork copies the snapshot and
 * the scenario), so the experiment's results and resume stay as they were.
 */
export function cellForkOrigin(
  dataDir: string,
  input: { source: ExperimentCellRef; step?: number },
): ForkOrigin {
  const cell = experimentCell(dataDir, input.source);
  const { experimentId, condition, seed } = input.source;
  const at = snapshotAtOrBefore(
    cell.dir,
    input.step ?? Number.MAX_SAFE_INTEGER,
    `cell ${condition} · seed ${seed} of experiment "${experimentId}"`,
  );
  return { fromDir: cell.dir, at, base: cell.meta, parent: { ...input.source, step: at } };
}

/** The latest snapshot of `dir` at or before `step`, or an error naming `what`. */
function snapshotAtOrBefore(dir: string, step: number, what: string): number {
  const at = listCheckpoints(dir)
    .filter((s) => s <= step)
    .at(-1);
  if (at === undefined) {
    throw new ApiError({
      code: 'rejected',
      message:
        step === Number.MAX_SAFE_INTEGER
          ? `${what} has no snapshot yet`
          : `${what} has no snapshot at or before step ${step}`,
    });
  }
  return at;
}
