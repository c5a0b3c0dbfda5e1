/** Writes a generated template's files to templates/<id>/ (used by each generator's main). */
import { mkdirSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** Writes `files` (file name → text) into templates/<id>/ and returns that folder. */
export function writeTemplateFolder(id: string, files: Record<string, string>): string {
  const dir = fileURLToPath(new URL(`../../templates/${id}/`, import.meta.url));
  mkdirSync(dir, { recursive: true });
  for (const [name, text] of Object.entries(files)) writeFileSync(`${dir}${name}`, text);
  return dir;
}
