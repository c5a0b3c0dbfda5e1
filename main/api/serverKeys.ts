/**
 * Model servers' API keys (issue #24), kept apart from settings.json: one file,
 * `<settings folder>/server-keys.json`, owner-only (0600), written atomically. Each value passes
 * through a {@link KeyCodec}: in the desktop app Electron's safeStorage (the OS keychain's key
 * encrypts it, so the file never holds a key in plain text); in web mode and the CLI the identity,
 * the file's permissions being the protection, as for an SSH key.
 *
 * Keys leave this module only towards a server: `servers.test` sends one, and the runs broker
 * hands the simulation process the map it needs to load a run's server model. The window only
 * learns which servers have one ({@link ServerKeyStore.ids}).
 *
 * A key saved under another codec than the one in use (a key saved by the desktop app, read by
 * web mode) cannot be decrypted: it counts as absent, and saving a key anew replaces it.
 */
import { chmod, mkdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { serverIdSchema } from '../../common/api/servers';
import { writeFileAtomic } from '../fsx/atomic';

export const SERVER_KEYS_FILE = 'server-keys.json';
/** Owner read and write, nobody else. */
export const SERVER_KEYS_MODE = 0o600;

/** How a key is stored: `encode` before writing, `decode` after reading. */
export interface KeyCodec {
  /** Recorded beside each value, so a key is never decoded by the wrong codec. */
  readonly name: 'plain' | 'safeStorage';
  encode(key: string): string;
  decode(stored: string): string;
}

/** Web mode and the CLI: the value as given (the file's 0600 mode protects it). */
export const plainKeyCodec: KeyCodec = {
  name: 'plain',
  encode: (key) => key,
  decode: (stored) => stored,
};

/** The part of Electron's `safeStorage` the codec uses (typed here: this module never imports electron). */
export interface SafeStorageLike {
  isEncryptionAvailable(): boolean;
  encryptString(plainText: string): Buffer;
  decryptString(encrypted: Buffer): string;
}

/** The desktop app: Electron's safeStorage; values are stored as base64 of the ciphertext. */
export function safeStorageKeyCodec(safeStorage: SafeStorageLike): KeyCodec {
  const available = () => {
    if (!safeStorage.isEncryptionAvailable()) {
      throw new Error(
        "Electron's safeStorage cannot encrypt on this computer (no OS keychain or keyring is " +
          'available to the studio), so the API key was not saved. Unlock or install a keychain ' +
          '(on Linux: gnome-keyring or KWallet) and try again, or use the server without a key.',
      );
    }
  };
  return {
    name: 'safeStorage',
    encode(key) {
      available();
      return safeStorage.encryptString(key).toString('base64');
    },
    decode(stored) {
      available();
      return safeStorage.decryptString(Buffer.from(stored, 'base64'));
    },
  };
}

const keyFileSchema = z.object({
  version: z.literal(1),
  keys: z.record(
    serverIdSchema,
    z.object({ codec: z.enum(['plain', 'safeStorage']), value: z.string() }),
  ),
});
type KeyFile = z.infer<typeof keyFileSchema>;

/** What the simulation process and `servers.test` read: keys by server id. */
export interface ServerKeySource {
  /** Every key this codec can read, by server id. */
  all(): Promise<Record<string, string>>;
  /** Counts saves and removals: a reader holding an older count reads again. */
  readonly revision: number;
}

/** The key file in `dir`. Writes are queued, so two quick saves never race. */
export class ServerKeyStore implements ServerKeySource {
  readonly file: string;
  private queue: Promise<unknown> = Promise.resolve();
  private changes = 0;

  constructor(
    dir: string,
    private readonly codec: KeyCodec = plainKeyCodec,
  ) {
    this.file = path.join(dir, SERVER_KEYS_FILE);
  }

  get revision(): number {
    return this.changes;
  }

  /** The ids of the servers with a key this codec can read. */
  async ids(): Promise<string[]> {
    return Object.keys(await this.all()).sort();
  }

  /** The key saved for `serverId`, if any. */
  async get(serverId: string): Promise<string | undefined> {
    return (await this.all())[serverId];
  }

  async all(): Promise<Record<string, string>> {
    const out: Record<string, string> = {};
    for (const [id, entry] of Object.entries((await this.read()).keys)) {
      if (entry.codec !== this.codec.name) continue;
      try {
        out[id] = this.codec.decode(entry.value);
      } catch {
        // Not decryptable here (another user's keychain, a reset keyring): as if absent.
      }
    }
    return out;
  }

  /** Saves `key` for `serverId`, or forgets it (null). */
  set(serverId: string, key: string | null): Promise<void> {
    return this.change((file) => {
      if (key === null) delete file.keys[serverId];
      else file.keys[serverId] = { codec: this.codec.name, value: this.codec.encode(key) };
    });
  }

  /** Forgets the keys of servers not in `serverIds` (removed from Settings). */
  keepOnly(serverIds: readonly string[]): Promise<void> {
    const keep = new Set(serverIds);
    return this.change((file) => {
      for (const id of Object.keys(file.keys)) if (!keep.has(id)) delete file.keys[id];
    });
  }

  private change(edit: (file: KeyFile) => void): Promise<void> {
    const run = this.queue.then(async () => {
      const file = await this.read();
      const before = JSON.stringify(file);
      edit(file);
      if (JSON.stringify(file) === before) return;
      await mkdir(path.dirname(this.file), { recursive: true });
      // A file someone loosened is tightened first: the replacement keeps the old file's mode.
      await chmod(this.file, SERVER_KEYS_MODE).catch(() => undefined);
      await writeFileAtomic(this.file, `${JSON.stringify(file, null, 2)}\n`, {
        mode: SERVER_KEYS_MODE,
      });
      this.changes++;
    });
    this.queue = run.catch(() => undefined);
    return run;
  }

  /** The file's contents; a missing file is empty, a damaged one refuses with its name. */
  private async read(): Promise<KeyFile> {
    let text: string;
    try {
      text = await readFile(this.file, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { version: 1, keys: {} };
      throw new Error(
        `${this.file} could not be read (${(error as Error).message}): check its permissions.`,
      );
    }
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      throw damaged(this.file, 'it is not valid JSON');
    }
    const parsed = keyFileSchema.safeParse(json);
    if (!parsed.success) throw damaged(this.file, parsed.error.issues[0]?.message ?? 'bad shape');
    return parsed.data;
  }
}

function damaged(file: string, why: string): Error {
  return new Error(
    `${file} is damaged (${why}); the model servers' API keys cannot be read. ` +
      'Delete the file and enter the keys again in Settings › Model servers.',
  );
}
