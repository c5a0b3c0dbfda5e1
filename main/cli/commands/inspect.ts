/**
 * `simulacra inspect <run-dir>`: what a run holds, read from its files only (scenario.json,
 * run.json, events.ndjson, snapshots/): scenario, agents, steps and game time covered,
 * snapshots, and model calls and tokens per cognitive function from the event log.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Scenario } from '../../../common/scenario/schema';
import { listCheckpoints } from '../../engine/sim/checkpoint';
import { Clock } from '../../engine/sim/Clock';
import { EventLog } from '../../engine/sim/EventLog';
import type { RunInfo } from '../../engine/sim/Simulation';
import { parseCommandArgs } from '../args';
import { EXIT_OK, type CliCommand } from '../command';
import { reportFailure } from '../report';
import { formatDuration } from './run';

const usage = `Usage: simulacra inspect <run-dir>

Prints a run's scenario, agents, steps and game time covered, snapshots, and model calls and
tokens per cognitive function (from events.ndjson). Reads the files only; loads no model.`;

interface Row {
  calls: number;
  fromLog: number;
  promptTokens: number;
  cachedTokens: number;
  completionTokens: number;
}

export const inspectCommand: CliCommand = {
  name: 'inspect',
  summary: 'summarise a run directory (steps, snapshots, tokens per function)',
  usage,
  async run(args, io) {
    const { positionals, help } = parseCommandArgs(
      args,
      {},
      { min: 1, max: 1, names: 'one run directory' },
    );
    if (help) {
      io.out(usage);
      return EXIT_OK;
    }
    const runDir = positionals[0];
    try {
      const scenarioFile = path.join(runDir, 'scenario.json');
      if (!existsSync(scenarioFile)) throw new Error(`${runDir} is not a run directory`);
      const scenario = JSON.parse(readFileSync(scenarioFile, 'utf8')) as Scenario;
      const infoFile = path.join(runDir, 'run.json');
      const info = existsSync(infoFile)
        ? (JSON.parse(readFileSync(infoFile, 'utf8')) as RunInfo)
        : null;
      const { events, torn } = EventLog.read(path.join(runDir, 'events.ndjson'));
      const clock = new Clock(scenario.settings.startTime, scenario.settings.secondsPerStep);

      io.out(`run: ${runDir}`);
      io.out(`scenario: ${scenario.name} (${scenario.id})`);
      if (info?.parent) io.out(`fork of: ${info.parent.runDir} at step ${info.parent.step}`);
      io.out(
        `agents: ${scenario.personas.map((p) => `${p.firstName} ${p.lastName} (${p.id})`).join(', ')}`,
      );
      const steps = events.filter((e) => e.type === 'step');
      if (steps.length === 0) {
        io.out('steps: none');
      } else {
        const first = steps[0].step;
        const last = steps[steps.length - 1].step;
        const from = clock.gameSecondsAt(first);
        const to = clock.gameSecondsAt(last + 1);
        io.out(
          `steps: ${steps.length} (${first}–${last}), game time ${clock.label(from)} → ` +
            `${clock.label(to)} (${formatDuration(to - from)} at ${scenario.settings.secondsPerStep} s/step)`,
        );
      }
      const snapshots = listCheckpoints(runDir);
      io.out(`snapshots: ${snapshots.length ? snapshots.join(', ') : 'none'}`);
      if (torn) io.out('log: last line torn (the run was cut short)');

      const byFn = new Map<string, Row>();
      const total: Row = {
        calls: 0,
        fromLog: 0,
        promptTokens: 0,
        cachedTokens: 0,
        completionTokens: 0,
      };
      for (const e of events) {
        if (e.type !== 'llm' || typeof e.fn !== 'string') continue;
        let row = byFn.get(e.fn);
        if (!row) {
          row = { calls: 0, fromLog: 0, promptTokens: 0, cachedTokens: 0, completionTokens: 0 };
          byFn.set(e.fn, row);
        }
        const usage = (e.usage ?? {}) as Partial<Record<keyof Row, number>>;
        for (const r of [row, total]) {
          r.calls++;
          if (e.fromLog === true) r.fromLog++;
          r.promptTokens += usage.promptTokens ?? 0;
          r.cachedTokens += usage.cachedTokens ?? 0;
          r.completionTokens += usage.completionTokens ?? 0;
        }
      }
      const tokens = (r: Row) =>
        `${r.calls} calls, ${r.promptTokens} prompt (${r.cachedTokens} cached) + ` +
        `${r.completionTokens} completion tokens`;
      io.out(`model calls: ${tokens(total)}`);
      for (const fn of [...byFn.keys()].sort()) io.out(`  ${fn}: ${tokens(byFn.get(fn)!)}`);
      const interviews = events.filter((e) => e.type === 'interview').length;
      if (interviews) io.out(`interviews: ${interviews}`);
      return EXIT_OK;
    } catch (err) {
      return reportFailure(err, io, 'inspect', runDir);
    }
  },
};
