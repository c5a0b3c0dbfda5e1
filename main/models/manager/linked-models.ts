/**
 * Models a person picked from disk ("Use this file"): remembered by path, not copied (a GGUF can
 * weigh gigabytes), so the start dialog, the Lab and Settings offer them again next time like
 * the models in the models folder. The list is `<models folder>/linked-models.json`; a linked
 * file that has since gone is left out of the listing and stays in the file (it may be on a
 * drive that is not mounted now).
 */
import { mkdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { writeFileAtomic } from '../../fsx/atomic';

export const LINKED_MODELS_FILE = 'linked-models.json';

const linkedSchema = z.object({ version: z.literal(1), paths: z.array(z.string().min(1)) });

/** The remembered paths, oldest first; none when the file is absent or unreadable. */
export async function readLinkedModels(modelsDir: string): Promise<string[]> {
  try {
    const raw = JSON.parse(await readFile(path.join(modelsDir, LINKED_MODELS_FILE), 'utf8'));
    const parsed = linkedSchema.safeParse(raw);
    return parsed.success ? parsed.data.paths : [];
  } catch {
    return [];
  }
}

/**
 * Remembers `modelPath` (absolute). A path inside the models folder is listed anyway and is not
 * added. Written atomically (temp file + rename).
 */
export async function linkModel(modelsDir: string, modelPath: string): Promise<void> {
  const absolute = path.resolve(modelPath);
  if (path.dirname(absolute) === path.resolve(modelsDir)) return;
  const paths = await readLinkedModels(modelsDir);
  if (paths.includes(absolute)) return;
  await mkdir(modelsDir, { recursive: true });
  const file = path.join(modelsDir, LINKED_MODELS_FILE);
  await writeFileAtomic(
    file,
    `${JSON.stringify({ version: 1, paths: [...paths, absolute] }, null, 2)}\n`,
  );
}

/** Forgets `modelPath` (the file itself is never touched). */
export async function unlinkModel(modelsDir: string, modelPath: string): Promise<boolean> {
  const absolute = path.resolve(modelPath);
  const paths = await readLinkedModels(modelsDir);
  if (!paths.includes(absolute)) return false;
  const file = path.join(modelsDir, LINKED_MODELS_FILE);
  await writeFileAtomic(
    file,
    `${JSON.stringify({ version: 1, paths: paths.filter((p) => p !== absolute) }, null, 2)}\n`,
  );
  return true;
}
