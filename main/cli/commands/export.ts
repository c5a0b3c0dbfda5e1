/**
 * `simulacra export reverie <scenario> <folder>`: writes a scenario in the original
 * Generative Agents layout, to run it in the original Python code.
 */
import { EXIT_OK, UsageError, type CliCommand } from '../command';
import { parseCommandArgs } from '../args';
import { printWarnings, reportFailure } from '../report';
import { loadScenarioSource } from '../source';
import { exportReverie } from '../../packs/exporters/reverie';

const usage = `Usage: simulacra export reverie <scenario folder|pack.simpack> <folder> [--maze <name>] [--sim <name>] [--force]
Writes the scenario as an original Generative Agents environment/frontend_server folder:
static_dirs/assets/<maze>/matrix/ (mazes and block tables) and storage/<sim>/ (meta.json,
environment/0.json and each persona's bootstrap_memory). <folder> may be an existing
frontend_server folder; nothing outside those two subfolders is touched.
  --maze    maze name (default the_ville, the folder the original backend reads)
  --sim     base simulation name (default base_<scenario id>)
  --force   replace an existing maze matrix or simulation of the same name`;

export const exportCommand: CliCommand = {
  name: 'export',
  summary: 'write a scenario for the original Generative Agents code (reverie)',
  usage,
  async run(args, io) {
    const { positionals, values, help } = parseCommandArgs(
      args,
      { maze: { type: 'string' }, sim: { type: 'string' }, force: { type: 'boolean', short: 'f' } },
      { min: 3, max: 3, names: 'the format (reverie), a scenario and a folder' },
    );
    if (help) {
      io.out(usage);
      return EXIT_OK;
    }
    const [format, source, folder] = positionals;
    if (format !== 'reverie')
      throw new UsageError(`expected the format "reverie", got "${format}"`);
    try {
      const { scenario, warnings } = await loadScenarioSource(source);
      printWarnings(warnings, io);
      const result = await exportReverie(scenario, folder, {
        maze: values.maze,
        sim: values.sim,
        force: values.force === true,
      });
      printWarnings(result.warnings, io);
      io.out(
        `exported: ${scenario.name} → ${folder} (maze ${result.maze}, simulation ${result.sim}, ${result.files.length} files)`,
      );
      return EXIT_OK;
    } catch (err) {
      return reportFailure(err, io, 'export', source);
    }
  },
};
