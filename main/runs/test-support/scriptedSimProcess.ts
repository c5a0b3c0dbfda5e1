/**
 * A simulation process for broker tests: the real RunService and process channel, with the
 * scripted model double instead of node-llama-cpp (a test double, never a product path), so a
 * broker test forks, crashes and restarts it in seconds. SIMULACRA_SIM_OPTIONS gives dataDir.
 * Its answers depend only on the request (statelessScript.ts): a process killed and started
 * again answers as the first one would, so a resumed run can be compared with an uninterrupted
 * one (crashResume.test.ts).
 */
import { runsContract } from '../../../common/api/runs';
import { serveApi, type ServedApi } from '../../api/serve';
import { HashEmbedder, ScriptedModel } from '../../engine/testing/ScriptedModel';
import { statelessTownScript } from '../../engine/testing/statelessScript';
import { serveToParent } from '../../proc/channel';
import { parentPortOfThisProcess } from '../../proc/node';
import { RunService } from '../RunService';
import { readSimOptions } from '../simOptions';

const options = readSimOptions();
if (!options.dataDir) throw new Error('scriptedSimProcess needs SIMULACRA_SIM_OPTIONS.dataDir');
let api: ServedApi | null = null;
const service = new RunService({
  dataDir: options.dataDir,
  models: {
    chat: async () => new ScriptedModel(statelessTownScript()),
    embedding: async () => new HashEmbedder(),
  },
  emit: (event, payload) => api?.emit(event, payload),
  snapshotEverySteps: options.snapshotEverySteps ?? 5,
});
api = serveApi(runsContract, service.handlers());
serveToParent(api, parentPortOfThisProcess());
process.on('disconnect', () => void service.dispose().then(() => process.exit(0)));
