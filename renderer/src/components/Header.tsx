/**
 * The top bar: brand, the open town's name (editable), save state, export, host info, and the
 * settings button (with the desktop shell's requests: DesktopShell).
 */
import { useEffect } from 'react';
import { scenarioShape } from '../../../common/scenario/schema';
import { useStudio } from '../stores/studioStore';
import type { SaveState } from '../library/autosave';
import { TextField } from './Field';
import { DesktopShell } from '../shell/DesktopShell';
import { useLabNav } from '../lab/labNav';

const SAVE_LABEL: Record<SaveState, string> = {
  idle: 'Saved',
  saved: 'Saved',
  pending: 'Editing…',
  saving: 'Saving…',
  error: 'Not saved',
};

export function Header({ onExport }: { onExport(): void }) {
  const docId = useStudio((s) => s.doc?.id ?? null);
  const name = useStudio((s) => s.doc?.name ?? '');
  const saveState = useStudio((s) => s.saveState);
  const appInfo = useStudio((s) => s.appInfo);
  const rename = useStudio((s) => s.rename);
  const labOpen = useLabNav((s) => s.open);
  const setLabOpen = useLabNav((s) => s.setOpen);
  // No town open (deleted, closed): nothing for the Lab to show, so the next town opens normally.
  useEffect(() => {
    if (!docId && labOpen) setLabOpen(false);
  }, [docId, labOpen, setLabOpen]);

  return (
    <header className="header">
      <div className="brand">
        <span className="brand__mark" aria-hidden>
          ◆
        </span>
        <span className="brand__name">Simulacra Studio</span>
      </div>
      <div className="header__title">
        {docId && (
          <TextField
            key={docId}
            label="Town name"
            hideLabel
            className="field--title"
            testId="scenario-name"
            value={name}
            schema={scenarioShape.shape.name}
            onCommit={(v) => void rename(docId, v)}
          />
        )}
        {docId && (
          <span
            className={`save-state save-state--${saveState}`}
            data-testid="save-state"
            data-state={saveState}
          >
            {SAVE_LABEL[saveState]}
          </span>
        )}
      </div>
      <div className="header__actions">
        <button
          type="button"
          className={`button ${labOpen ? 'button--primary' : ''}`}
          data-testid="lab-button"
          disabled={!docId}
          aria-pressed={labOpen}
          onClick={() => setLabOpen(!labOpen)}
          title="Experiments and lifestyle policies for this town"
        >
          {labOpen ? 'Close Lab' : 'Lab'}
        </button>
        <button
          type="button"
          className="button"
          data-testid="export-button"
          disabled={!docId}
          onClick={onExport}
          title="Export .simpack (Ctrl+E)"
        >
          Export .simpack
        </button>
        <span
          className="app-info"
          data-testid="app-info"
          title={appInfo ? `platform ${appInfo.platform}` : 'connecting to the studio host'}
        >
          <span className={`dot ${appInfo ? 'dot--ok' : ''}`} />
          {appInfo ? `${appInfo.transport} · v${appInfo.version}` : 'connecting…'}
        </span>
        <DesktopShell />
      </div>
    </header>
  );
}
