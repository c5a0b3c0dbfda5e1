/**
 * PackError: a pack or folder refused before its scenario was even looked at (not a zip, an
 * unsafe entry, over a limit). It is a ScenarioError, so every transport reports it the same
 * way as a schema violation: each issue names the pack (`file`), the entry (`path`) and what
 * was expected.
 */
import { ScenarioFilesError, type FileIssue } from '../../common/scenario/split';

export class PackError extends ScenarioFilesError {
  override name = 'PackError';
  constructor(issues: FileIssue[], source?: string) {
    super(issues, source);
  }
}

/** A PackError with one issue about `entry` (or the whole pack when `entry` is empty). */
export function packError(source: string, entry: string, message: string): PackError {
  return new PackError([{ file: source, path: entry, message }], source);
}
