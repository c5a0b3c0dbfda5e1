/**
 * Ceilings for reading packs and scenario folders. They exist because a pack is untrusted
 * input from the internet: each one bounds the memory or time a hostile file can cost, and
 * each is far above what a real town needs (the 140×100 reference town is ~2 MiB of JSON).
 */
export interface PackLimits {
  /** Bytes of the zip file itself. */
  maxPackBytes: number;
  /** Entries in the zip (or files in a folder), directories included. */
  maxEntries: number;
  /** Uncompressed bytes of one JSON file (a 1024×1024 map with all its grids fits). */
  maxJsonBytes: number;
  /**
   * Uncompressed bytes of all JSON files together. Parsing, not inflating, is what costs memory
   * (a JSON array of small numbers takes ~8× its text as JS values), so this bounds the parse:
   * 96 MiB still fits a 1024×1024 map (only map.json is ever large; Harrow Quay's 88×60 map is
   * 83 KiB), and four 60 MiB files of numbers (1.8 GiB to parse) are refused before inflating.
   */
  maxJsonTotalBytes: number;
  /** Uncompressed bytes of one asset. */
  maxAssetBytes: number;
  /** Uncompressed bytes of all entries together. */
  maxTotalBytes: number;
  /** Characters of an entry path. */
  maxPathLength: number;
  /** Folders deep an entry path may be. */
  maxPathDepth: number;
}

const MiB = 1024 * 1024;

/** The limits every reader uses unless a caller (a test) narrows them. */
export const DEFAULT_PACK_LIMITS: Readonly<PackLimits> = Object.freeze({
  maxPackBytes: 256 * MiB,
  maxEntries: 2000,
  maxJsonBytes: 64 * MiB,
  maxJsonTotalBytes: 96 * MiB,
  maxAssetBytes: 64 * MiB,
  maxTotalBytes: 256 * MiB,
  maxPathLength: 255,
  maxPathDepth: 8,
});

/** Fills a partial set of limits from the defaults. */
export function resolveLimits(overrides?: Partial<PackLimits>): PackLimits {
  return { ...DEFAULT_PACK_LIMITS, ...overrides };
}

/** "64 MiB", "1.5 KiB": sizes as people read them, for error messages. */
export function formatBytes(bytes: number): string {
  const units = ['bytes', 'KiB', 'MiB', 'GiB', 'TiB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return unit === 0 ? `${bytes} bytes` : `${Number(value.toFixed(1))} ${units[unit]}`;
}
