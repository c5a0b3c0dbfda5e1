/**
 * From a layout's bytes to a checked scenario: decode the JSON files, join and validate them
 * (common/scenario/split), then check what the scenario says about its assets. Shared by the
 * zip reader and the folder reader so both refuse exactly the same things.
 */
import type { Scenario } from '../../common/scenario/schema';
import {
  ASSETS_DIR,
  MAP_FILE,
  ScenarioFilesError,
  parseScenarioFiles,
  type FileIssue,
} from '../../common/scenario/split';
import { isScenarioFile } from './entry-path';

/** A scenario read from a pack or folder. */
export interface LoadedScenario {
  scenario: Scenario;
  /** Binary assets by layout path (e.g. "assets/tileset.png"). */
  assets: Map<string, Uint8Array>;
  /** Issues that did not stop the load (ignored files, manifest disagreements). */
  warnings: FileIssue[];
}

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

/**
 * Builds the scenario from a layout's files (JSON files and `assets/…`, by layout path). A
 * JSON file may come as bytes or as text already decoded (the zip reader decodes as it
 * inflates, so the bytes of a large layout are never all held at once).
 * @throws ScenarioFilesError naming each file, path and expectation.
 */
export function loadScenario(
  files: ReadonlyMap<string, Uint8Array | string>,
  source: string,
  warnings: FileIssue[] = [],
): LoadedScenario {
  const texts: Record<string, string> = {};
  const assets = new Map<string, Uint8Array>();
  const issues: FileIssue[] = [];
  for (const [name, bytes] of files) {
    if (name.startsWith(ASSETS_DIR)) {
      if (typeof bytes !== 'string') assets.set(name, bytes);
    } else if (isScenarioFile(name)) {
      if (typeof bytes === 'string') {
        texts[name] = bytes;
        continue;
      }
      try {
        texts[name] = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
      } catch {
        issues.push({
          file: name,
          path: '',
          message: 'is not UTF-8 text (expected a UTF-8 JSON file)',
        });
      }
    }
  }
  if (issues.length > 0) throw new ScenarioFilesError(issues, source);
  const { scenario, warnings: scenarioWarnings } = parseScenarioFiles(texts, source);
  const assetIssues = assetReferenceProblems(scenario, assets);
  if (assetIssues.length > 0) throw new ScenarioFilesError(assetIssues, source);
  return { scenario, assets, warnings: [...warnings, ...scenarioWarnings] };
}

/**
 * Checks that what the scenario points at is in the pack: a non-built-in tileset image must
 * be an asset that exists (a PNG, when it is named .png). A map whose art is missing cannot be
 * drawn, so this is an error, not a warning.
 */
export function assetReferenceProblems(
  scenario: Scenario,
  assets: ReadonlyMap<string, Uint8Array>,
): FileIssue[] {
  const image = scenario.map.tileset.image;
  const issue = (message: string): FileIssue => ({
    file: MAP_FILE,
    path: 'map.tileset.image',
    message,
  });
  if (image.startsWith('builtin:')) return [];
  if (!image.startsWith(ASSETS_DIR)) {
    return [issue(`expected "builtin:<name>" or a path under ${ASSETS_DIR}, got "${image}"`)];
  }
  const bytes = assets.get(image);
  if (!bytes) return [issue(`expected the pack to contain "${image}", but it does not`)];
  if (image.toLowerCase().endsWith('.png') && !PNG_SIGNATURE.every((b, i) => bytes[i] === b)) {
    return [
      issue(`expected "${image}" to be a PNG image, but it does not start with the PNG signature`),
    ];
  }
  return [];
}
