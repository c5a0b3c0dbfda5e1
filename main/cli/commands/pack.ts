/** `simulacra pack <folder> <out.simpack>`: zips a scenario folder into a pack. */
import { lstat } from 'node:fs/promises';
import { EXIT_FAILED, EXIT_OK, type CliCommand } from '../command';
import { parseCommandArgs } from '../args';
import { printWarnings, reportFailure } from '../report';
import {
  readScenarioFolder,
  zipFiles,
  layoutFiles,
  formatBytes,
  writePackFile,
} from '../../packs/index';

const usage = `Usage: simulacra pack <folder> <out.simpack> [--force]

Validates an unpacked scenario folder and writes it as a .simpack file. The pack's bytes
depend only on its content, so packing the same folder twice gives the same file.

  --force   replace <out.simpack> if it exists (atomically: killed mid-way, the old
            file is still whole)`;

export const packCommand: CliCommand = {
  name: 'pack',
  summary: 'validate a scenario folder and write it as a .simpack',
  usage,
  async run(args, io) {
    const { positionals, values, help } = parseCommandArgs(
      args,
      { force: { type: 'boolean', short: 'f' } },
      { min: 2, max: 2, names: 'a folder and an output file' },
    );
    if (help) {
      io.out(usage);
      return EXIT_OK;
    }
    const [folder, out] = positionals;
    try {
      const existing = await lstat(out).catch(() => null);
      if (existing && (!values.force || !existing.isFile())) {
        io.err(
          `simulacra pack: ${out} already exists${existing.isFile() ? ' (use --force to replace it)' : ' and is not a file'}`,
        );
        return EXIT_FAILED;
      }
      const { scenario, assets, warnings } = await readScenarioFolder(folder);
      printWarnings(warnings, io);
      const bytes = await zipFiles(layoutFiles(scenario, assets));
      // Atomic: a kill mid-write leaves the old pack whole. Unless replacing, a file that
      // appeared after the check above is not clobbered either.
      await writePackFile(out, bytes, { replace: existing !== null });
      io.out(`packed: ${scenario.name} → ${out} (${formatBytes(bytes.length)})`);
      return EXIT_OK;
    } catch (err) {
      return reportFailure(err, io, 'pack', folder);
    }
  },
};
