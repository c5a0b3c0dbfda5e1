/**
 * `lab.interviewRun`: the interview battery on a stored run, asked at its last snapshot on an
 * in-memory copy (engine/eval/frozenRun.ts), so the run's folder is never written. LabService
 * holds the Lab's job slot around it (one heavy job at a time, ./oneHeavyJob.ts).
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { ParsedInputOf, RawOutputOf } from '../../../common/api/contract';
import type { LabContract } from '../../../common/api/lab';
import { ApiError } from '../../../common/api/protocol';
import { batteryFor } from '../../engine/eval/battery';
import { FrozenRun } from '../../engine/eval/frozenRun';
import { listCheckpoints } from '../../engine/sim/checkpoint';
import type { Embedder, LanguageModel } from '../../models/types';
import type { ModelLoader } from '../modelCache';
import { readStudioRun, runDirOf, STUDIO_RUN_FILE } from '../runFolder';

type In = ParsedInputOf<LabContract, 'lab.interviewRun'>;
type Out = RawOutputOf<LabContract, 'lab.interviewRun'>;

/**
 * The run's folder and last snapshot, refused with the reason (no such run, nothing to
 * interview yet) before the job slot is taken.
 */
export function interviewTarget(dataDir: string, runId: string): { runDir: string; last: number } {
  const runDir = runDirOf(path.join(dataDir, 'runs'), runId);
  if (!existsSync(path.join(runDir, STUDIO_RUN_FILE))) {
    throw new ApiError({ code: 'not-found', message: `no run "${runId}"` });
  }
  const last = listCheckpoints(runDir).at(-1);
  if (last === undefined) {
    throw new ApiError({
      code: 'rejected',
      message: `run "${runId}" has no snapshot to interview yet`,
    });
  }
  return { runDir, last };
}

/** Asks the battery to the run's people (all, or `input.agentIds`) with the run's own models. */
export async function interviewStoredRun(
  models: ModelLoader,
  input: In,
  target: { runDir: string; last: number },
): Promise<Out> {
  const { runDir, last } = target;
  const meta = readStudioRun(runDir);
  let model: LanguageModel | null = null;
  let embedder: Embedder | null = null;
  try {
    [model, embedder] = await Promise.all([
      models.chat(meta.models.chat),
      models.embedding(meta.models.embedding),
    ]);
    const run = FrozenRun.load(runDir, last, { model, embedder });
    const residents = run.agents.map((a) => ({
      id: a.id,
      name: a.name,
      livingArea: a.identity.livingArea,
    }));
    const asked = new Set(input.agentIds ?? residents.map((r) => r.id));
    const unknown = [...asked].find((id) => !residents.some((r) => r.id === id));
    if (unknown) {
      throw new ApiError({
        code: 'invalid-input',
        message: `agentIds: no person "${unknown}" in run "${input.runId}"`,
      });
    }
    const answers: Out['answers'] = [];
    for (const [i, r] of residents.entries()) {
      if (!asked.has(r.id)) continue;
      const questions = batteryFor(residents, i, {
        ...(input.categories ? { categories: input.categories } : {}),
        perCategory: input.perCategory,
      });
      for (const q of questions) {
        answers.push({
          agentId: r.id,
          agentName: r.name,
          category: q.category,
          questionId: q.id,
          question: q.question,
          answer: await run.interview(r.id, q.question),
        });
      }
    }
    return { step: last, clock: run.clock.label(run.gameTime), answers };
  } catch (error) {
    if (error instanceof ApiError) throw error;
    throw new ApiError({
      code: 'rejected',
      message: `interviewing run "${input.runId}": ${(error as Error).message}`,
    });
  } finally {
    await model?.dispose();
    await embedder?.dispose();
  }
}
