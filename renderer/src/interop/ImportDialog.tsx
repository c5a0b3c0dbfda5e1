/**
 * The import dialog for a Tiled map (files or a folder; layers shown with a role each, the
 * preview refreshed on every change) or a reverie town (a folder; the base simulation picked
 * when there are several). Import adds the town to the library and opens it; Escape, the
 * backdrop or Cancel close without importing.
 */
import { useEffect, useMemo, useRef, type ReactNode } from 'react';
import { useStore } from 'zustand';
import { Dialog } from '../components/Dialog';
import { useStudioStore } from '../stores/studioStore';
import type { ImportPreview } from '../../../common/api/interop';
import { createImportSession, type ImportKind, type InteropApi } from './importSession';
import { LAYER_ROLES, roleFits, type LayerRole } from './layerRoles';
import { pickedFromList } from './pickedFiles';
import './interop.css';

const TITLES: Record<ImportKind, string> = {
  tiled: 'Import Tiled map',
  reverie: 'Import reverie town',
};

export function ImportDialog({
  kind,
  api,
  onClose,
}: {
  kind: ImportKind;
  api: InteropApi;
  onClose(): void;
}) {
  const studio = useStudioStore();
  const session = useMemo(() => createImportSession(kind, api), [kind, api]);
  const s = useStore(session);
  const open = useRef(true);
  useEffect(
    () => () => {
      open.current = false;
    },
    [],
  );

  const busy = s.phase === 'reading' || s.phase === 'importing';
  const onImport = async () => {
    const result = await session.getState().confirm();
    // Closed meanwhile (Escape): the designer changed their mind, so nothing is added.
    if (!result || !open.current) return;
    if (await studio.getState().addImported(result.source, result)) onClose();
  };

  return (
    <Dialog title={TITLES[kind]} testId="interop-dialog" onClose={onClose}>
      <div className="interop" data-kind={kind} aria-busy={busy}>
        <Picker
          kind={kind}
          onPick={(files) => void s.pick(files)}
          disabled={s.phase === 'importing'}
        />
        {s.pickedCount > 0 && (
          <p className="interop__picked muted" data-testid="interop-picked">
            {kind === 'reverie' && s.reverie?.base
              ? `${s.reverie.personas.length} personas in ${s.reverie.base} · ${s.pickedCount} files in the folder, only the town's matrix and the personas' bootstrap files are sent`
              : `${s.pickedCount} file${s.pickedCount === 1 ? '' : 's'} chosen`}
            {s.skipped.length > 0 &&
              ` · left out (not read by the importer): ${s.skipped.slice(0, 3).join(', ')}${s.skipped.length > 3 ? ` and ${s.skipped.length - 3} more` : ''}`}
          </p>
        )}
        {s.status && (
          <p className="interop__progress" role="status" data-testid="interop-progress">
            <span className="interop__spinner" aria-hidden="true" />
            {s.status}
          </p>
        )}
        {s.problem && (
          <Problem
            problem={s.problem}
            hint={
              kind === 'tiled' &&
              /: missing \(expected an external Tiled tileset/.test(s.problem.message)
                ? 'A map names its tilesets by their path from the map. Choose the folder that holds the map and its tilesets (Choose folder…), or pick the tilesets along with the map when they sit next to it.'
                : null
            }
          />
        )}
        {/* Choices stay usable while a preview is on its way (a newer answer replaces it;
            keyboard focus is kept); only the import itself freezes them. */}
        {kind === 'tiled' && s.tiled && (
          <TiledMapping session={s} disabled={s.phase === 'importing'} />
        )}
        {kind === 'reverie' && s.reverie && s.reverie.bases.length > 1 && (
          <label className="interop__select">
            <span>Base simulation</span>
            <select
              data-testid="interop-base"
              value={s.reverie.base ?? ''}
              disabled={s.phase === 'importing'}
              onChange={(e) => void s.chooseBase(e.target.value)}
            >
              {s.reverie.bases.map((b) => (
                <option key={b} value={b}>
                  {b}
                </option>
              ))}
            </select>
          </label>
        )}
        {s.preview && <Preview preview={s.preview} stale={s.phase === 'reading'} />}
        {s.warnings.length > 0 && (
          <details className="interop__warnings" data-testid="interop-warnings">
            <summary>
              {s.warnings.length} warning{s.warnings.length === 1 ? '' : 's'} — imported
              approximately or left out
            </summary>
            <ul>
              {s.warnings.map((w, i) => (
                <li key={i}>
                  <IssueText issue={w} />
                </li>
              ))}
            </ul>
          </details>
        )}
        <div className="interop__footer">
          <button type="button" className="button" onClick={onClose}>
            Cancel
          </button>
          <button
            type="button"
            className="button button--primary"
            data-testid="interop-import"
            disabled={s.phase !== 'ready' || !s.preview}
            onClick={() => void onImport()}
          >
            {s.phase === 'importing' ? 'Importing…' : 'Import'}
          </button>
        </div>
      </div>
    </Dialog>
  );
}

/** The file inputs and what to pick, said before anything is picked. */
function Picker({
  kind,
  onPick,
  disabled,
}: {
  kind: ImportKind;
  onPick(files: ReturnType<typeof pickedFromList>): void;
  disabled: boolean;
}) {
  const filesRef = useRef<HTMLInputElement>(null);
  const folderRef = useRef<HTMLInputElement>(null);
  useEffect(() => {
    // React does not know the attribute; Chromium and Electron pick folders with it.
    folderRef.current?.setAttribute('webkitdirectory', '');
  }, []);
  const onChange = (input: HTMLInputElement) => {
    const files = pickedFromList(input.files);
    // Clear so picking the same files again still fires a change.
    input.value = '';
    onPick(files);
  };
  return (
    <div className="interop__pick">
      <p className="interop__intro" data-testid="interop-intro">
        {kind === 'tiled' ? (
          <>
            Choose a Tiled map (<code>.tmj</code>, <code>.tmx</code> or a map saved as{' '}
            <code>.json</code>) with the external tilesets it uses (<code>.tsj</code>,{' '}
            <code>.tsx</code>) — or the folder that holds them. Layers named like “collision”,
            “sector”, “arena”, “object” or “spawn” are mapped for you; you can change any. Tileset
            images are not imported: the town is painted with the studio’s own tiles, ready to
            repaint.
          </>
        ) : (
          <>
            Choose the <code>environment/frontend_server</code> folder of a Generative Agents
            checkout (or a folder above it). Only the maze matrix (
            <code>static_dirs/assets/…/matrix</code>) and one base simulation’s meta, start
            positions and persona bootstrap files are read. The original town art is a paid asset
            pack and is not imported.
          </>
        )}
      </p>
      <div className="interop__pick-buttons">
        {kind === 'tiled' && (
          <button
            type="button"
            className="button"
            disabled={disabled}
            onClick={() => filesRef.current?.click()}
          >
            Choose files…
          </button>
        )}
        <button
          type="button"
          className={`button ${kind === 'reverie' ? 'button--primary' : ''}`}
          disabled={disabled}
          onClick={() => folderRef.current?.click()}
        >
          Choose folder…
        </button>
      </div>
      {kind === 'tiled' && (
        <input
          ref={filesRef}
          type="file"
          multiple
          hidden
          accept=".tmj,.tmx,.json,.tsj,.tsx"
          data-testid="interop-files-input"
          onChange={(e) => onChange(e.currentTarget)}
        />
      )}
      <input
        ref={folderRef}
        type="file"
        multiple
        hidden
        data-testid="interop-folder-input"
        onChange={(e) => onChange(e.currentTarget)}
      />
    </div>
  );
}

function TiledMapping({
  session: s,
  disabled,
}: {
  session: ReturnType<ReturnType<typeof createImportSession>['getState']>;
  disabled: boolean;
}) {
  const tiled = s.tiled!;
  const changed = tiled.layers.some(
    (l) => s.roles[l.name] !== undefined && suggestedRole(tiled, l.name) !== s.roles[l.name],
  );
  return (
    <section className="interop__mapping" aria-label="Layer mapping">
      <div className="interop__map-line">
        {tiled.maps.length > 1 ? (
          <label className="interop__select">
            <span>Map</span>
            <select
              data-testid="interop-map"
              value={tiled.map}
              disabled={disabled}
              onChange={(e) => void s.chooseMap(e.target.value)}
            >
              {tiled.maps.map((m) => (
                <option key={m} value={m}>
                  {m}
                </option>
              ))}
            </select>
          </label>
        ) : (
          <strong className="mono">{tiled.map}</strong>
        )}
        <span className="muted">
          {tiled.width}×{tiled.height} tiles of {tiled.tileWidth} px · {tiled.layers.length} layers
          · {tiled.tilesets.length} tileset{tiled.tilesets.length === 1 ? '' : 's'}
        </span>
      </div>
      {tiled.layers.length === 0 ? (
        <p className="interop__empty">
          This map has no tile or object layers, so there is nothing to map. The town gets a plain
          ground layer.
        </p>
      ) : (
        <div className="interop__layers-wrap">
          <table className="interop__layers" data-testid="interop-layers">
            <thead>
              <tr>
                <th>Tiled layer</th>
                <th>Holds</th>
                <th>Becomes</th>
              </tr>
            </thead>
            <tbody>
              {tiled.layers.map((layer) => (
                <tr key={layer.name} data-testid="interop-layer" data-layer={layer.name}>
                  <td>
                    <span className="interop__layer-name">{layer.name}</span>
                    {!layer.visible && <span className="muted"> (hidden)</span>}
                  </td>
                  <td className="muted">
                    {layer.kind === 'tile'
                      ? `${layer.filled} tile${layer.filled === 1 ? '' : 's'}, ${layer.distinct} kind${layer.distinct === 1 ? '' : 's'}${tilesetList(layer.tilesets)}`
                      : `${layer.filled} shape${layer.filled === 1 ? '' : 's'}`}
                  </td>
                  <td>
                    <select
                      aria-label={`${layer.name} becomes`}
                      data-testid="interop-role"
                      value={s.roles[layer.name] ?? 'ignore'}
                      disabled={disabled}
                      onChange={(e) => void s.setRole(layer.name, e.target.value as LayerRole)}
                    >
                      {LAYER_ROLES.filter((r) => roleFits(layer, r.role)).map((r) => (
                        <option key={r.role} value={r.role} title={r.hint}>
                          {r.label}
                        </option>
                      ))}
                    </select>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <div className="interop__mapping-notes">
        {s.displaced && (
          <span data-testid="interop-displaced">
            “{s.displaced}” is now left out: a map has one sector layer and one arena layer.
          </span>
        )}
        {changed && (
          <button
            type="button"
            className="interop__link"
            disabled={disabled}
            onClick={() => void s.resetRoles()}
          >
            Use the suggested mapping
          </button>
        )}
      </div>
    </section>
  );
}

/** " · a, b +3 more": which tilesets a layer draws from, kept to one line. */
function tilesetList(names: string[]): string {
  if (names.length === 0) return '';
  const shown = names.slice(0, 2).join(', ');
  return ` · ${shown}${names.length > 2 ? ` +${names.length - 2} more` : ''}`;
}

function suggestedRole(
  tiled: NonNullable<ReturnType<ReturnType<typeof createImportSession>['getState']>['tiled']>,
  name: string,
): LayerRole {
  const m = tiled.suggested;
  if (m.terrain.includes(name)) return 'terrain';
  if (m.collision.includes(name)) return 'collision';
  if (m.sector === name) return 'sector';
  if (m.arena === name) return 'arena';
  if (m.spawn.includes(name)) return 'spawn';
  if (m.object.includes(name)) return 'object';
  return 'ignore';
}

function Preview({ preview: p, stale }: { preview: ImportPreview; stale: boolean }) {
  const item = (n: number, one: string, many: string, key: string): ReactNode => (
    <li data-testid={`interop-count-${key}`} data-count={n}>
      <strong>{n}</strong> {n === 1 ? one : many}
    </li>
  );
  return (
    <section
      className={`interop__preview ${stale ? 'interop__preview--stale' : ''}`}
      aria-label="What the import gives"
      data-testid="interop-preview"
    >
      <div className="interop__preview-name">
        <strong data-testid="interop-preview-name">{p.name}</strong>
        <span className="muted">
          {' '}
          · {p.width}×{p.height}
        </span>
      </div>
      <ul>
        {item(p.sectors, 'sector', 'sectors', 'sectors')}
        {item(p.arenas, 'arena', 'arenas', 'arenas')}
        {item(p.objects, 'object', 'objects', 'objects')}
        {item(p.spawns, 'spawn point', 'spawn points', 'spawns')}
        {item(p.personas, 'persona', 'personas', 'personas')}
        {item(p.blockedTiles, 'blocked tile', 'blocked tiles', 'blocked')}
      </ul>
    </section>
  );
}

function Problem({
  problem,
  hint,
}: {
  problem: NonNullable<ReturnType<ReturnType<typeof createImportSession>['getState']>['problem']>;
  hint: string | null;
}) {
  const lines = problem.message.split('\n').filter((l) => l.trim());
  const issues = problem.issues ?? [];
  // Importer errors repeat their issues in the message; list them once.
  const headline =
    issues.length > 0 && lines.every((l) => issues.some((i) => l.includes(i.message)))
      ? `${issues.length === 1 ? 'This' : 'These'} cannot be imported:`
      : lines[0];
  return (
    <div className="interop__problem" role="alert" data-testid="interop-problem">
      <strong>{headline}</strong>
      {issues.length > 0 ? (
        <ul>
          {issues.map((issue, i) => (
            <li key={i}>
              <IssueText issue={issue} />
            </li>
          ))}
        </ul>
      ) : (
        lines.slice(1).map((l, i) => <p key={i}>{l}</p>)
      )}
      {hint && <p className="interop__hint">{hint}</p>}
    </div>
  );
}

function IssueText({ issue }: { issue: { file?: string; path: string; message: string } }) {
  return (
    <>
      {issue.file && <code className="interop__file">{issue.file}</code>}
      {issue.path && <span className="interop__where"> → {issue.path}</span>}
      {(issue.file || issue.path) && ': '}
      {issue.message}
    </>
  );
}
