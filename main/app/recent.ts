/**
 * The File ▸ Recent list: packs opened from disk, newest first, persisted as
 * `<home data folder>/recent.json`. A damaged file is an empty list, never a crash.
 */
import { existsSync } from 'node:fs';
import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { writeFileAtomic } from '../fsx/atomic';

export const RECENT_FILE = 'recent.json';
export const MAX_RECENT = 10;

const recentSchema = z.array(z.object({ path: z.string().min(1).max(4096), openedAt: z.string() }));
export type RecentList = z.infer<typeof recentSchema>;

/** `list` with `path` moved (or added) to the top, at most `max` entries. Pure. */
export function addRecent(
  list: RecentList,
  path: string,
  now = new Date(),
  max = MAX_RECENT,
): RecentList {
  return [{ path, openedAt: now.toISOString() }, ...list.filter((e) => e.path !== path)].slice(
    0,
    max,
  );
}

/** Drops entries whose files are gone (moved, deleted, on an unplugged drive). */
export function withoutMissing(
  list: RecentList,
  exists: (path: string) => boolean = existsSync,
): RecentList {
  return list.filter((e) => exists(e.path));
}

export async function loadRecent(homeDir: string): Promise<RecentList> {
  try {
    const parsed = recentSchema.safeParse(
      JSON.parse(await readFile(join(homeDir, RECENT_FILE), 'utf8')),
    );
    return parsed.success ? parsed.data.slice(0, MAX_RECENT) : [];
  } catch {
    return []; // missing or unreadable: the list is only a convenience
  }
}

export async function saveRecent(homeDir: string, list: RecentList): Promise<void> {
  const file = join(homeDir, RECENT_FILE);
  await mkdir(homeDir, { recursive: true });
  await writeFileAtomic(file, `${JSON.stringify(list, null, 2)}\n`);
}
