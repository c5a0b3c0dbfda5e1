/**
 * The simulation process's entry (an Electron utilityProcess, or a forked Node child in web
 * mode and tests): serves `runs.*` and `lab.*` to its parent over the process channel
 * (main/proc). Started by main/runs/broker.ts; configured through SIMULACRA_SIM_OPTIONS
 * (simOptions.ts). Runs and experiments share loaded models and take turns (lab/oneHeavyJob.ts).
 */
import path from 'node:path';
import { FilePolicyStore } from '../engine/agent/policyStore';
import { defaultDataDir } from '../api/dataDir';
import { serveApi, type ServedApi } from '../api/serve';
import { serveToParent } from '../proc/channel';
import { parentPortOfThisProcess } from '../proc/node';
import { probeServer } from '../models/server';
import { LabService } from './lab/LabService';
import { RunActivity } from './lab/oneHeavyJob';
import { sharedModelLoader } from './lab/sharedModels';
import { localModelLoader } from './localModels';
import { RunService } from './RunService';
import { settingsServerAccess } from './serverModels';
import { ServerKeyRing, SET_SERVER_KEYS, simProcessContract } from './serverKeysMessage';
import { currentSimOptions, readSimOptions } from './simOptions';

const options = readSimOptions();
const dataDir = options.dataDir ?? defaultDataDir();
// Model servers: Settings' list read fresh at each load; their keys as main last sent them.
const keys = new ServerKeyRing();
const servers = settingsServerAccess(options.settingsDir, (id) => keys.get(id));
const models = sharedModelLoader(localModelLoader(options, servers));
// eslint-disable-next-line prefer-const -- the activity names runs through the service built after it
let service: RunService;
const activity = new RunActivity((runId) => service.nameOf(runId));
let api: ServedApi | null = null;
service = new RunService({
  dataDir,
  models,
  // Lifestyle policies carry over between runs of a persona (the Lab lists and clears them).
  policyStore: new FilePolicyStore(path.join(dataDir, 'policies')),
  emit: (event, payload) => {
    activity.see(event, payload);
    api?.emit(event, payload);
  },
  // The setting as it is when each run starts.
  snapshotEverySteps: () => currentSimOptions(options).snapshotEverySteps,
  // A run whose server stops answering waits for it and resumes (serverWatch.ts).
  servers: { access: servers, probe: probeServer },
});
const startOptions = currentSimOptions(options);
const lab = new LabService({
  dataDir,
  models,
  emit: (event, payload) => api?.emit(event, payload),
  busyReason: () => activity.busyReason(),
  // An experiment whose server stops answering waits for it and resumes (lab/serverWait.ts).
  servers: { access: servers, probe: probeServer },
  ...(startOptions.snapshotEverySteps
    ? { snapshotEverySteps: startOptions.snapshotEverySteps }
    : {}),
});
api = serveApi(simProcessContract, {
  ...activity.guard(service.handlers(), () => lab.busy),
  ...lab.handlers(),
  [SET_SERVER_KEYS]: async (input) => {
    keys.replace(input.keys);
    return {};
  },
});
serveToParent(api, parentPortOfThisProcess());

// Asked to stop (or orphaned): finish the step in progress, snapshot, release the lock. A kill
// skips this; the lock then marks the run crashed and it resumes from its last snapshot.
let stopping = false;
const stop = () => {
  if (stopping) return;
  stopping = true;
  Promise.all([service.dispose(), lab.dispose()]).then(
    () => process.exit(0),
    (error: unknown) => {
      console.error(`simulation process: ${(error as Error).message}`);
      process.exit(1);
    },
  );
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
process.on('disconnect', stop);
