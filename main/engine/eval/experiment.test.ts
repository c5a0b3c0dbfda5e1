import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ALL_GUARDS_ON } from '../../../common/runs/guards';
import type { CompletionRequest } from '../../models/types';
import { EventLog } from '../sim/EventLog';
import { HashEmbedder, ScriptedModel } from '../testing/ScriptedModel';
import { buildTestScenario } from '../testing/testTown';
import { townScript } from '../testing/townScript';
import { cellsOf, runExperiment, type ExperimentPlan } from './experiment';
import { readScenarioFolder } from '../../packs/index';
import {
  checkEvaluation,
  defaultFacts,
  evaluationSchema,
  PRESETS,
  readEvaluationFile,
  resolveDesign,
} from './experimentConfig';
import { writeReport } from './report/writeReport';

const tmp = () => mkdtempSync(path.join(os.tmpdir(), 'experiment-'));

/** Town script plus yes/no answers (Ada says yes to everything, the others no). */
function model() {
  return new ScriptedModel({
    ...townScript(),
    interview: (request: CompletionRequest<unknown>, n: number) => {
      const props = (request.schema as { properties: Record<string, unknown> }).properties;
      if ('yes' in props) return { yes: request.agentId === 'ada', detail: 'Yes, I do.' };
      return { answer: `answer ${n + 1}` };
    },
  });
}

function plan(overrides: Partial<ExperimentPlan> = {}): ExperimentPlan {
  const design = resolveDesign('baseline,no-reflection');
  return {
    scenario: buildTestScenario(),
    conditions: design.conditions,
    baseline: design.baseline,
    seeds: [1, 2],
    steps: 3,
    snapshotEverySteps: 2,
    evaluation: evaluationSchema.parse({
      battery: { perCategory: 1 },
      diffusionPoints: 2,
      places: [{ place: 'Town:cafe:kitchen', from: '2023-02-13T10:00', to: '2023-02-13T10:03' }],
    }),
    ...overrides,
  };
}

describe('experiment design', () => {
  it('resolves presets, the first being the baseline', () => {
    const d = resolveDesign('cost-layer, baseline');
    expect(d.baseline).toBe('cost-layer');
    expect(d.conditions.map((c) => c.name)).toEqual(['cost-layer', 'baseline']);
    expect(d.conditions[0].conditions).toEqual(PRESETS['cost-layer']);
    expect(PRESETS['no-reflection-planning'].ablation).toBe('no-reflection-planning');
    expect(() => resolveDesign('baseline,fast')).toThrow(
      /unknown preset "fast" \(presets: baseline, cost-layer, .*; or give a \.json file\)/,
    );
  });

  it('reads a conditions file and names the file and field of a mistake', () => {
    const dir = tmp();
    const file = path.join(dir, 'c.json');
    writeFileSync(
      file,
      JSON.stringify({
        baseline: 'off',
        conditions: [
          { name: 'on', costLayer: { socialMemory: true }, model: 'big.gguf' },
          { name: 'off' },
        ],
      }),
    );
    const d = resolveDesign(file);
    expect(d.baseline).toBe('off');
    expect(d.conditions[0]).toEqual({
      name: 'on',
      conditions: {
        ablation: 'full',
        behaviourAblation: 'full',
        costLayer: { lifestylePolicy: false, socialMemory: true, mindWandering: false },
        guards: ALL_GUARDS_ON,
      },
      model: path.join(dir, 'big.gguf'),
    });
    const bad = (content: unknown) => {
      writeFileSync(file, typeof content === 'string' ? content : JSON.stringify(content));
      return () => resolveDesign(file);
    };
    expect(bad('{nope')).toThrow(/c\.json: not valid JSON/);
    expect(bad({ conditions: [{ name: 'a', ablation: 'no-sleep' }] })).toThrow(
      /c\.json: conditions\.0\.ablation: /,
    );
    expect(bad({ conditions: [{ name: 'a/b' }] })).toThrow(/conditions\.0\.name: expected letters/);
    expect(bad({ conditions: [{ name: 'a' }, { name: 'a' }] })).toThrow(/"a" is used twice/);
    expect(bad({ baseline: 'z', conditions: [{ name: 'a' }] })).toThrow(
      /baseline: "z" is not one of the conditions \(a\)/,
    );
    expect(() => resolveDesign(path.join(dir, 'missing.json'))).toThrow(/no such conditions file/);
    writeFileSync(file, JSON.stringify({ battery: { perCategory: 9 } }));
    expect(() => readEvaluationFile(file)).toThrow(/c\.json: battery\.perCategory/);
  });

  it('the Willow Bend example design is valid for the template', async () => {
    const design = resolveDesign(path.join(import.meta.dirname, 'examples', 'willow-bend.json'));
    const { scenario } = await readScenarioFolder(
      path.join(import.meta.dirname, '..', '..', '..', 'templates', 'willow-bend'),
    );
    expect(() => checkEvaluation(design.evaluation, scenario)).not.toThrow();
    expect(design.conditions.map((c) => c.name)).toEqual([
      'baseline',
      'cost-layer',
      'no-reflection',
    ]);
    // Each fact starts in exactly one resident's seed (keyword rule), so it can spread.
    for (const fact of design.evaluation.facts!) {
      const holders = scenario.personas.filter((p) =>
        fact.keywords!.every((k) => p.seed.toLowerCase().includes(k)),
      );
      expect(holders).toHaveLength(1);
    }
  });

  it('default facts are each resident’s second seed clause', () => {
    expect(defaultFacts(buildTestScenario()).map((f) => [f.id, f.statement])).toEqual([
      ['ada-seed', 'Ada is friends with Bo'],
      ['bo-seed', 'Bo knows Cy from the park'],
      ['cy-seed', 'Cy is the park gardener'],
    ]);
  });
});

