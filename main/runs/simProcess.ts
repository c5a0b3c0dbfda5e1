/**
 * The simulation process's entry (an Electron utilityProcess, or a forked Node child in web
 * mode and tests): serves `runs.*` to its parent over the process channel (main/proc). Started
 * by main/runs/broker.ts; configured through SIMULACRA_SIM_OPTIONS (simOptions.ts).
 */
import { runsContract } from '../../common/api/runs';
import { defaultDataDir } from '../api/dataDir';
import { serveApi, type ServedApi } from '../api/serve';
import { serveToParent } from '../proc/channel';
import { parentPortOfThisProcess } from '../proc/node';
import { localModelLoader } from './localModels';
import { RunService } from './RunService';
import { readSimOptions } from './simOptions';

const options = readSimOptions();
let api: ServedApi | null = null;
const service = new RunService({
  dataDir: options.dataDir ?? defaultDataDir(),
  models: localModelLoader(options),
  emit: (event, payload) => api?.emit(event, payload),
  ...(options.snapshotEverySteps ? { snapshotEverySteps: options.snapshotEverySteps } : {}),
});
api = serveApi(runsContract, service.handlers());
serveToParent(api, parentPortOfThisProcess());

// Asked to stop (or orphaned): finish the step in progress, snapshot, release the lock. A kill
// skips this; the lock then marks the run crashed and it resumes from its last snapshot.
let stopping = false;
const stop = () => {
  if (stopping) return;
  stopping = true;
  service.dispose().then(
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
