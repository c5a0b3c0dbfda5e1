/**
 * Reading a zip safely, with yauzl. Everything a hostile archive can lie about is checked
 * from the central directory before a single byte is inflated (names, types, encryption,
 * counts, declared sizes), and sizes are enforced again while inflating, because a header's
 * declared size is just a number the attacker chose.
 *
 * Memory is bounded by the limits: each entry streams into one buffer of its declared size
 * (itself under the per-file limit) with a running count that stops the inflation the moment
 * the entry, or all entries together, pass their limits, so a zip bomb costs at most what an
 * honest pack of the largest allowed size would.
 */
import yauzl from 'yauzl';
import type { Readable } from 'node:stream';
import type { FileIssue } from '../../common/scenario/split';
import { PackError, packError } from './errors';
import { crc32 } from './crc32';
import {
  collisionKey,
  entryPathProblem,
  entryRole,
  UNEXPECTED_ENTRY,
  type EntryRole,
} from './entry-path';
import { formatBytes, type PackLimits } from './limits';

/**
 * The layout files of a zip by entry path, plus warnings: JSON files as their text (decoded as
 * they are inflated, so their bytes are never all held at once; bytes when they are not UTF-8,
 * for loadScenario to report), assets as bytes.
 */
export interface ZipContents {
  files: Map<string, Uint8Array | string>;
  warnings: FileIssue[];
}

/** yauzl's entry as it is with `decodeStrings: false`: the name is still raw bytes. */
type RawEntry = Omit<yauzl.Entry, 'fileName'> & { fileName: Buffer };

interface VettedEntry {
  name: string;
  role: EntryRole;
  entry: RawEntry;
}

const UTF8_FLAG = 0x800;
const ENCRYPTED_FLAG = 0x1;
const S_IFMT = 0o170000;
const S_IFREG = 0o100000;
const S_IFDIR = 0o040000;
const S_IFLNK = 0o120000;
/** Past this many problems the rest are summarised: one bad pack should not print 2,000 lines. */
const MAX_REPORTED_ISSUES = 50;

/**
 * Reads the layout files of a zip into memory, refusing the whole archive at the first sign
 * of danger. Entries outside the layout are not inflated; they come back as warnings.
 * @param source the pack's file name, used in every message.
 * @throws PackError naming the pack, the entry and what was expected.
 */
export async function readZip(
  bytes: Buffer,
  source: string,
  limits: PackLimits,
): Promise<ZipContents> {
  if (bytes.length > limits.maxPackBytes) {
    throw packError(
      source,
      '',
      `is ${formatBytes(bytes.length)} (expected a pack of at most ${formatBytes(limits.maxPackBytes)})`,
    );
  }
  const zip = await openZip(bytes, source);
  try {
    // The count comes from the end-of-central-directory record, before any entry is parsed.
    if (zip.entryCount > limits.maxEntries) {
      throw packError(
        source,
        '',
        `holds ${zip.entryCount} entries (expected at most ${limits.maxEntries})`,
      );
    }
    const entries = await listEntries(zip, source);
    const { vetted, issues, warnings } = vetEntries(entries, source, limits);
    if (issues.length > 0) throw new PackError(issues, source);
    const files = new Map<string, Uint8Array | string>();
    const budget = { left: limits.maxTotalBytes, limit: limits.maxTotalBytes };
    // JSON files inflate one after another into one scratch buffer and leave it as text.
    const jsonSizes = vetted.filter((v) => v.role === 'json').map((v) => v.entry.uncompressedSize);
    const scratch = Buffer.allocUnsafe(Math.max(0, ...jsonSizes));
    for (const { name, role, entry } of vetted) {
      if (role === 'asset') {
        const out = Buffer.allocUnsafe(entry.uncompressedSize);
        files.set(name, await inflate(zip, entry, name, source, budget, out));
      } else if (role === 'json') {
        const bytes = await inflate(zip, entry, name, source, budget, scratch);
        files.set(name, utf8(bytes) ?? Buffer.from(bytes));
      }
    }
    return { files, warnings };
  } finally {
    zip.close();
  }
}

function openZip(bytes: Buffer, source: string): Promise<yauzl.ZipFile> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(
      bytes,
      // decodeStrings: false — we decode and judge names ourselves, so the messages can say
      // which entry and why; autoClose: false — entries are inflated after the listing ends.
      {
        lazyEntries: true,
        validateEntrySizes: true,
        decodeStrings: false,
        autoClose: false,
        strictFileNames: true,
      },
      (err, zip) => {
        if (err || !zip)
          reject(
            packError(
              source,
              '',
              `is not a readable zip archive (${err?.message ?? 'unknown error'})`,
            ),
          );
        else resolve(zip);
      },
    );
  });
}

