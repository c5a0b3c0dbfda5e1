/**
 * Live validation: `lintScenario` over the open town, recomputed off the hot path (debounced,
 * and never mid-gesture). Each issue jumps to what it is about: a tile (pans there), a tree
 * node (selects and frames it) or a persona field (opens the person).
 */
import { useEffect, useState } from 'react';
import { lintScenario, type LintIssue, type LintTarget } from '../../../common/scenario/lint';
import { useStudioStore, type StudioStore } from '../stores/studioStore';

/** Quiet time after the last edit before validation runs, ms. */
export const LINT_DEBOUNCE_MS = 300;

function useLint(store: StudioStore): LintIssue[] | null {
  const [issues, setIssues] = useState<LintIssue[] | null>(null);
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const schedule = () => {
      clearTimeout(timer);
      timer = setTimeout(run, LINT_DEBOUNCE_MS);
    };
    function run() {
      // Mid-stroke documents are transient; wait for the gesture to end.
      if (store.editor.isInGesture()) return schedule();
      const doc = store.getState().doc;
      setIssues(doc ? lintScenario(doc) : []);
    }
    run();
    const off = store.subscribe((s, p) => {
      if (s.doc !== p.doc) schedule();
    });
    return () => {
      off();
      clearTimeout(timer);
    };
  }, [store]);
  return issues;
}

/** Brings what an issue is about into view. */
function reveal(store: StudioStore, target: LintTarget | null): void {
  if (!target) return;
  const editor = store.editor;
  if (target.kind === 'tile') {
    editor.setSelection({ x0: target.x, y0: target.y, x1: target.x, y1: target.y });
    editor.focusTile(target.x, target.y);
  } else if (target.kind === 'node') {
    editor.selectNode(target.node, true);
  } else if (target.kind === 'persona') {
    store.getState().selectPersona(target.personaId);
    // The persona editor mounts on the next frame; focus the field it names if it has one.
    requestAnimationFrame(() =>
      document.querySelector<HTMLElement>(`[data-testid="persona-${target.field}"]`)?.focus(),
    );
  }
}

export function ValidationPanel() {
  const store = useStudioStore();
  const issues = useLint(store);
  if (!issues) return null;
  const errors = issues.filter((i) => i.severity === 'error').length;
  const warnings = issues.length - errors;
  const state = errors ? 'error' : warnings ? 'warning' : 'ok';
  return (
    <div className={`validation validation--${state}`} data-testid="validation" data-state={state}>
      <div className="validation__summary" data-testid="validation-summary">
        <span className="validation__dot" aria-hidden />
        {state === 'ok'
          ? 'All clear: every place is reachable and every name resolves'
          : [
              errors && `${errors} error${errors > 1 ? 's' : ''}`,
              warnings && `${warnings} warning${warnings > 1 ? 's' : ''}`,
            ]
              .filter(Boolean)
              .join(' · ')}
      </div>
      {issues.length > 0 && (
        <ul className="validation__list" aria-label="Validation issues">
          {issues.map((issue) => (
            <li key={issue.id}>
              <button
                type="button"
                className={`validation__issue validation__issue--${issue.severity}`}
                data-testid="validation-issue"
                data-rule={issue.rule}
                disabled={!issue.target || issue.target.kind === 'path'}
                onClick={() => reveal(store, issue.target)}
                title={issue.target && issue.target.kind !== 'path' ? 'Show it' : undefined}
              >
                <span className="validation__icon" aria-hidden>
                  {issue.severity === 'error' ? '●' : '▲'}
                </span>
                <span>{issue.message}</span>
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
