/**
 * Snapshots of a whole simulation at a step boundary (ARCHITECTURE §3): `state.json` (clock,
 * RNG, object states, call counters, queued interventions, every agent) plus one binary file
 * of little-endian float32 embeddings per agent. A snapshot directory is written under a
 * temporary name and renamed into place, so a crash never leaves a half-written one.
 *
 *   runs/<id>/snapshots/000120/state.json
 *                             /<agentId>.f32   rows × dims float32, row-major
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { commitDirSync } from '../../fsx/atomic';
import { formatPath } from '../../../common/scenario/errors';
import { agentSnapshotSchema } from '../agent/Agent';
import { tileWorldSnapshotSchema } from '../world/TileWorld';
import { rngSnapshotSchema } from './rng';
import { readFailure, RunDamagedError } from './runFiles';
import { DiskFullError, isDiskFull, nodeDisk, type RunDisk } from './runDisk';

/** A queued intervention, as stored in snapshots and step records. */
export const queuedInterventionSchema = z.object({ name: z.string(), args: z.unknown() });

/** A change applied between steps (Simulation.applyNow, residents) with its outcome. */
export const appliedNowSchema = queuedInterventionSchema.extend({
  ok: z.boolean(),
  result: z.unknown().optional(),
  error: z.string().optional(),
  now: z.literal(true),
});

/** The JSON state of a simulation after `step` steps. */
export const simSnapshotSchema = z.object({
  version: z.literal(1),
  step: z.number().int().min(0),
  rng: rngSnapshotSchema,
  world: tileWorldSnapshotSchema,
  /** Object address → state for objects agents are using now. */
  heldObjects: z.record(z.string(), z.string()),
  callCounters: z.record(z.string(), z.number().int()),
  queue: z.array(queuedInterventionSchema),
  /**
   * Changes applied since the last step that the next step record will list (a snapshot taken
   * between steps already holds their effect). Absent in older snapshots.
   */
  appliedNow: z.array(appliedNowSchema).default([]),
  agents: z.array(agentSnapshotSchema),
});
export type SimSnapshot = z.infer<typeof simSnapshotSchema>;

/** A snapshot's JSON plus each agent's embedding matrix, in agent order. */
export interface Checkpoint {
  state: SimSnapshot;
  embeddings: Float32Array[];
}

const dirFor = (runDir: string, step: number) =>
  path.join(runDir, 'snapshots', String(step).padStart(6, '0'));

/**
 * Writes a checkpoint atomically. When a write fails (a full disk: {@link DiskFullError} naming
 * the run folder) the partial snapshot is removed and earlier snapshots are untouched.
 */
export function writeCheckpoint(
  runDir: string,
  checkpoint: Checkpoint,
  disk: RunDisk = nodeDisk,
): void {
  const final = dirFor(runDir, checkpoint.state.step);
  const tmp = `${final}.tmp`;
  rmSync(tmp, { recursive: true, force: true });
  mkdirSync(tmp, { recursive: true });
  let file = tmp;
  try {
    checkpoint.state.agents.forEach((agent, i) => {
      const e = checkpoint.embeddings[i];
      file = path.join(tmp, `${agent.id}.f32`);
      disk.write(file, Buffer.from(e.buffer, e.byteOffset, e.byteLength));
    });
    file = path.join(tmp, 'state.json');
    disk.write(file, JSON.stringify(checkpoint.state));
  } catch (error) {
    rmSync(tmp, { recursive: true, force: true });
    throw isDiskFull(error) ? new DiskFullError(runDir, file, error) : error;
  }
  // Flushed, then swapped in (main/fsx/atomic): a kill never leaves a partial snapshot.
  commitDirSync(tmp, final);
}

/** Steps that have a complete checkpoint, ascending. */
export function listCheckpoints(runDir: string): number[] {
  const dir = path.join(runDir, 'snapshots');
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((name) => /^\d{6,}$/.test(name))
    .map(Number)
    .sort((a, b) => a - b);
}

/** The `state.json` file of the checkpoint after `step` steps. */
export function checkpointStateFile(runDir: string, step: number): string {
  return path.join(dirFor(runDir, step), 'state.json');
}

/** The folder of the checkpoint after `step` steps. */
export function checkpointDir(runDir: string, step: number): string {
  return dirFor(runDir, step);
}

/** What a checkpoint is checked against besides its own schema. */
export interface CheckpointExpectations {
  /** The embedding model's vector length: every memory and policy vector must have it. */
  dims?: number;
  /** The run's map: every agent stands on, and walks over, tiles of it. */
  map?: { width: number; height: number };
}

/** What to do about a damaged snapshot: the others, and the log, are untouched. */
/** Makes the errors for `file` of the snapshot after `step`: file, step, field, what to do. */
function snapshotDamage(runDir: string, step: number, file: string) {
  return (field: string, problem: string, cause?: unknown) =>
    new RunDamagedError(
      file,
      { step, snapshot: true },
      field,
      problem,
      snapshotRemedy(runDir, step),
      { cause },
    );
}