function listEntries(zip: yauzl.ZipFile, source: string): Promise<RawEntry[]> {
  return new Promise((resolve, reject) => {
    const entries: RawEntry[] = [];
    zip.on('entry', (entry: RawEntry) => {
      entries.push(entry);
      zip.readEntry();
    });
    zip.once('end', () => resolve(entries));
    zip.once('error', (err: Error) =>
      reject(
        packError(
          source,
          '',
          `has a corrupt central directory (${err.message}); expected a well-formed zip`,
        ),
      ),
    );
    zip.readEntry();
  });
}

/** Judges every entry from its central-directory record alone; nothing is inflated here. */
function vetEntries(
  entries: RawEntry[],
  source: string,
  limits: PackLimits,
): { vetted: VettedEntry[]; issues: FileIssue[]; warnings: FileIssue[] } {
  const issues: FileIssue[] = [];
  const warnings: FileIssue[] = [];
  const vetted: VettedEntry[] = [];
  const seen = new Map<string, string>();
  let total = 0;
  let jsonTotal = 0;
  const problem = (path: string, message: string) => issues.push({ file: source, path, message });

  for (const entry of entries) {
    const decoded = decodeName(entry);
    if ('problem' in decoded) {
      problem(decoded.display, decoded.problem);
      continue;
    }
    const name = decoded.name;
    const pathProblem = entryPathProblem(name, limits);
    if (pathProblem) {
      problem(printable(name), pathProblem);
      continue;
    }
    const key = collisionKey(name);
    const previous = seen.get(key);
    if (previous !== undefined) {
      problem(
        name,
        previous === name
          ? 'appears twice in the pack (expected each file once; which copy wins would differ between tools)'
          : `collides with "${previous}" (names are compared ignoring case, as Windows and macOS do; expected each file once)`,
      );
      continue;
    }
    seen.set(key, name);

    if (entry.generalPurposeBitFlag & ENCRYPTED_FLAG) {
      problem(name, 'is encrypted (expected plain entries; packs never use passwords)');
      continue;
    }
    if (entry.compressionMethod !== 0 && entry.compressionMethod !== 8) {
      problem(
        name,
        `uses compression method ${entry.compressionMethod} (expected stored (0) or deflate (8))`,
      );
      continue;
    }
    // The upper 16 bits of the external attributes are a Unix st_mode when the archiver set
    // them. Checked whatever "version made by" says: a link is never something we want.
    const type = (entry.externalFileAttributes >>> 16) & S_IFMT;
    const isDirectory = name.endsWith('/');
    if (type === S_IFLNK) {
      problem(
        name,
        'is a symbolic link (a link can point outside the target folder; expected plain files)',
      );
      continue;
    }
    if (type !== 0 && type !== S_IFREG && type !== S_IFDIR) {
      problem(name, 'is a special file (device, FIFO or socket; expected plain files)');
      continue;
    }
    if (type === S_IFDIR && !isDirectory) {
      problem(
        name,
        'is marked as a directory but its name does not end with "/" (expected a plain file)',
      );
      continue;
    }

    const role = entryRole(name);
    const max = role === 'json' ? limits.maxJsonBytes : limits.maxAssetBytes;
    if (entry.uncompressedSize > max) {
      problem(
        name,
        `declares ${formatBytes(entry.uncompressedSize)} uncompressed (expected at most ${formatBytes(max)} for ${role === 'json' ? 'a JSON file' : 'one file'})`,
      );
      continue;
    }
    total += entry.uncompressedSize;
    if (role === 'json') jsonTotal += entry.uncompressedSize;
    if (role === 'unexpected')
      warnings.push({ file: source, path: name, message: UNEXPECTED_ENTRY, severity: 'warning' });
    vetted.push({ name, role, entry });
  }
  if (total > limits.maxTotalBytes) {
    problem(
      '',
      `declares ${formatBytes(total)} uncompressed in all (expected at most ${formatBytes(limits.maxTotalBytes)})`,
    );
  }
  if (jsonTotal > limits.maxJsonTotalBytes) {
    problem(
      '',
      `declares ${formatBytes(jsonTotal)} of JSON in all (expected at most ${formatBytes(limits.maxJsonTotalBytes)} for all JSON files together)`,
    );
  }
  if (issues.length > MAX_REPORTED_ISSUES) {
    const rest = issues.length - MAX_REPORTED_ISSUES;
    issues.splice(MAX_REPORTED_ISSUES, rest, {
      file: source,
      path: '',
      message: `…and ${rest} more problems`,
    });
  }
  return { vetted, issues, warnings };
}

