/**
 * The Generative Agents ("reverie") storage format, shared by the importer and the exporter:
 * where its files live, how its CSVs are written and read, and its time format.
 * See ../../../../../shared/fixtures/reverie/MANIFEST.md for the format itself.
 */
import { MONTH_NAMES } from '../../../../common/calendar';
import path from 'node:path';

/** The five zone mazes, in the order reverie's maze.py reads them. */
export const MAZE_KINDS = ['collision', 'sector', 'arena', 'game_object', 'spawning_location'];

/** The five block tables (id → hierarchical name). */
export const BLOCK_KINDS = ['world', 'sector', 'arena', 'game_object', 'spawning_location'];

/** Block ids of the original map: the invisible "blocks" tileset starts at gid 32125. */
export const COLLISION_BLOCK_ID = 32125;
export const WORLD_BLOCK_ID = 32134;
/** The first id the original gave a named block (its first sector). */
export const FIRST_NAMED_BLOCK_ID = 32135;

/** The default base simulation and maze of the original repository. */
export const DEFAULT_BASE = 'base_the_ville_n25';
export const DEFAULT_MAZE = 'the_ville';

/** The `<all>` placeholder: game object types are global in reverie, not per arena. */
export const ALL_ARENAS = '<all>';

/** Paths inside a reverie `environment/frontend_server` folder. */
export const reveriePaths = {
  matrix: (root: string, maze: string) => path.join(root, 'static_dirs', 'assets', maze, 'matrix'),
  mazeMeta: (root: string, maze: string) =>
    path.join(reveriePaths.matrix(root, maze), 'maze_meta_info.json'),
  maze: (root: string, maze: string, kind: string) =>
    path.join(reveriePaths.matrix(root, maze), 'maze', `${kind}_maze.csv`),
  blocks: (root: string, maze: string, kind: string) =>
    path.join(reveriePaths.matrix(root, maze), 'special_blocks', `${kind}_blocks.csv`),
  sim: (root: string, sim: string) => path.join(root, 'storage', sim),
  meta: (root: string, sim: string) => path.join(root, 'storage', sim, 'reverie', 'meta.json'),
  environment: (root: string, sim: string) =>
    path.join(root, 'storage', sim, 'environment', '0.json'),
  bootstrap: (root: string, sim: string, persona: string) =>
    path.join(root, 'storage', sim, 'personas', persona, 'bootstrap_memory'),
};

/**
 * Parses a reverie CSV (Python `csv.reader` semantics plus the strip reverie applies to every
 * cell, which is what removes the `Ryan Park's apartment ` trailing space). Quoted cells are
 * honoured when the quote opens the cell, as Python's reader does.
 */
export function parseReverieCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  let cellStart = true;
  const endCell = () => {
    row.push(cell.trim());
    cell = '';
    cellStart = true;
  };
  const endRow = () => {
    endCell();
    if (row.some((c) => c.length > 0)) rows.push(row);
    row = [];
  };
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else cell += ch;
      continue;
    }
    if (ch === '"' && cellStart) {
      quoted = true;
      cellStart = false;
    } else if (ch === ',') endCell();
    else if (ch === '\n') endRow();
    else if (ch !== '\r') {
      cell += ch;
      cellStart = false;
    }
  }
  if (cell.length > 0 || row.length > 0) endRow();
  return rows;
}

/**
 * Formats one CSV row the way the original files are written (`id, world, sector`). A cell
 * holding a comma or quote is quoted and, unlike the others, not preceded by a space: Python's
 * reader only recognises a quote that opens the cell.
 */
export function formatReverieCsvRow(cells: readonly (string | number)[]): string {
  return cells
    .map((value, i) => {
      const text = String(value);
      const needsQuotes = /[",\n\r]/.test(text) || text !== text.trim();
      const cell = needsQuotes ? `"${text.replace(/"/g, '""')}"` : text;
      if (i === 0) return cell;
      return (needsQuotes ? ',' : ', ') + cell;
    })
    .join('');
}

/** A maze as the original writes it: one line of `width × height` ids joined by ", ". */
export function formatMaze(grid: readonly number[]): string {
  return grid.join(', ');
}

/**
 * Reverie time (`%B %d, %Y, %H:%M:%S`, e.g. "February 13, 2023, 00:00:00") → our ISO local
 * form ("2023-02-13T00:00:00"), or null when it does not parse.
 */
export function reverieTimeToIso(text: string): string | null {
  const m = /^\s*([A-Za-z]+) (\d{1,2}), (\d{4})(?:, (\d{1,2}):(\d{2}):(\d{2}))?\s*$/.exec(text);
  if (!m) return null;
  const month = (MONTH_NAMES as readonly string[]).indexOf(m[1]) + 1;
  if (month === 0) return null;
  const two = (n: string | number) => String(n).padStart(2, '0');
  return `${m[3]}-${two(month)}-${two(m[2])}T${two(m[4] ?? 0)}:${m[5] ?? '00'}:${m[6] ?? '00'}`;
}

/** Our ISO local time → reverie's `curr_time` and `start_date` strings. */
export function isoToReverie(iso: string): { currTime: string; startDate: string } {
  const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?$/.exec(iso);
  if (!m) throw new Error(`expected a date-time like 2023-02-13T07:00:00, got "${iso}"`);
  const startDate = `${MONTH_NAMES[Number(m[2]) - 1]} ${m[3]}, ${m[1]}`;
  return { startDate, currTime: `${startDate}, ${m[4]}:${m[5]}:${m[6] ?? '00'}` };
}
