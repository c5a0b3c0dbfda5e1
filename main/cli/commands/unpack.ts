/** `simulacra unpack <pack.simpack> <folder>`: extracts a pack into a scenario folder. */
import { EXIT_OK, type CliCommand } from '../command';
import { parseCommandArgs } from '../args';
import { printWarnings, reportFailure } from '../report';
import { loadScenarioSource } from '../source';
import { writeScenarioFolder } from '../../packs/index';

const usage = `Usage: simulacra unpack <pack.simpack> <folder> [--force]

Validates a pack completely, then writes its scenario into <folder> as diff-friendly JSON
files (one map row per line) plus its assets. Nothing is written if the pack is refused,
and nothing is ever written outside <folder>.

  --force   replace the scenario in <folder> even if it is not empty: its JSON files and
            assets/ are replaced as a whole (the new folder is built beside it and swapped
            in, so a kill mid-way leaves the old scenario whole); other files are kept`;

export const unpackCommand: CliCommand = {
  name: 'unpack',
  summary: 'validate a .simpack and extract it into a folder',
  usage,
  async run(args, io) {
    const { positionals, values, help } = parseCommandArgs(
      args,
      { force: { type: 'boolean', short: 'f' } },
      { min: 2, max: 2, names: 'a pack and a folder' },
    );
    if (help) {
      io.out(usage);
      return EXIT_OK;
    }
    const [pack, folder] = positionals;
    try {
      const { scenario, assets, warnings } = await loadScenarioSource(pack);
      printWarnings(warnings, io);
      await writeScenarioFolder(scenario, folder, assets, { force: values.force === true });
      io.out(`unpacked: ${scenario.name} → ${folder}`);
      return EXIT_OK;
    } catch (err) {
      return reportFailure(err, io, 'unpack', pack);
    }
  },
};
