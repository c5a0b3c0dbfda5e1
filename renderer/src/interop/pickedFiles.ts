/**
 * Files the user picked, turned into what interop.* takes: relative names (a folder pick
 * keeps its sub-folders, which is how a map finds `tilesets/town.tsj`) and base64 bytes.
 */
import type { ImportFile } from '../../../common/api/interop';
import { bytesToBase64 } from '../util/base64';

/** A picked file: its relative name and its contents. */
export interface PickedFile {
  name: string;
  blob: Blob;
}

/**
 * Most bytes one import may send: the API takes 64 MiB of base64 (≈ 48 MiB of files). The
 * 25-person reverie town is about 1.2 MiB.
 */
export const MAX_IMPORT_BYTES = 48 * 1024 * 1024;

/** Tiled files the importer reads: maps (.tmj/.tmx/.json) and external tilesets (.tsj/.tsx). */
const TILED_FILE = /\.(tmx|tmj|json|tsx|tsj)$/i;

/** A File's name relative to what was picked (`town/tilesets/a.tsj` from a folder pick). */
export function relativeName(file: File): string {
  return (file.webkitRelativePath || file.name).replace(/\\/g, '/');
}

/** The picked files as PickedFiles. */
export function pickedFromList(list: FileList | readonly File[] | null): PickedFile[] {
  return Array.from(list ?? [], (file) => ({ name: relativeName(file), blob: file }));
}

/**
 * Splits a Tiled pick into the files to send and the ones left out (tileset images and
 * anything else the importer does not read), so the dialog can say what it skipped.
 */
export function partitionTiledFiles(picked: readonly PickedFile[]): {
  send: PickedFile[];
  skipped: string[];
} {
  return {
    send: picked.filter((f) => TILED_FILE.test(f.name)),
    skipped: picked.filter((f) => !TILED_FILE.test(f.name)).map((f) => f.name),
  };
}

/**
 * Reads picked files into ImportFiles.
 * @throws Error naming the total when the files are over MAX_IMPORT_BYTES.
 */
export async function toImportFiles(picked: readonly PickedFile[]): Promise<ImportFile[]> {
  const total = picked.reduce((n, f) => n + f.blob.size, 0);
  if (total > MAX_IMPORT_BYTES)
    throw new Error(
      `The chosen files weigh ${(total / 1048576).toFixed(1)} MiB; an import can send at most ${MAX_IMPORT_BYTES / 1048576} MiB.`,
    );
  return Promise.all(
    picked.map(async (f) => ({
      name: f.name,
      data: bytesToBase64(new Uint8Array(await f.blob.arrayBuffer())),
    })),
  );
}
