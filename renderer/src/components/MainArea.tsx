/** The centre: the open town on the canvas, or an empty state that says what to do next. */
import { useStudio } from '../stores/studioStore';
import { TownCanvas } from '../canvas/TownCanvas';
import { TemplateGallery } from './TemplateGallery';
import { useRun } from '../run/RunProvider';
import { RunView } from '../run/RunView';
import { useLabNav } from '../lab/labNav';
import { LabView } from '../lab/LabView';

export function MainArea({ onNewBlank, onImport }: { onNewBlank(): void; onImport(): void }) {
  const docId = useStudio((s) => s.doc?.id);
  const loaded = useStudio((s) => s.libraryLoaded);
  const total = useStudio((s) => s.total);
  const busy = useStudio((s) => s.busy);
  const simulating = useRun((s) => s.open);
  const labOpen = useLabNav((s) => s.open);

  // The canvas reads the document itself (settled, once a frame): passing the map down from
  // here would re-render the whole main area on every brush move.
  if (docId && labOpen) return <LabView />;
  if (docId && simulating) return <RunView />;
  if (docId) {
    return (
      <main className="main">
        <TownCanvas key={docId} scenarioId={docId} />
        {busy && <div className="busy-veil">{busy}</div>}
      </main>
    );
  }
  if (!loaded) return <main className="main" aria-busy />;
  const first = total === 0;
  return (
    <main className="main main--empty">
      <div className="empty" data-testid={first ? 'empty-state' : 'no-selection'}>
        <div className="empty__badge" aria-hidden>
          ◆
        </div>
        <h1 className="empty__title">{first ? 'Create your first town' : 'Open a town'}</h1>
        <p className="empty__text">
          {first
            ? 'A town is a tile map, the places inside it, and the people who live there. Start from a template with residents already written, or from a blank field.'
            : 'Pick a town from the library on the left, or start a new one.'}
        </p>
        <div className="empty__actions">
          <button
            type="button"
            className="button button--primary"
            data-testid="empty-new-blank"
            onClick={onNewBlank}
          >
            Start blank
          </button>
          <button type="button" className="button" data-testid="empty-import" onClick={onImport}>
            Import .simpack
          </button>
        </div>
        <h2 className="empty__subtitle">Start from a template</h2>
        <TemplateGallery />
        {busy && <p className="muted">{busy}</p>}
      </div>
    </main>
  );
}