describe('the experiment runner (scripted model)', () => {
  it('runs every cell, evaluates it and writes a report whose numbers come from the logs', async () => {
    const out = tmp();
    const embedder = new HashEmbedder();
    const m = model();
    const progress: string[] = [];
    const result = await runExperiment(
      plan(),
      out,
      async () => m,
      embedder,
      (l) => progress.push(l),
    );
    expect(result.cells.map((c) => `${c.condition}/${c.seed}`)).toEqual([
      'baseline/1',
      'baseline/2',
      'no-reflection/1',
      'no-reflection/2',
    ]);
    for (const cell of result.cells) {
      const { events } = EventLog.read(path.join(cell.runDir, 'events.ndjson'));
      expect(events.filter((e) => e.type === 'step')).toHaveLength(3);
      const calls = events.filter((e) => e.type === 'llm' && typeof e.seq === 'number');
      expect(cell.evaluation.cost.total.calls).toBe(calls.length);
      // Ada says she knows both others; nobody else does: density 2/6.
      expect(cell.evaluation.networks.end.density).toBeCloseTo(2 / 6);
      expect(cell.evaluation.battery).toHaveLength(15);
    }
    const report = writeReport(result, out);
    const baseline = report.summary.conditions[0];
    expect(baseline.ratio).toBe(1);
    expect(baseline.density.end).toBeCloseTo(2 / 6);
    const html = readFileSync(report.html, 'utf8');
    expect(html).toContain('Experiment report — Town');
    expect(html).toContain('Ada Lin');
    const csv = readFileSync(report.csv, 'utf8').split('\n');
    expect(csv[0]).toBe('section,condition,seed,subject,metric,value');
    expect(csv).toContain(
      `cost.run,baseline,1,total,calls,${result.cells[0].evaluation.cost.total.calls}`,
    );
    expect(csv.some((l) => l.startsWith('density,no-reflection,2,end,density,0.333'))).toBe(true);

    // Running again skips everything and loads no model at all.
    progress.length = 0;
    let loads = 0;
    const again = await runExperiment(
      plan(),
      out,
      async () => {
        loads++;
        return m;
      },
      embedder,
      (l) => progress.push(l),
    );
    expect(loads).toBe(0);
    expect(again.cells.map((c) => c.model)).toEqual([
      'scripted',
      'scripted',
      'scripted',
      'scripted',
    ]);
    expect(progress.filter((l) => l.includes('skipped'))).toHaveLength(8);
    expect(again.cells.map((c) => c.evaluation)).toEqual(result.cells.map((c) => c.evaluation));
  });

  it('a condition with its own model runs on it; the others on the default', async () => {
    const out = tmp();
    const requested: (string | undefined)[] = [];
    const models = new Map<string, ScriptedModel>();
    const source = async (file: string | undefined) => {
      requested.push(file);
      const key = file ?? 'default';
      if (!models.has(key)) models.set(key, model());
      return models.get(key)!;
    };
    const p = plan({
      seeds: [1],
      steps: 1,
      conditions: [
        { name: 'small', conditions: PRESETS.baseline },
        { name: 'big', conditions: PRESETS.baseline, model: '/models/big.gguf' },
      ],
      baseline: 'small',
    });
    const result = await runExperiment(p, out, source, new HashEmbedder());
    expect(requested).toEqual([undefined, '/models/big.gguf']);
    expect(models.get('default')!.calls.length).toBeGreaterThan(0);
    expect(models.get('/models/big.gguf')!.calls.length).toBeGreaterThan(0);
    expect(result.cells.map((c) => c.model)).toEqual(['scripted', 'scripted']);
  });

  it('restarts a cell that crashed before its first checkpoint', async () => {
    const out = tmp();
    const p = plan({ seeds: [1], conditions: plan().conditions.slice(0, 1) });
    const [cell] = cellsOf(p, out);
    await runExperiment(p, out, async () => model(), new HashEmbedder());
    rmSync(path.join(cell.runDir, 'snapshots'), { recursive: true });
    rmSync(cell.evalFile);
    const result = await runExperiment(p, out, async () => model(), new HashEmbedder());
    expect(result.cells[0].evaluation.step).toBe(3);
  });

  it('grows a plan in place (more seeds, new facts), refuses changes to existing cells', async () => {
    const out = tmp();
    const p = plan({ seeds: [1], steps: 1 });
    const m = model();
    await runExperiment(p, out, async () => m, new HashEmbedder());
    // One more seed: the first cell is reused, only the new one runs.
    const lines: string[] = [];
    await runExperiment(
      { ...p, seeds: [1, 2] },
      out,
      async () => m,
      new HashEmbedder(),
      (l) => lines.push(l),
    );
    expect(lines).toContain('baseline seed 1: run finished earlier, skipped');
    expect(lines).toContain('baseline seed 2: started');
    // New evaluation settings: every cell evaluated again, no cell run again.
    lines.length = 0;
    const facts = [{ id: 'fair', statement: 'the spring fair', keywords: ['spring fair'] }];
    const again = await runExperiment(
      { ...p, seeds: [1, 2], evaluation: { ...p.evaluation, facts } },
      out,
      async () => m,
      new HashEmbedder(),
      (l) => lines.push(l),
    );
    expect(lines[0]).toBe('evaluation settings changed: every cell is evaluated again');
    expect(lines.filter((l) => l.includes('run finished earlier'))).toHaveLength(4);
    expect(lines.some((l) => l.includes('evaluation done earlier'))).toBe(false);
    expect(again.cells[0].evaluation.diffusion.answers.every((a) => a.factId === 'fair')).toBe(
      true,
    );
    const refused = (changed: ExperimentPlan) =>
      expect(runExperiment(changed, out, async () => m, new HashEmbedder())).rejects;
    await refused({ ...p, steps: 2 }).toThrow(
      /1 steps per cell \(now 2\); its cells cannot be reused/,
    );
    await refused({
      ...p,
      conditions: [{ name: 'baseline', conditions: PRESETS['no-reflection'] }],
    }).toThrow(/a different condition named "baseline"/);
    const edited = buildTestScenario({ reflectionThreshold: 99 });
    await refused({ ...p, scenario: edited }).toThrow(/another version of the scenario \(Town\)/);
  });

  it('refuses bad evaluation settings', async () => {
    const wrongPlace = plan({
      evaluation: evaluationSchema.parse({
        places: [{ place: 'Town:moon', from: '2023-02-13T10:00', to: '2023-02-13T11:00' }],
      }),
    });
    await expect(
      runExperiment(wrongPlace, tmp(), async () => model(), new HashEmbedder()),
    ).rejects.toThrow(/evaluation\.places\.0\.place: "Town:moon" is not a sector or arena of Town/);
    const wrongAgent = plan({
      evaluation: evaluationSchema.parse({ interviewAgents: ['zed'] }),
    });
    await expect(
      runExperiment(wrongAgent, tmp(), async () => model(), new HashEmbedder()),
    ).rejects.toThrow(/evaluation\.interviewAgents: no resident "zed" \(residents: ada, bo, cy\)/);
  });
});
