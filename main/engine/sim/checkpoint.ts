/**
 * Snapshots of a whole simulation at a step boundary (ARCHITECTURE §3): `state.json` (clock,
 * RNG, object states, call counters, queued interventions, every agent) plus one binary file
 * of little-endian float32 embeddings per agent. A snapshot directory is written under a
 * temporary name and renamed into place, so a crash never leaves a half-written one.
 *
 *   runs/<id>/snapshots/000120/state.json
 *                             /<agentId>.f32   rows × dims float32, row-major
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { agentSnapshotSchema } from '../agent/Agent';
import { tileWorldSnapshotSchema } from '../world/TileWorld';
import { rngSnapshotSchema } from './rng';
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
  rmSync(final, { recursive: true, force: true });
  renameSync(tmp, final);
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

/** Reads and validates only the JSON state of a checkpoint (no embeddings: cheap). */
export function readCheckpointState(runDir: string, step: number): SimSnapshot {
  return simSnapshotSchema.parse(
    JSON.parse(readFileSync(checkpointStateFile(runDir, step), 'utf8')),
  );
}

/** Reads and validates the checkpoint taken after `step` steps. */
export function readCheckpoint(runDir: string, step: number): Checkpoint {
  const dir = dirFor(runDir, step);
  const state = simSnapshotSchema.parse(
    JSON.parse(readFileSync(path.join(dir, 'state.json'), 'utf8')),
  );
  const embeddings = state.agents.map((agent) => {
    const bytes = readFileSync(path.join(dir, `${agent.id}.f32`));
    const copy = new Uint8Array(bytes.byteLength);
    copy.set(bytes);
    return new Float32Array(copy.buffer);
  });
  return { state, embeddings };
}
