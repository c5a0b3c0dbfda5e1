/**
 * Packs the OS asks the studio to open (double-click, argv, a second launch, macOS open-file,
 * File ▸ Open and Recent). Main reads the file and hands the page its bytes; the page imports
 * them with packs.import, which validates everything. Requests that arrive before the page
 * listens (the launch argv) wait in a queue the page takes when it is ready.
 */
import { readFile, stat } from 'node:fs/promises';
import { basename } from 'node:path';
import type { OpenPackRequest } from '../../common/api/desktop';

/** The largest pack that fits packs.import's 64 MiB of base64. */
export const MAX_OPEN_PACK_BYTES = 48 * 1024 * 1024;

/** Reads a pack for the page, or explains in one sentence why it cannot. */
export async function readPackRequest(
  path: string,
): Promise<{ ok: true; request: OpenPackRequest } | { ok: false; message: string }> {
  try {
    const info = await stat(path);
    if (!info.isFile()) return { ok: false, message: `${path} is not a file.` };
    if (info.size > MAX_OPEN_PACK_BYTES) {
      return {
        ok: false,
        message: `${path} is ${(info.size / 1048576).toFixed(1)} MiB; packs can be at most ${MAX_OPEN_PACK_BYTES / 1048576} MiB.`,
      };
    }
    const data = (await readFile(path)).toString('base64');
    return { ok: true, request: { fileName: basename(path), path, data } };
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    const why = code === 'ENOENT' ? 'it does not exist' : (err as Error).message;
    return { ok: false, message: `Cannot open ${path}: ${why}.` };
  }
}

/** Holds requests until the page is ready, then delivers them as they come. */
export class OpenRequestQueue {
  private pending: OpenPackRequest[] = [];
  private ready = false;

  constructor(private readonly deliver: (request: OpenPackRequest) => void) {}

  push(request: OpenPackRequest): void {
    if (this.ready) this.deliver(request);
    else this.pending.push(request);
  }

  /** The page asks for what is waiting; from now on requests are delivered at once. */
  take(): OpenPackRequest[] {
    this.ready = true;
    const out = this.pending;
    this.pending = [];
    return out;
  }

  /** The page reloaded (or crashed and came back): queue again until it asks. */
  reset(): void {
    this.ready = false;
  }
}
