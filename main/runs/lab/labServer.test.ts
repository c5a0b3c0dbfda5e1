/**
 * An experiment on a model server (issue #24) whose server goes away mid-run, against a scripted
 * OpenAI-compatible server (the scripted model behind real HTTP) stopped and restarted at the
 * same address: the experiment says it waits for that server and what to do, then resumes by
 * itself when the server answers and ends with its report.
 */
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { InputOf, OutputOf } from '../../../common/api/contract';
import { labContract, type LabContract } from '../../../common/api/lab';
import type { ModelServer } from '../../../common/api/servers';
import { serveApi } from '../../api/serve';
import { defaultSettings, saveSettings } from '../../api/settings';
import { HashEmbedder, ScriptedModel } from '../../engine/testing/ScriptedModel';
import { buildTestScenario } from '../../engine/testing/testTown';
import { townScript } from '../../engine/testing/townScript';
import { probeServer } from '../../models/server';
import type { LanguageModel } from '../../models/types';
import {
  startOpenAiTestServer,
  type OpenAiTestServer,
} from '../../models/testing/openai-test-server';
import { localModelLoader } from '../localModels';
import { settingsServerAccess } from '../serverModels';
import { LabService } from './LabService';

type Method = keyof LabContract['methods'];
type Event = { event: string; payload: Record<string, unknown> };

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

/** The town script, with answers for the evaluation's interviews. */
function scriptedModel(): ScriptedModel {
  return new ScriptedModel({
    ...townScript(),
    interview: (request, n) => {
      const props = (request.schema as { properties: Record<string, unknown> }).properties;
      return 'yes' in props ? { yes: true, detail: 'Yes, I do.' } : { answer: `answer ${n + 1}` };
    },
  });
}

function scriptedServer(port?: number): Promise<OpenAiTestServer> {
  return startOpenAiTestServer(scriptedModel(), new HashEmbedder(), port ? { port } : {});
}

/** The newest snapshot's step in any run under `dir`, or -1. */
function newestSnapshot(dir: string): number {
  const steps = (readdirSync(dir, { recursive: true }) as string[])
    .map((p) => /(?:^|[\\/])snapshots[\\/](\d{6,})$/.exec(p)?.[1])
    .filter((step) => step !== undefined)
    .map(Number);
  return Math.max(-1, ...steps);
}

/**
 * A server whose model stops answering at the first chat request made after a cell has a
 * snapshot past step 0, and says so (`held`): the run is then mid-cell with a resume point, at
 * a moment the test chooses. Closing the server ends the held request. (Progress events are
 * throttled to 10 a second and the scripted steps take milliseconds, so stopping the server
 * from an event could land after the run's last call, in the evaluation: CI once saw that.)
 */
async function serverHeldAfterSnapshot(dataDir: () => string) {
  let hold: () => void = () => {};
  const held = new Promise<void>((resolve) => (hold = resolve));
  const inner = scriptedModel();
  let holding = false;
  const model: LanguageModel = {
    id: inner.id,
    complete: (request) => {
      if (holding || newestSnapshot(dataDir()) <= 0) return inner.complete(request);
      holding = true;
      hold();
      return new Promise(() => {});
    },
    dispose: () => inner.dispose(),
  };
  const server = await startOpenAiTestServer(model, new HashEmbedder());
  return { server, held };
}

async function setup(server: ModelServer) {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'lab-server-'));
  await saveSettings(dataDir, { ...defaultSettings(), modelServers: [server] });
  const access = settingsServerAccess(dataDir, () => undefined);
  const events: Event[] = [];
  // eslint-disable-next-line prefer-const -- the emitter needs the served API, built after it
  let api: ReturnType<typeof serveApi>;
  const lab = new LabService({
    dataDir,
    models: localModelLoader({ settingsDir: dataDir }, access),
    emit: (event, payload) => api.emit(event, payload),
    busyReason: () => null,
    snapshotEverySteps: 2,
    servers: { access, probe: probeServer, everyMs: 100, probeTimeoutMs: 1000 },
  });
  api = serveApi(labContract, lab.handlers());
  api.onEvent((event, payload) => {
    events.push({ event, payload: payload as Record<string, unknown> });
  });
  cleanups.push(async () => {
    await lab.dispose();
    rmSync(dataDir, { recursive: true, force: true });
  });
  const call = async <K extends Method>(
    method: K,
    input: InputOf<LabContract, K>,
  ): Promise<OutputOf<LabContract, K>> => {
    const r = await api.dispatch(method, input);
    if (!r.ok) throw Object.assign(new Error(r.error.message), { code: r.error.code });
    return r.output as OutputOf<LabContract, K>;
  };
  /** The first event from `from` on that `match`es, waiting for it. */
  const eventFrom = async (from: number, match: (e: Event) => boolean, what: string) => {
    const started = Date.now();
    for (;;) {
      const hit = events.slice(from).find(match);
      if (hit) return hit.payload;
      // A wait, not a speed check: beside the real-model tests of a full run the resume once
      // took over 30 s (10 s alone).
      if (Date.now() - started > 90_000) throw new Error(`no ${what} within 90 s`);
      await new Promise((r) => setTimeout(r, 20));
    }
  };
  return { lab, call, events, eventFrom, dir: dataDir };
}

