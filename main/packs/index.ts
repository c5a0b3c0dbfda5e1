/**
 * Scenario packs: `.simpack` zips and unpacked scenario folders, read safely and written
 * deterministically. Node only (node:fs); never imports electron.
 */
export {
  readPack,
  writePack,
  writePackFile,
  zipFiles,
  layoutFiles,
  packOrder,
  PACK_EXTENSION,
  type ReadOptions,
} from './pack';
export {
  readScenarioFolder,
  writeScenarioFolder,
  unpackPack,
  packFolder,
  type WriteFolderOptions,
} from './folder';
export { loadScenario, assetReferenceProblems, type LoadedScenario } from './load';
export { PackError, packError } from './errors';
export { DEFAULT_PACK_LIMITS, resolveLimits, formatBytes, type PackLimits } from './limits';
export { entryPathProblem, collisionKey, entryRole, type EntryRole } from './entry-path';
