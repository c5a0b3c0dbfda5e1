/**
 * Checks a GGUF file before node-llama-cpp sees it. llama.cpp reports a bad file with a terse
 * native message (or aborts); reading the header ourselves lets us say *which* file is wrong
 * and *how*: missing, not a GGUF at all, a version we cannot read, an architecture
 * llama.cpp does not know, or cut short (an interrupted download).
 */
import { open, stat } from 'node:fs/promises';
import * as nodeLlamaCpp from 'node-llama-cpp';
import { ModelError } from '../errors.ts';

/** What the header says about a GGUF file. */
export interface GgufSummary {
  path: string;
  sizeBytes: number;
  version: number;
  architecture: string;
  name?: string;
  tensorCount: number;
  /** Trained context length (`<arch>.context_length`) when present. */
  contextLength?: number;
  /** Bytes the tensor data needs according to the header (file must be at least this long). */
  expectedMinBytes?: number;
}

/** [block size in elements, bytes per block] for ggml tensor types, by type id. */
const GGML_TYPE_BLOCKS: Record<number, [number, number]> = {
  0: [1, 4],
  1: [1, 2],
  2: [32, 18],
  3: [32, 20],
  6: [32, 22],
  7: [32, 24],
  8: [32, 34],
  9: [32, 36],
  10: [256, 84],
  11: [256, 110],
  12: [256, 144],
  13: [256, 176],
  14: [256, 210],
  15: [256, 292],
  16: [256, 66],
  17: [256, 74],
  18: [256, 98],
  19: [256, 50],
  20: [32, 18],
  21: [256, 110],
  22: [256, 82],
  23: [256, 136],
  24: [1, 1],
  25: [1, 2],
  26: [1, 4],
  27: [1, 8],
  28: [1, 8],
  29: [256, 56],
  30: [1, 2],
  34: [256, 54],
  35: [256, 66],
  39: [32, 17],
};

// node-llama-cpp types GgufArchitectureType as an ambient const enum, which isolatedModules
// cannot read; at runtime it is a plain object of the architectures its llama.cpp knows.
const KNOWN_ARCHITECTURES = new Set<string>(
  Object.values(
    (nodeLlamaCpp as unknown as Record<string, Record<string, string>>)['GgufArchitectureType'] ??
      {},
  ),
);

/**
 * Reads and checks the header of the GGUF file at `filePath`. Nothing past the 4 magic bytes is
 * interpreted unless they say GGUF, and no message repeats a byte of a file that is not one.
 * @throws ModelError `file-missing` (missing, not a file or unreadable, one message), `not-gguf`,
 *   `unsupported-gguf`, `file-truncated` or `unsupported-architecture`, each naming the file.
 */
export async function inspectGguf(filePath: string): Promise<GgufSummary> {
  // Missing, a folder, unreadable: one message, so a refusal is no oracle for what is on disk.
  const unreadable = (cause?: unknown) =>
    new ModelError(
      'file-missing',
      `Model file not found or not readable: ${filePath}. Expected a GGUF model file (a name ending in .gguf) that you may read.`,
      { cause },
    );
  let sizeBytes: number;
  let file: import('node:fs/promises').FileHandle;
  try {
    const info = await stat(filePath);
    if (!info.isFile()) throw unreadable();
    sizeBytes = info.size;
    file = await open(filePath, 'r');
  } catch (error) {
    if (error instanceof ModelError) throw error;
    throw unreadable(error);
  }
  try {
    const reader = new HeaderReader(file, sizeBytes, filePath);
    const magic = await reader.bytes(4).catch(() => Buffer.alloc(0));
    if (magic.toString('latin1') !== 'GGUF') {
      // Never the bytes found: the file may be anything (issue 23).
      throw new ModelError(
        'not-gguf',
        `Not a GGUF model file: ${filePath} (a GGUF file starts with the bytes GGUF). ` +
          'Pick a .gguf file, e.g. a Q4_K_M quantization from Hugging Face.',
      );
    }
    const version = await reader.u32();
    if (version < 2 || version > 3) {
      throw new ModelError(
        'unsupported-gguf',
        `Unsupported GGUF version ${version} in ${filePath} (versions 2 and 3 are supported).`,
      );
    }
    const tensorCount = await reader.u64();
    const kvCount = await reader.u64();
    const metadata = new Map<string, unknown>();
    for (let i = 0; i < kvCount; i++) {
      const key = await reader.string();
      const type = await reader.u32();
      metadata.set(key, await reader.value(type));
    }
    const alignment =
      typeof metadata.get('general.alignment') === 'number'
        ? (metadata.get('general.alignment') as number)
        : 32;
    let dataEnd = 0;
    let allKnown = true;
    for (let i = 0; i < tensorCount; i++) {
      await reader.string();
      const nDims = await reader.u32();
      let elements = 1;
      for (let d = 0; d < nDims; d++) elements *= await reader.u64();
      const type = await reader.u32();
      const offset = await reader.u64();
      const block = GGML_TYPE_BLOCKS[type];
      if (!block) allKnown = false;
      else dataEnd = Math.max(dataEnd, offset + Math.ceil(elements / block[0]) * block[1]);
    }
    const dataStart = Math.ceil(reader.position / alignment) * alignment;
    const expectedMinBytes = allKnown ? dataStart + dataEnd : undefined;
    if (expectedMinBytes !== undefined && sizeBytes < expectedMinBytes) {
      throw new ModelError(
        'file-truncated',
        `Model file is truncated: ${filePath} is ${sizeBytes} bytes but its header describes ${expectedMinBytes} bytes ` +
          '(an interrupted download?). Download it again or resume the download.',
      );
    }
    const architecture = String(metadata.get('general.architecture') ?? '');
    if (!KNOWN_ARCHITECTURES.has(architecture)) {
      throw new ModelError(
        'unsupported-architecture',
        `Unsupported model architecture "${architecture || '(none)'}" in ${filePath}: the bundled llama.cpp cannot run it.`,
      );
    }
    const contextLength = metadata.get(`${architecture}.context_length`);
    const name = metadata.get('general.name');
    return {
      path: filePath,
      sizeBytes,
      version,
      architecture,
      name: typeof name === 'string' ? name : undefined,
      tensorCount,
      contextLength: typeof contextLength === 'number' ? contextLength : undefined,
      expectedMinBytes,
    };
  } finally {
    await file.close();
  }
}

