/**
 * Model manager entry point (ARCHITECTURE §5): catalog, downloads with progress / resume /
 * sha256 check, "use a file on disk", local model list and delete, hardware summary and
 * recommendation. Transport-neutral: plain async functions and a progress callback type.
 */
export {
  MODEL_CATALOG,
  findCatalogModel,
  type CatalogFile,
  type CatalogModel,
} from './manager/catalog.ts';
export {
  downloadFile,
  hashFile,
  type DownloadOptions,
  type DownloadProgress,
  type DownloadProgressCallback,
} from './manager/downloader.ts';
export {
  getHardwareSummary,
  recommendModels,
  type HardwareSummary,
  type ModelRecommendation,
} from './manager/hardware.ts';
export {
  deleteLocalModel,
  downloadCatalogModel,
  listCatalog,
  listLocalModels,
  useModelFromDisk,
  type LocalModel,
  type ModelDownloadProgress,
  type ModelDownloadProgressCallback,
} from './manager/model-manager.ts';
