/**
 * Resumable, verified file download. Bytes go to `<dest>.part`; an interrupted download is
 * resumed with an HTTP Range request (re-hashing what is already there), and the file is
 * renamed into place only once its size and sha256 check out.
 */
import { createHash, type Hash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, open, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { ModelAbortError, ModelError, excerpt } from '../errors.ts';

/** Progress of one download. */
export interface DownloadProgress {
  url: string;
  receivedBytes: number;
  /** Unknown when the server sends no length. */
  totalBytes?: number;
  /** Bytes that were already on disk when this attempt resumed. */
  resumedFromBytes: number;
}

/** Called as bytes arrive (at most every `progressIntervalMs`, and once at the end). */
export type DownloadProgressCallback = (progress: DownloadProgress) => void;

/** Options of {@link downloadFile}. */
export interface DownloadOptions {
  url: string;
  destPath: string;
  expectedSha256?: string;
  expectedSize?: number;
  onProgress?: DownloadProgressCallback;
  signal?: AbortSignal;
  /** Attempts, each resuming where the last stopped (default 3). */
  maxAttempts?: number;
  /** Wait between attempts, doubled each time (default 1000 ms). */
  retryDelayMs?: number;
  progressIntervalMs?: number;
  fetch?: typeof fetch;
}

/**
 * Downloads `url` to `destPath` and returns the sha256 of the file.
 * @throws ModelError `checksum-mismatch` (the partial file is deleted) or `download-failed`
 *   (the partial file is kept for a later resume); ModelAbortError on `signal`.
 */
export async function downloadFile(options: DownloadOptions): Promise<string> {
  const attempts = Math.max(1, options.maxAttempts ?? 3);
  let delay = options.retryDelayMs ?? 1000;
  for (let attempt = 1; ; attempt++) {
    try {
      return await downloadAttempt(options);
    } catch (error) {
      const retryable = error instanceof ModelError && error.code === 'download-failed';
      if (!retryable || attempt >= attempts || options.signal?.aborted) throw error;
      await new Promise((resolve) => setTimeout(resolve, delay));
      delay *= 2;
    }
  }
}

async function downloadAttempt(options: DownloadOptions): Promise<string> {
  const { url, destPath, signal } = options;
  const partPath = `${destPath}.part`;
  await mkdir(path.dirname(destPath), { recursive: true });
  const existing = await fileSize(partPath);
  const fetchImpl = options.fetch ?? fetch;
  let response: Response;
  try {
    response = await fetchImpl(url, {
      headers: existing > 0 ? { range: `bytes=${existing}-` } : {},
      signal,
      redirect: 'follow',
    });
  } catch (error) {
    if (signal?.aborted) throw new ModelAbortError(`Downloading ${url}`, signal.reason);
    throw new ModelError(
      'download-failed',
      `Could not download ${url}: ${(error as Error).message}`,
      { cause: error },
    );
  }

  let resumeFrom = 0;
  if (response.status === 206) {
    const start = Number(/bytes (\d+)-/.exec(response.headers.get('content-range') ?? '')?.[1]);
    if (start !== existing) {
      await response.body?.cancel();
      await rm(partPath, { force: true });
      throw new ModelError(
        'download-failed',
        `Download of ${url} resumed at the wrong offset (${start}, had ${existing}); starting over.`,
      );
    }
    resumeFrom = existing;
  } else if (response.status === 416 && existing > 0) {
    // Range not satisfiable: the partial file is already complete. Verify it below.
    await response.body?.cancel();
    return finish(options, partPath, await hashFile(partPath), existing);
  } else if (!response.ok) {
    const body = await response.text().catch(() => '');
    const code = response.status === 429 || response.status >= 500 ? 'download-failed' : 'http';
    throw new ModelError(
      code,
      `Download of ${url} failed: ${response.status} ${response.statusText}: ${excerpt(body)}`,
    );
  }
  // 200 to a range request means the server ignored it: start from byte 0.

  const hash = createHash('sha256');
  if (resumeFrom > 0) await hashInto(hash, partPath);
  const length = Number(response.headers.get('content-length'));
  const totalBytes =
    Number.isFinite(length) && response.headers.get('content-length') !== null
      ? resumeFrom + length
      : options.expectedSize;
  const progress: DownloadProgress = {
    url,
    receivedBytes: resumeFrom,
    totalBytes,
    resumedFromBytes: resumeFrom,
  };
  const interval = options.progressIntervalMs ?? 100;
  let lastReport = 0;

  const file = await open(partPath, resumeFrom > 0 ? 'a' : 'w');
  try {
    if (!response.body) throw new ModelError('download-failed', `Download of ${url} has no body.`);
    for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
      await file.write(chunk);
      hash.update(chunk);
      progress.receivedBytes += chunk.length;
      const now = performance.now();
      if (options.onProgress && now - lastReport >= interval) {
        lastReport = now;
        options.onProgress({ ...progress });
      }
    }
  } catch (error) {
    if (signal?.aborted) throw new ModelAbortError(`Downloading ${url}`, signal.reason);
    if (error instanceof ModelError) throw error;
    throw new ModelError(
      'download-failed',
      `Download of ${url} was interrupted at ${progress.receivedBytes} bytes (${(error as Error).message}); it will resume from there.`,
      { cause: error },
    );
  } finally {
    await file.close();
  }
  options.onProgress?.({ ...progress });
  if (totalBytes !== undefined && progress.receivedBytes < totalBytes) {
    throw new ModelError(
      'download-failed',
      `Download of ${url} stopped at ${progress.receivedBytes} of ${totalBytes} bytes; it will resume from there.`,
    );
  }
  return finish(options, partPath, hash.digest('hex'), progress.receivedBytes);
}

async function finish(
  options: DownloadOptions,
  partPath: string,
  sha256: string,
  size: number,
): Promise<string> {
  const { url, destPath, expectedSha256, expectedSize } = options;
  if (expectedSize !== undefined && size !== expectedSize) {
    await rm(partPath, { force: true });
    throw new ModelError(
      'checksum-mismatch',
      `Download of ${url} has ${size} bytes, expected ${expectedSize}; the partial file was deleted.`,
    );
  }
  if (expectedSha256 !== undefined && sha256 !== expectedSha256.toLowerCase()) {
    await rm(partPath, { force: true });
    throw new ModelError(
      'checksum-mismatch',
      `Download of ${url} is corrupt: sha256 ${sha256}, expected ${expectedSha256}. The file was deleted; download it again.`,
    );
  }
  await rename(partPath, destPath);
  return sha256;
}

async function fileSize(file: string): Promise<number> {
  try {
    return (await stat(file)).size;
  } catch {
    return 0;
  }
}

async function hashInto(hash: Hash, file: string): Promise<void> {
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
}

/** sha256 of a file on disk, hex. */
export async function hashFile(file: string): Promise<string> {
  const hash = createHash('sha256');
  await hashInto(hash, file);
  return hash.digest('hex');
}
