/**
 * Tile layer data: CSV, base64, base64 + zlib, base64 + gzip (Tiled's encodings), to gids.
 */
import { gunzipSync, inflateSync } from 'node:zlib';
import { importError } from '../common';

/** Where layer data came from, for error messages. */
export interface DataSource {
  file: string;
  layer: string;
}

/** Decodes `encoding`/`compression` layer data to exactly `count` raw gids (flags kept). */
export function decodeLayerData(
  data: unknown,
  encoding: string | undefined,
  compression: string | undefined,
  count: number,
  where: DataSource,
): Uint32Array {
  const fail = (message: string) => importError(where.file, `layer "${where.layer}"`, message);
  let gids: Uint32Array;
  if (Array.isArray(data)) {
    if (data.some((v) => typeof v !== 'number' || !Number.isInteger(v) || v < 0 || v > 0xffffffff))
      throw fail('expected data as a list of tile gids (whole numbers)');
    gids = Uint32Array.from(data as number[]);
  } else if (typeof data !== 'string') {
    throw fail('expected layer data (a list of gids, CSV or base64 text)');
  } else if (encoding === 'csv') {
    const cells = data.split(',').map((c) => c.trim());
    if (cells.length > 0 && cells[cells.length - 1] === '') cells.pop();
    gids = new Uint32Array(cells.length);
    cells.forEach((cell, i) => {
      const gid = Number(cell);
      if (!/^\d+$/.test(cell) || gid > 0xffffffff)
        throw fail(`expected CSV gids, got "${cell.slice(0, 20)}" at cell ${i}`);
      gids[i] = gid;
    });
  } else if (encoding === 'base64') {
    const packed = Buffer.from(data.replace(/\s+/g, ''), 'base64');
    const bytes = decompress(packed, compression, count, fail);
    if (bytes.length % 4 !== 0) throw fail(`expected 4 bytes per tile, got ${bytes.length} bytes`);
    gids = new Uint32Array(bytes.length / 4);
    for (let i = 0; i < gids.length; i++) gids[i] = bytes.readUInt32LE(i * 4);
  } else {
    throw fail(`uses encoding "${encoding}" (expected csv or base64)`);
  }
  if (gids.length !== count)
    throw fail(`expected ${count} tiles (map width × height), got ${gids.length}`);
  return gids;
}

function decompress(
  packed: Buffer,
  compression: string | undefined,
  count: number,
  fail: (message: string) => Error,
): Buffer {
  // A bounded output keeps a zip bomb from taking the machine: a layer is 4 bytes per tile.
  const maxOutputLength = count * 4 + 1;
  try {
    if (!compression) return packed;
    if (compression === 'zlib') return inflateSync(packed, { maxOutputLength });
    if (compression === 'gzip') return gunzipSync(packed, { maxOutputLength });
  } catch (err) {
    throw fail(
      `has ${compression} data that does not decompress to ${count} tiles: ${err instanceof Error ? err.message : String(err)}`,
    );
  }
  throw fail(
    `uses ${compression} compression (supported: none, zlib, gzip; in Tiled choose one of those)`,
  );
}
