/** Helpers shared by the template tests: read a committed template and walk its map. */
import { readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { reachableTiles } from '../../common/scenario/reachability';
import { validateScenarioFiles } from '../../common/scenario/split';
import type { Scenario } from '../../common/scenario/schema';

/** The folder of templates/<id>/, with a trailing separator. */
export function templateDir(id: string): string {
  return fileURLToPath(new URL(`../../templates/${id}/`, import.meta.url));
}

/** The committed files of templates/<id>/, by file name. */
export function committedTemplateFiles(id: string): Record<string, string> {
  const dir = templateDir(id);
  return Object.fromEntries(readdirSync(dir).map((f) => [f, readFileSync(dir + f, 'utf8')]));
}

/** Validates committed template files; throws with every issue when they are invalid. */
export function loadTemplateFiles(files: Record<string, string>): Scenario {
  const result = validateScenarioFiles(files);
  if (!result.ok) throw new Error(JSON.stringify(result.issues, null, 2));
  return result.scenario;
}

/** Every tile reachable from `starts` over collision-free tiles. */
export function reachable(s: Scenario, starts: number[]): Set<number> {
  const seen = reachableTiles(s.map, starts);
  return new Set(Array.from(seen.keys()).filter((i) => seen[i] === 1));
}

/** Indices of the cells of `grid` holding `id`. */
export const cellsWhere = (grid: number[], id: number) =>
  grid.flatMap((v, i) => (v === id ? [i] : []));