/** Decodes an entry name: UTF-8 when flagged, otherwise only plain ASCII is accepted. */
function decodeName(entry: RawEntry): { name: string } | { problem: string; display: string } {
  const raw = entry.fileName;
  const display = printable(raw.toString('latin1'));
  if (entry.generalPurposeBitFlag & UTF8_FLAG) {
    try {
      return { name: new TextDecoder('utf-8', { fatal: true }).decode(raw) };
    } catch {
      return {
        problem: 'has a name that is not valid UTF-8 (expected a UTF-8 file name)',
        display,
      };
    }
  }
  // Without the UTF-8 flag, zip says CP437; no archiver worth supporting writes non-ASCII
  // names that way any more, and guessing an encoding would make names ambiguous.
  if (raw.some((b) => b >= 0x80)) {
    return {
      problem: 'has a non-ASCII name without the UTF-8 flag (expected a UTF-8 file name)',
      display,
    };
  }
  return { name: raw.toString('latin1') };
}

/** A name with control characters escaped, safe to print in a terminal. */
function printable(name: string): string {
  // eslint-disable-next-line no-control-regex -- control characters are exactly what we escape
  const control = /[\u0000-\u001f\u007f]/g;
  return name.replace(control, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** The bytes as text, or null when they are not UTF-8. */
function utf8(bytes: Uint8Array): string | null {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return null;
  }
}

/** Bytes that all entries together may still inflate to, out of `limit`. */
interface Budget {
  left: number;
  limit: number;
}

/**
 * Inflates one entry into `into` (at least its declared size, which vetEntries held under the
 * per-file limit), counting as it goes: the moment it produces more than it declared, or more
 * than the pack's remaining total, the stream is destroyed, so a lying header costs nothing
 * beyond that buffer. Its CRC-32 is checked at the end.
 * @returns the part of `into` that holds the entry.
 */
function inflate(
  zip: yauzl.ZipFile,
  entry: RawEntry,
  name: string,
  source: string,
  budget: Budget,
  into: Buffer,
): Promise<Buffer> {
  const declared = entry.uncompressedSize;
  return new Promise((resolve, reject) => {
    zip.openReadStream(entry as unknown as yauzl.Entry, (err, stream: Readable) => {
      if (err || !stream) {
        reject(
          packError(
            source,
            name,
            `could not be read (${err?.message ?? 'no data'}); expected a well-formed entry`,
          ),
        );
        return;
      }
      let size = 0;
      let crc = 0;
      let failed = false;
      const fail = (message: string) => {
        if (failed) return;
        failed = true;
        stream.destroy();
        reject(packError(source, name, message));
      };
      const tooMany = `inflates to more than the ${formatBytes(declared)} its header declares (a zip bomb or a corrupt pack; expected exactly the declared size)`;
      stream.on('data', (chunk: Buffer) => {
        if (failed) return;
        if (size + chunk.length > declared) return fail(tooMany);
        if (chunk.length > budget.left)
          return fail(
            `takes the pack past ${formatBytes(budget.limit)} uncompressed in all (a zip bomb; expected at most that)`,
          );
        budget.left -= chunk.length;
        crc = crc32(chunk, crc);
        chunk.copy(into, size);
        size += chunk.length;
      });
      stream.on('error', (e: Error) => {
        if (/too many bytes/.test(e.message)) fail(tooMany);
        else if (/too few bytes/.test(e.message))
          fail(
            `inflates to fewer bytes than the ${formatBytes(declared)} its header declares (corrupt pack)`,
          );
        else fail(`is corrupt: it could not be inflated (${e.message})`);
      });
      stream.on('end', () => {
        if (failed) return;
        if (size !== declared)
          return fail(
            `inflates to ${size} bytes but its header declares ${declared} (corrupt pack)`,
          );
        if (crc !== entry.crc32)
          return fail(
            'fails its CRC-32 check (corrupt pack; expected the checksum its header declares)',
          );
        resolve(into.subarray(0, size));
      });
    });
  });
}
