/**
 * `npm run bench`: runs every `*.bench.ts` under common/, main/ and scripts/ in turn, each in
 * its own process (so one bench's heap and threads never skew the next), passes their output
 * through, and ends with a table of every `BENCH {json}` line. `npm run bench -- <filter>`
 * runs only the files whose path contains the filter.
 */
import { spawn } from 'node:child_process';
import { readdir } from 'node:fs/promises';
import { join, relative } from 'node:path';

const root = join(import.meta.dirname, '..');
const filter = process.argv[2] ?? '';

async function findBenches(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name.startsWith('.')) continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...(await findBenches(path)));
    else if (entry.name.endsWith('.bench.ts')) out.push(path);
  }
  return out;
}

interface BenchLine {
  name: string;
  value: number;
  unit: string;
  ratio?: number;
  [key: string]: unknown;
}

function runBench(file: string): Promise<{ code: number; lines: BenchLine[] }> {
  return new Promise((resolve) => {
    const lines: BenchLine[] = [];
    const child = spawn(process.execPath, ['--import', 'tsx', file], {
      cwd: root,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let buffer = '';
    child.stdout.on('data', (chunk: Buffer) => {
      process.stdout.write(chunk);
      buffer += chunk.toString();
      let nl;
      while ((nl = buffer.indexOf('\n')) >= 0) {
        const line = buffer.slice(0, nl);
        buffer = buffer.slice(nl + 1);
        if (line.startsWith('BENCH ')) {
          try {
            lines.push(JSON.parse(line.slice(6)) as BenchLine);
          } catch {
            console.error(`bench: malformed BENCH line from ${file}: ${line}`);
          }
        }
      }
    });
    child.on('close', (code) => resolve({ code: code ?? 1, lines }));
  });
}

const files = (
  await Promise.all(['common', 'main', 'scripts'].map((d) => findBenches(join(root, d))))
)
  .flat()
  .filter((f) => relative(root, f).includes(filter))
  .sort();
const all: BenchLine[] = [];
let failures = 0;
for (const file of files) {
  console.log(`\n━━ ${relative(root, file)}`);
  const { code, lines } = await runBench(file);
  if (code !== 0) {
    failures++;
    console.error(`bench: ${relative(root, file)} exited with ${code}`);
  }
  all.push(...lines);
}
console.log('\nSummary');
for (const b of all) {
  const ratio = b.ratio === undefined ? '' : `  ratio ${b.ratio.toFixed(2)}`;
  console.log(
    `  ${b.name.padEnd(40)} ${String(Number(b.value.toPrecision(4))).padStart(10)} ${b.unit}${ratio}`,
  );
}
process.exit(failures ? 1 : 0);
