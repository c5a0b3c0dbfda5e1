/**
 * A minimal zip writer for tests that need archives no well-behaved library will produce:
 * traversal names, symlink modes, lying sizes, duplicate names, encryption flags. Every field
 * that a hostile archive can lie about is settable.
 */
import { deflateRawSync } from 'node:zlib';
import { crc32 } from '../crc32';

/** One entry of a raw zip. Unset fields get honest values. */
export interface RawZipEntry {
  name: string | Buffer;
  data?: Uint8Array | string;
  /** 0 stored, 8 deflate (default). */
  method?: number;
  /** Overrides the uncompressed size written in both headers. */
  declaredSize?: number;
  /** Overrides the CRC-32 written in both headers. */
  crc?: number;
  /** General-purpose flags (default 0x800: UTF-8 name). */
  flags?: number;
  /** Unix mode for the upper 16 bits of the external attributes (default 0o100644). */
  unixMode?: number;
}

/** Builds a zip from `entries`, exactly as described. */
export function rawZip(entries: RawZipEntry[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const e of entries) {
    const name = typeof e.name === 'string' ? Buffer.from(e.name, 'utf8') : e.name;
    const data =
      typeof e.data === 'string'
        ? Buffer.from(e.data, 'utf8')
        : Buffer.from(e.data ?? new Uint8Array());
    const method = e.method ?? 8;
    const body = method === 8 ? deflateRawSync(data) : data;
    const crc = e.crc ?? crc32(data);
    const size = e.declaredSize ?? data.length;
    const flags = e.flags ?? 0x800;
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(flags, 6);
    local.writeUInt16LE(method, 8);
    local.writeUInt16LE(0, 10);
    local.writeUInt16LE(0x21, 12);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(body.length, 18);
    local.writeUInt32LE(size, 22);
    local.writeUInt16LE(name.length, 26);
    local.writeUInt16LE(0, 28);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE((3 << 8) | 20, 4); // made by Unix
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(flags, 8);
    central.writeUInt16LE(method, 10);
    central.writeUInt16LE(0, 12);
    central.writeUInt16LE(0x21, 14);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(body.length, 20);
    central.writeUInt32LE(size, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(((e.unixMode ?? 0o100644) << 16) >>> 0, 38);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, body);
    centrals.push(central, name);
    offset += local.length + name.length + body.length;
  }
  const cd = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(cd.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, cd, end]);
}
