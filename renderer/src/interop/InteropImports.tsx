/**
 * The library's entry to other tools' towns: "Tiled map…" and "Reverie town…" buttons that
 * open the import dialog over the real StudioApi client.
 */
import { useState } from 'react';
import { createPortal } from 'react-dom';
import { studio } from '../api/studio';
import { ImportDialog } from './ImportDialog';
import type { ImportKind } from './importSession';

export function InteropImports() {
  const [kind, setKind] = useState<ImportKind | null>(null);
  return (
    <>
      <div className="sidebar__row">
        <button
          type="button"
          className="button"
          data-testid="import-tiled"
          title="Import a Tiled map (.tmj, .tmx) and choose what its layers become"
          onClick={() => setKind('tiled')}
        >
          Tiled map…
        </button>
        <button
          type="button"
          className="button"
          data-testid="import-reverie"
          title="Import an original Generative Agents (reverie) town and its personas"
          onClick={() => setKind('reverie')}
        >
          Reverie town…
        </button>
      </div>
      {/* Portalled so the sidebar's layout rules (full-width primary buttons) stay out. */}
      {kind &&
        createPortal(
          <ImportDialog kind={kind} api={studio.interop} onClose={() => setKind(null)} />,
          document.body,
        )}
    </>
  );
}
