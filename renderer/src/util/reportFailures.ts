/**
 * For stores whose actions call the StudioApi: `guarded(title, work)` runs `work` and, when it
 * fails, reports the error under `title` (a notice) and answers undefined instead of throwing,
 * so a refused call never escapes into React.
 */
export function reportFailures(report: (title: string, err: unknown) => void) {
  return async function guarded<T>(title: string, work: () => Promise<T>): Promise<T | undefined> {
    try {
      return await work();
    } catch (err) {
      report(title, err);
      return undefined;
    }
  };
}

/** What an error says, for a line in the UI. */
export function errorMessage(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
