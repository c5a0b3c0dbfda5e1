/**
 * An experiment cell as the source of a fork: where its run folder is and what the new run's
 * studio-run.json says about it. Only reads: the cell belongs to the experiment (its results and
 * its resume depend on the folder as the runner left it), so it is forked, never opened.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { ExperimentCellRef } from '../../../common/api/runs';
import { ApiError } from '../../../common/api/protocol';
import type { Scenario } from '../../../common/scenario/schema';
import { readRunInfo } from '../../engine/sim/Simulation';
import { RUN_FILE, SCENARIO_FILE } from '../../engine/sim/runFiles';
import type { StudioRun } from '../runFolder';
import { LAB_FILE, labFileSchema } from './labFile';

export interface ExperimentCell {
  /** The cell's run folder. */
  dir: string;
  /** studio-run.json of a fork of it, but for `createdAt` and the parent's step. */
  meta: Omit<StudioRun, 'createdAt' | 'parent'>;
}

const rejected = (message: string) => new ApiError({ code: 'rejected', message });

/** Resolves `ref` under `<dataDir>/experiments`, with errors that say what is missing. */
export function experimentCell(dataDir: string, ref: ExperimentCellRef): ExperimentCell {
  const what = `cell ${ref.condition} · seed ${ref.seed} of experiment "${ref.experimentId}"`;
  const expDir = path.join(dataDir, 'experiments', ref.experimentId);
  if (!existsSync(expDir)) {
    throw new ApiError({ code: 'not-found', message: `no experiment "${ref.experimentId}"` });
  }
  const dir = path.join(expDir, 'cells', ref.condition, `seed-${ref.seed}`);
  if (!existsSync(path.join(dir, RUN_FILE))) {
    throw new ApiError({ code: 'not-found', message: `no ${what} (it has not started yet)` });
  }
  const labFile = path.join(expDir, LAB_FILE);
  if (!existsSync(labFile)) {
    throw rejected(
      `${what} was run from the command line, which records no model files; ` +
        'fork it with `simulacra` or open the cell folder there',
    );
  }
  let lab;
  try {
    const parsed = labFileSchema.safeParse(JSON.parse(readFileSync(labFile, 'utf8')));
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new Error(`${issue.path.join('.') || '(root)'}: ${issue.message}`);
    }
    lab = parsed.data;
  } catch (error) {
    throw rejected(`${labFile}: ${(error as Error).message}`);
  }
  let scenarioName: string;
  let conditions;
  try {
    conditions = readRunInfo(dir).conditions;
    scenarioName = (JSON.parse(readFileSync(path.join(dir, SCENARIO_FILE), 'utf8')) as Scenario)
      .name;
  } catch (error) {
    throw rejected(`${what} cannot be read: ${(error as Error).message}`);
  }
  // A condition may run on its own chat model; the embedder is the experiment's.
  const condition = lab.conditions.find((c) => c.name === ref.condition);
  return {
    dir,
    meta: {
      version: 1,
      name: `${lab.name} · ${ref.condition} · seed ${ref.seed}`,
      scenarioId: lab.scenarioId,
      scenarioName: typeof scenarioName === 'string' ? scenarioName : ref.experimentId,
      models: { chat: condition?.model ?? lab.models.chat, embedding: lab.models.embedding },
      conditions,
    },
  };
}