/**
 * Buffered little-endian reader over a file handle. The header of a real model holds a
 * 100k+ entry vocabulary (megabytes), so it reads in chunks rather than all at once.
 */
class HeaderReader {
  position = 0;
  private buffer = Buffer.alloc(0);
  private bufferStart = 0;

  constructor(
    private readonly file: import('node:fs/promises').FileHandle,
    private readonly size: number,
    private readonly path: string,
  ) {}

  async bytes(n: number): Promise<Buffer> {
    if (this.position + n > this.size) {
      throw new ModelError(
        'file-truncated',
        `Model file is truncated: ${this.path} ends inside its GGUF header (${this.size} bytes).`,
      );
    }
    const end = this.position + n;
    if (end > this.bufferStart + this.buffer.length) {
      const length = Math.max(n, 1 << 20);
      const chunk = Buffer.alloc(Math.min(length, this.size - this.position));
      await this.file.read(chunk, 0, chunk.length, this.position);
      this.buffer = chunk;
      this.bufferStart = this.position;
    }
    const from = this.position - this.bufferStart;
    this.position = end;
    return this.buffer.subarray(from, from + n);
  }
  async u32(): Promise<number> {
    return (await this.bytes(4)).readUInt32LE(0);
  }
  async u64(): Promise<number> {
    const value = (await this.bytes(8)).readBigUInt64LE(0);
    if (value > BigInt(Number.MAX_SAFE_INTEGER)) {
      throw new ModelError(
        'unsupported-gguf',
        `Corrupt GGUF header in ${this.path}: a count or offset is ${value}.`,
      );
    }
    return Number(value);
  }
  async string(): Promise<string> {
    const length = await this.u64();
    return (await this.bytes(length)).toString('utf8');
  }
  /** Reads one metadata value; arrays are skipped (returned as their length) except small ones. */
  async value(type: number): Promise<unknown> {
    switch (type) {
      case 0:
        return (await this.bytes(1)).readUInt8(0);
      case 1:
        return (await this.bytes(1)).readInt8(0);
      case 2:
        return (await this.bytes(2)).readUInt16LE(0);
      case 3:
        return (await this.bytes(2)).readInt16LE(0);
      case 4:
        return this.u32();
      case 5:
        return (await this.bytes(4)).readInt32LE(0);
      case 6:
        return (await this.bytes(4)).readFloatLE(0);
      case 7:
        return (await this.bytes(1)).readUInt8(0) !== 0;
      case 8:
        return this.string();
      case 9: {
        const itemType = await this.u32();
        const count = await this.u64();
        for (let i = 0; i < count; i++) await this.value(itemType);
        return count;
      }
      case 10:
        return this.u64();
      case 11:
        return Number((await this.bytes(8)).readBigInt64LE(0));
      case 12:
        return (await this.bytes(8)).readDoubleLE(0);
      default:
        throw new ModelError(
          'unsupported-gguf',
          `Corrupt GGUF header in ${this.path}: unknown metadata type ${type}.`,
        );
    }
  }
}
