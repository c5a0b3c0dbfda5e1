/**
 * How an experiment folder's files are written (experiment.json, evaluations, the report and the
 * Lab's own files): atomically (main/fsx/atomic: a flushed temporary file renamed over the
 * target), so a crash, a cancel or kill -9 never leaves half a file that a resume would read.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { writeFileAtomicSync } from '../../fsx/atomic';

/** Writes `text` to `file` atomically, creating its folder. */
export function writeFileAtomic(file: string, text: string): void {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileAtomicSync(file, text);
}

/** `value` as indented JSON, written atomically. */
export function writeJsonAtomic(file: string, value: unknown): void {
  writeFileAtomic(file, `${JSON.stringify(value, null, 1)}\n`);
}
