/**
 * `simulacra import reverie <root> <folder>` and `simulacra import tiled <map> <folder>`:
 * builds a scenario from another tool's files and writes it as a scenario folder.
 */
import { EXIT_OK, UsageError, type CliCommand } from '../command';
import { parseCommandArgs } from '../args';
import { printWarnings, reportFailure } from '../report';
import { plural } from '../source';
import { writeScenarioFolder } from '../../packs/index';
import { importReverie, DEFAULT_BASE } from '../../packs/importers/reverie/index';
import { importTiled } from '../../packs/importers/tiled/index';
import type { ImportResult } from '../../packs/importers/common';

const usage = `Usage: simulacra import reverie <frontend_server folder> <scenario folder> [--base <sim>] [--force]
       simulacra import tiled <map.tmj|map.tmx> <scenario folder> [--force]
Builds a scenario from another tool's files, validates it and writes it as a scenario folder.
  reverie   an original Generative Agents town: the environment/frontend_server folder that
            holds static_dirs/ and storage/ (the maze matrix and a base simulation's personas)
  tiled     a Tiled map; layers named like "collision", "sector", "arena", "object" or
            "spawn" become those, other tile layers are terrain
  --base    the base simulation under storage/ (default ${DEFAULT_BASE})
  --force   replace the scenario in <scenario folder> even if it is not empty (atomically;
            files outside the scenario layout are kept)`;

export const importCommand: CliCommand = {
  name: 'import',
  summary: 'make a scenario from a Generative Agents (reverie) town or a Tiled map',
  usage,
  async run(args, io) {
    const { positionals, values, help } = parseCommandArgs(
      args,
      { base: { type: 'string' }, force: { type: 'boolean', short: 'f' } },
      { min: 3, max: 3, names: 'a format (reverie or tiled), a source and a scenario folder' },
    );
    if (help) {
      io.out(usage);
      return EXIT_OK;
    }
    const [format, source, folder] = positionals;
    if (format !== 'reverie' && format !== 'tiled')
      throw new UsageError(`expected the format "reverie" or "tiled", got "${format}"`);
    if (format === 'tiled' && values.base !== undefined)
      throw new UsageError('--base is for reverie imports only');
    try {
      const result: ImportResult =
        format === 'reverie'
          ? await importReverie(source, { base: values.base })
          : await importTiled(source);
      printWarnings(result.warnings, io);
      const { scenario } = result;
      await writeScenarioFolder(scenario, folder, result.assets, { force: values.force === true });
      const { width, height } = scenario.map;
      io.out(
        `imported: ${scenario.name} (${plural(scenario.personas.length, 'persona')}, ${plural(scenario.tree.sectors.length, 'sector')}, ${width}x${height}) → ${folder}`,
      );
      return EXIT_OK;
    } catch (err) {
      return reportFailure(err, io, 'import', source);
    }
  },
};
