/** `simulacra validate <pack.simpack|folder>`: checks a scenario and lists every problem. */
import { checkRunnable } from '../../../common/scenario/runnable';
import { attributeIssues, ScenarioFilesError } from '../../../common/scenario/split';
import { EXIT_OK, type CliCommand } from '../command';
import { parseCommandArgs } from '../args';
import { printWarnings, reportFailure } from '../report';
import { loadScenarioSource, plural } from '../source';

const usage = `Usage: simulacra validate <pack.simpack|folder>

Checks a scenario pack or an unpacked scenario folder: the archive's safety, every JSON file,
the schema and the cross-references, and that the town can be run (at least one resident, and a
walkable tile for each to start on). Prints each problem as "<file> → <path>: <message>".
Exits 0 when the scenario is valid, 1 when it is not.`;

export const validateCommand: CliCommand = {
  name: 'validate',
  summary: 'check a .simpack or scenario folder and list every problem',
  usage,
  async run(args, io) {
    const { positionals, help } = parseCommandArgs(
      args,
      {},
      { min: 1, max: 1, names: 'one pack or folder' },
    );
    if (help) {
      io.out(usage);
      return EXIT_OK;
    }
    const [target] = positionals;
    try {
      const { scenario, warnings } = await loadScenarioSource(target);
      printWarnings(warnings, io);
      // A town with nobody in it, or nowhere to stand, loads in the editor but cannot run.
      const blockers = checkRunnable(scenario);
      if (blockers.length > 0) throw new ScenarioFilesError(attributeIssues(blockers), target);
      const { width, height } = scenario.map;
      io.out(
        `ok: ${scenario.name} (${plural(scenario.personas.length, 'persona')}, ${width}x${height})`,
      );
      return EXIT_OK;
    } catch (err) {
      return reportFailure(err, io, 'validate', target);
    }
  },
};
