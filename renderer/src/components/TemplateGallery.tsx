/** Template cards (name, description, people, size), shared by the empty state and the dialog. */
import { useState } from 'react';
import { useStudio } from '../stores/studioStore';
import { Dialog } from './Dialog';

export function TemplateGallery({ onPicked }: { onPicked?(): void }) {
  const templates = useStudio((s) => s.templates);
  const error = useStudio((s) => s.templatesError);
  const reload = useStudio((s) => s.loadTemplates);
  const createFromTemplate = useStudio((s) => s.createFromTemplate);
  const busy = useStudio((s) => s.busy);

  if (templates === null) {
    return (
      <div className="gallery gallery--loading" data-testid="template-gallery" aria-busy>
        <div className="card card--skeleton" />
        <div className="card card--skeleton" />
      </div>
    );
  }
  if (error || templates.length === 0) {
    return (
      <div className="gallery-note" data-testid="template-gallery-empty">
        {error ? (
          <>
            <strong>Templates are unavailable.</strong> <span className="muted">{error}</span>{' '}
          </>
        ) : (
          <span className="muted">No built-in templates were found. </span>
        )}
        <button type="button" className="link-button" onClick={() => void reload()}>
          Try again
        </button>
      </div>
    );
  }
  return (
    <div className="gallery" data-testid="template-gallery">
      {templates.map((t) => (
        <button
          key={t.id}
          type="button"
          className="card"
          data-testid="template-card"
          data-template-id={t.id}
          disabled={busy !== null}
          onClick={async () => {
            await createFromTemplate(t.id);
            onPicked?.();
          }}
        >
          <span className="card__art" aria-hidden>
            <CardArt id={t.id} thumbnail={t.thumbnail} />
          </span>
          <span className="card__body">
            <span className="card__title" data-testid="template-name">
              {t.name}
            </span>
            <span className="card__text">{t.description || 'No description.'}</span>
            <span className="card__meta">
              <span className="pill">
                {t.personas} {t.personas === 1 ? 'person' : 'people'}
              </span>
              <span className="pill">
                {t.width}×{t.height} tiles
              </span>
            </span>
          </span>
        </button>
      ))}
    </div>
  );
}

/** The town's rendered thumbnail, or the skyline glyph when it has none or it fails to load. */
function CardArt({ id, thumbnail }: { id: string; thumbnail?: string }) {
  const [failed, setFailed] = useState(false);
  if (!thumbnail || failed) return <TownGlyph seed={id} />;
  return (
    <img
      src={thumbnail}
      alt=""
      data-testid="template-thumbnail"
      onError={() => setFailed(true)}
      // Pixel art at 4 px per tile: keep it crisp and show the whole town.
      style={{
        width: '100%',
        height: '100%',
        objectFit: 'cover',
        imageRendering: 'pixelated',
        borderRadius: 'inherit',
      }}
    />
  );
}

/** A tiny decorative skyline, varied by the template id so cards look distinct. */
function TownGlyph({ seed }: { seed: string }) {
  let h = 7;
  for (const ch of seed) h = (h * 31 + ch.charCodeAt(0)) >>> 0;
  const bars = Array.from({ length: 9 }, (_, i) => 8 + ((h >> (i * 3)) & 7) * 3);
  return (
    <svg viewBox="0 0 90 40" width="100%" height="100%" preserveAspectRatio="none">
      {bars.map((height, i) => (
        <rect key={i} x={i * 10 + 1} y={40 - height} width={8} height={height} rx={1.5} />
      ))}
    </svg>
  );
}

/** "New from template" as a dialog (web and desktop shells alike); picking a town closes it. */
export function TemplateGalleryDialog({ onClose }: { onClose(): void }) {
  return (
    <Dialog title="New from template" testId="template-dialog" onClose={onClose}>
      <TemplateGallery onPicked={onClose} />
    </Dialog>
  );
}