function snapshotRemedy(runDir: string, step: number): string {
  const earlier = listCheckpoints(runDir).filter((s) => s < step);
  const folder = path.relative(runDir, dirFor(runDir, step));
  return earlier.length > 0
    ? `Nothing was changed. Move the folder ${folder} out of the run to resume from the ` +
        `snapshot after step ${earlier[earlier.length - 1]} instead (the steps since are ` +
        're-run from the log), or restore it from a backup'
    : `Nothing was changed. It is the run's first snapshot: restore ${folder} from a backup ` +
        '(or an exported run)';
}

/** Reads and validates only the JSON state of a checkpoint (no embeddings: cheap). */
export function readCheckpointState(
  runDir: string,
  step: number,
  expect: CheckpointExpectations = {},
): SimSnapshot {
  const file = checkpointStateFile(runDir, step);
  const damaged = snapshotDamage(runDir, step, file);
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw damaged('', readFailure(error), error);
  }
  const parsed = simSnapshotSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw damaged(formatPath(issue.path) || '(root)', issue.message);
  }
  const state = parsed.data;
  if (state.step !== step) {
    throw damaged('step', `expected ${step} (the snapshot folder's step), got ${state.step}`);
  }
  const ids = new Set<string>();
  state.agents.forEach((agent, i) => {
    const at = `agents[${i}]`;
    // The id names the agent's embeddings file: a plain name, once.
    if (!/^[\w.-]+$/.test(agent.id) || agent.id.startsWith('.') || ids.has(agent.id)) {
      throw damaged(`${at}.id`, `expected a unique plain name, got ${JSON.stringify(agent.id)}`);
    }
    ids.add(agent.id);
    const who = `${at} (${agent.id})`;
    if (expect.map) {
      const { width, height } = expect.map;
      const off = (t: { x: number; y: number }) =>
        !Number.isInteger(t.x) ||
        !Number.isInteger(t.y) ||
        t.x < 0 ||
        t.y < 0 ||
        t.x >= width ||
        t.y >= height;
      const tiles = [agent.tile, ...agent.path];
      const bad = tiles.findIndex(off);
      if (bad >= 0) {
        const t = tiles[bad];
        throw damaged(
          bad === 0 ? `${who}.tile` : `${who}.path[${bad - 1}]`,
          `tile (${t.x}, ${t.y}) is off the ${width} × ${height} map`,
        );
      }
    }
    if (expect.dims !== undefined) {
      const dims = expect.dims;
      if (agent.memory.dims !== dims) {
        throw damaged(
          `${who}.memory.dims`,
          `the memories hold ${agent.memory.dims}-number vectors but the embedding model ` +
            `makes ${dims}-number ones: open the run with the embedding model it was made with`,
        );
      }
      const vectors: [string, number[]][] = [
        ...agent.costLayer.policies.map(
          (p, k) => [`costLayer.policies[${k}].embedding`, p.embedding] as [string, number[]],
        ),
        ...(agent.costLayer.policyRun
          ? [
              ['costLayer.policyRun.embedding', agent.costLayer.policyRun.embedding] as [
                string,
                number[],
              ],
            ]
          : []),
      ];
      for (const [field, vector] of vectors) {
        if (vector.length !== dims) {
          throw damaged(`${who}.${field}`, `expected ${dims} numbers, got ${vector.length}`);
        }
      }
    }
  });
  return state;
}

/**
 * Reads and validates the checkpoint taken after `step` steps: its state (see
 * {@link readCheckpointState}) and each agent's embeddings file, which must hold one vector of
 * finite numbers per memory. A damaged or missing file is a {@link RunDamagedError} naming the
 * file, the step and the field.
 */
export function readCheckpoint(
  runDir: string,
  step: number,
  expect: CheckpointExpectations = {},
): Checkpoint {
  const state = readCheckpointState(runDir, step, expect);
  const dir = dirFor(runDir, step);
  const embeddings = state.agents.map((agent, i) => {
    const file = path.join(dir, `${agent.id}.f32`);
    const damaged = snapshotDamage(runDir, step, file);
    let bytes: Buffer;
    try {
      bytes = readFileSync(file);
    } catch (error) {
      const missing = (error as NodeJS.ErrnoException).code === 'ENOENT';
      throw damaged(
        '',
        missing
          ? `missing (agents[${i}] ${agent.id}'s memory vectors)`
          : `cannot be read (${(error as Error).message})`,
        error,
      );
    }
    const { dims, nodes } = agent.memory;
    const want = nodes.length * dims;
    if (bytes.byteLength !== want * 4) {
      throw damaged(
        'embeddings',
        `expected ${nodes.length} memories × ${dims} float32 numbers = ${want * 4} bytes ` +
          `(as state.json's agents[${i}].memory says), got ${bytes.byteLength} bytes`,
      );
    }
    const copy = new Uint8Array(bytes.byteLength);
    copy.set(bytes);
    const vectors = new Float32Array(copy.buffer);
    for (let k = 0; k < vectors.length; k++) {
      if (!Number.isFinite(vectors[k])) {
        const row = Math.floor(k / dims);
        throw damaged(
          `embeddings row ${row} (memory ${nodes[row].id}), number ${k % dims}`,
          `${vectors[k]}; a vector must hold finite numbers`,
        );
      }
    }
    return vectors;
  });
  return { state, embeddings };
}