function serverAt(remote: OpenAiTestServer): ModelServer {
  return {
    id: 'lab-box',
    name: 'Lab box',
    baseUrl: remote.baseUrl,
    kind: 'openai',
    contextTokens: 8192,
    timeoutSeconds: 30,
    parallel: 2,
  };
}

const onServer = { serverId: 'lab-box', model: 'scripted' };

const createInput = (): InputOf<LabContract, 'lab.createExperiment'> => ({
  scenario: buildTestScenario(),
  scenarioId: 'doc-1',
  name: 'Server lab',
  conditions: [{ name: 'baseline' }],
  seeds: 1,
  gameMinutes: 12, // the test town steps 60 game seconds: 12 steps
  chatServer: onServer,
  embeddingServer: onServer,
  batteryPerCategory: 0,
});

const changed = (status: string, messageStart?: string) => (e: Event) =>
  e.event === 'lab.onDidChangeExperiment' &&
  e.payload.status === status &&
  (messageStart === undefined || String(e.payload.message).startsWith(messageStart));

describe('an experiment on a model server', () => {
  it('waits for its server when it goes away, saying so, and resumes to its report when it is back', async () => {
    let dataDir = '';
    const first = await serverHeldAfterSnapshot(() => dataDir);
    let remote = first.server;
    const port = remote.port;
    cleanups.push(() => remote.close());
    const { call, events, eventFrom, dir } = await setup(serverAt(remote));
    dataDir = dir;
    const created = await call('lab.createExperiment', createInput());
    await first.held;
    await remote.close();

    const waiting = await eventFrom(0, changed('incomplete', 'waiting:'), 'wait');
    expect(waiting.message).toBe(
      `waiting: the model server “Lab box” at ${remote.baseUrl} does not answer (ECONNREFUSED) — ` +
        `Start the server at ${remote.baseUrl}, or change its address in Settings › Model ` +
        'servers; the experiment resumes by itself when the server answers',
    );
    // While it is gone the experiment stays waiting, and the list says why.
    await new Promise((r) => setTimeout(r, 400));
    const [listed] = await call('lab.listExperiments', {});
    expect(listed).toMatchObject({ status: 'incomplete', message: waiting.message });

    const back = events.length;
    remote = await scriptedServer(port);
    await eventFrom(back, changed('running'), 'resume');
    const resumed = await eventFrom(
      back,
      (e) => e.event === 'lab.onDidExperimentProgress' && e.payload.phase === 'run',
      'progress after the resume',
    );
    // The cell resumed from its last snapshot, not from the start.
    expect(resumed.step as number).toBeGreaterThan(0);
    const done = await eventFrom(back, changed('done'), 'the end');
    expect(done).toMatchObject({ hasReport: true, cellsDone: 1, message: null });
    const report = await call('lab.experimentReport', { id: created.id });
    expect(report.html).toContain('<html');
  }, 240_000);

  it('stops waiting when the experiment is cancelled, and says how to resume it', async () => {
    const remote = await scriptedServer();
    const { call, eventFrom } = await setup(serverAt(remote));
    const created = await call('lab.createExperiment', createInput());
    await eventFrom(
      0,
      (e) => e.event === 'lab.onDidExperimentProgress' && e.payload.phase === 'run',
      'a step',
    );
    await remote.close();
    await eventFrom(0, changed('incomplete', 'waiting:'), 'wait');
    expect(await call('lab.cancelExperiment', { id: created.id })).toEqual({ cancelling: true });
    const [listed] = await call('lab.listExperiments', {});
    expect(listed.status).toBe('incomplete');
    expect(listed.message).toBe(
      `stopped: the model server “Lab box” at ${remote.baseUrl} does not answer (ECONNREFUSED), ` +
        'and the Lab stopped waiting for it (cancelled) — start the server at ' +
        `${remote.baseUrl}, then start the experiment again to resume it`,
    );
  });
  it('stops waiting when another experiment starts, and says so', async () => {
    const remote = await scriptedServer();
    const { call, eventFrom } = await setup(serverAt(remote));
    const other = await call('lab.createExperiment', { ...createInput(), start: false });
    const first = await call('lab.createExperiment', createInput());
    await eventFrom(
      0,
      (e) => e.event === 'lab.onDidExperimentProgress' && e.payload.id === first.id,
      'a step',
    );
    await remote.close();
    await eventFrom(0, changed('incomplete', 'waiting:'), 'wait');
    await call('lab.startExperiment', { id: other.id });
    const listed = await call('lab.listExperiments', {});
    expect(listed.find((x) => x.id === first.id)?.message).toContain(
      `the Lab stopped waiting for it (experiment "${other.id}" started)`,
    );
  });
});
