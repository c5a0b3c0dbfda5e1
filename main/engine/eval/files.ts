/**
 * How an experiment folder's files are written (experiment.json, evaluations, the report and the
 * Lab's own files): to a temporary file first, then renamed, so a crash or a cancel never leaves
 * half a file that a resume would read.
 */
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** Writes `text` to `file` atomically, creating its folder. */
export function writeFileAtomic(file: string, text: string): void {
  mkdirSync(path.dirname(file), { recursive: true });
  // The pid keeps two processes writing the same file (CLI and studio) off each other's temp.
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, text);
  renameSync(tmp, file);
}

/** `value` as indented JSON, written atomically. */
export function writeJsonAtomic(file: string, value: unknown): void {
  writeFileAtomic(file, `${JSON.stringify(value, null, 1)}\n`);
}
