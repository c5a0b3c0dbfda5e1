/**
 * The editor's floating panel on the canvas: layers (active, visibility, lock), the palette
 * for the active layer (tiles from resources/tileset.json, or zones of the active kind plus
 * "new"), and map size.
 */
import { useState } from 'react';
import { useStore } from 'zustand';
import { useShallow } from 'zustand/react/shallow';
import tilesetInfo from '../../../resources/tileset.json';
import type { ZoneKind } from '../../../common/scenario/schema';
import { layerLabel, type MapEditor } from '../editor/MapEditor';
import { treeZones } from '../editor/tree';
import { paletteGroups } from '../editor/paletteGroups';
import { terrainIndex, ZONE_KINDS, type EditLayerId } from '../editor/types';
import { zoneColor } from '../canvas/colors';
import { useStudio } from '../stores/studioStore';
import { EditorIcon } from './EditorIcons';
import { Refusal } from './Refusal';
import { mapSizeRefusal } from './refusals';

/** Palette swatch size, CSS px. */
const SWATCH_PX = 26;

interface TileInfo {
  name: string;
  category: string;
  walkable: boolean;
}
const TILES = Object.entries(tilesetInfo.tiles as Record<string, TileInfo>).map(([k, v]) => ({
  index: Number(k),
  ...v,
}));

export function EditorPanel({ editor }: { editor: MapEditor }) {
  const [open, setOpen] = useState(true);
  return (
    <div
      className={`editor-panel ${open ? '' : 'editor-panel--closed'}`}
      data-testid="editor-panel"
    >
      <button
        type="button"
        className="editor-panel__toggle"
        aria-expanded={open}
        onClick={() => setOpen(!open)}
        title={open ? 'Hide layers and palette' : 'Show layers and palette'}
      >
        {open ? 'Layers ▾' : 'Layers ▸'}
      </button>
      {open && (
        <>
          <LayersList editor={editor} />
          <Palette editor={editor} />
          <MapSize editor={editor} />
        </>
      )}
    </div>
  );
}

function LayersList({ editor }: { editor: MapEditor }) {
  const terrainNames = useStudio(useShallow((s) => s.doc?.map.layers.map((l) => l.name) ?? []));
  const { layer, hidden, locked } = useStore(
    editor.ui,
    useShallow((s) => ({ layer: s.layer, hidden: s.hidden, locked: s.locked })),
  );
  const ids: EditLayerId[] = [
    ...terrainNames.map((_, i) => `terrain:${i}` as EditLayerId).reverse(),
    'collision',
    ...ZONE_KINDS,
  ];
  const doc = editor.getDoc();
  return (
    <section className="editor-panel__section">
      <header className="editor-panel__heading">
        Layers
        <button
          type="button"
          className="chip-button"
          data-testid="add-terrain-layer"
          title="Add a terrain layer on top"
          onClick={() => editor.addTerrainLayer()}
        >
          + Terrain
        </button>
      </header>
      <ul className="layers" data-testid="layers">
        {ids.map((id) => (
          <li
            key={id}
            className={`layers__row ${layer === id ? 'layers__row--active' : ''}`}
            data-testid={`layer-${id.replace(':', '-')}`}
          >
            <button
              type="button"
              className="layers__name"
              aria-pressed={layer === id}
              onClick={() => editor.setLayer(id)}
            >
              <span className="layers__kind" aria-hidden>
                {terrainIndex(id) !== null
                  ? '▦'
                  : id === 'collision'
                    ? '▩'
                    : id === 'spawn'
                      ? '⚑'
                      : '▣'}
              </span>
              {layerLabel(id, doc)}
            </button>
            <button
              type="button"
              className={`layers__flag ${hidden[id] ? 'layers__flag--on' : ''}`}
              title={hidden[id] ? 'Show' : 'Hide'}
              aria-label={`${hidden[id] ? 'Show' : 'Hide'} ${layerLabel(id, doc)}`}
              data-testid="layer-visibility"
              onClick={() => editor.toggleHidden(id)}
            >
              <EditorIcon name={hidden[id] ? 'eyeOff' : 'eye'} size={13} />
            </button>
            <button
              type="button"
              className={`layers__flag ${locked[id] ? 'layers__flag--on' : ''}`}
              title={locked[id] ? 'Unlock' : 'Lock'}
              aria-label={`${locked[id] ? 'Unlock' : 'Lock'} ${layerLabel(id, doc)}`}
              data-testid="layer-lock"
              onClick={() => editor.toggleLocked(id)}
            >
              <EditorIcon name={locked[id] ? 'lock' : 'unlock'} size={13} />
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}

function Palette({ editor }: { editor: MapEditor }) {
  const layer = useStore(editor.ui, (s) => s.layer);
  if (terrainIndex(layer) !== null) return <TilePalette editor={editor} />;
  if (layer === 'collision')
    return (
      <section className="editor-panel__section">
        <header className="editor-panel__heading">Walls</header>
        <p className="editor-panel__hint">
          Brush, rectangle and fill block tiles; the eraser opens them.
        </p>
      </section>
    );
  return <ZonePalette editor={editor} kind={layer as ZoneKind} />;
}

function TilePalette({ editor }: { editor: MapEditor }) {
  const tile = useStore(editor.ui, (s) => s.tile);
  const columns = tilesetInfo.columns;
  const current = TILES.find((t) => t.index === tile);
  return (
    <section className="editor-panel__section">
      <header className="editor-panel__heading">
        Tiles <span className="editor-panel__sub">{current?.name}</span>
      </header>
      <div className="palette" role="listbox" aria-label="Tiles" data-testid="tile-palette">
        {TILES.map((t) => (
          <button
            key={t.index}
            type="button"
            role="option"
            aria-selected={tile === t.index}
            className={`palette__tile ${tile === t.index ? 'palette__tile--active' : ''}`}
            title={`${t.name} (${t.category}${t.walkable ? '' : ', blocks walking'})`}
            data-testid={`tile-${t.index}`}
            onClick={() => editor.setTile(t.index)}
            style={{
              width: SWATCH_PX,
              height: SWATCH_PX,
              backgroundImage: `url(${tilesetInfo.image})`,
              backgroundSize: `${columns * SWATCH_PX}px auto`,
              backgroundPosition: `${-((t.index - 1) % columns) * SWATCH_PX}px ${-Math.floor((t.index - 1) / columns) * SWATCH_PX}px`,
            }}
          />
        ))}
      </div>
    </section>
  );
}

function ZonePalette({ editor, kind }: { editor: MapEditor; kind: ZoneKind }) {
  const choice = useStore(editor.ui, (s) => s.zone[kind]);
  const tree = useStudio((s) => s.doc?.tree);
  if (!tree) return null;
  const zones = treeZones(tree, kind);
  const label = { sector: 'sector', arena: 'arena (room)', object: 'object', spawn: 'spawn point' }[
    kind
  ];
  return (
    <section className="editor-panel__section">
      <header className="editor-panel__heading">Paint {label}</header>
      <ul
        className="zone-palette"
        role="listbox"
        aria-label={`${kind} zones`}
        data-testid="zone-palette"
      >
        <li>
          <button
            type="button"
            role="option"
            aria-selected={choice === 'new' || !zones.includes(choice)}
            className={`zone-palette__item ${choice === 'new' || !zones.includes(choice) ? 'zone-palette__item--active' : ''}`}
            data-testid="zone-new"
            onClick={() => editor.setZoneChoice(kind, 'new')}
          >
            <span className="zone-palette__swatch zone-palette__swatch--new">+</span>
            New {kind}
          </button>
        </li>
        {/* Grouped by room (objects) or sector (rooms): a town has many a "bed". */}
        {paletteGroups(tree, kind).flatMap((g) => [
          ...(g.where
            ? [
                <li key={`where-${g.where}`} className="zone-palette__group" aria-hidden>
                  {g.where}
                </li>,
              ]
            : []),
          ...g.zones.map(({ zone: z, name }) => (
            <li key={z}>
              <button
                type="button"
                role="option"
                aria-selected={choice === z}
                className={`zone-palette__item ${choice === z ? 'zone-palette__item--active' : ''}`}
                data-testid={`zone-${z}`}
                title={g.where ? `${name} — ${g.where}` : name}
                aria-label={g.where ? `${name}, ${g.where}` : name}
                onClick={() => editor.selectNode({ kind, zone: z })}
              >
                <span className="zone-palette__swatch" style={{ background: zoneColor(z) }} />
                {name}
              </button>
            </li>
          )),
        ])}
      </ul>
      {(kind === 'arena' || kind === 'object') && (
        <p className="editor-panel__hint">
          A new {kind} goes inside the {kind === 'arena' ? 'sector' : 'arena'} you start painting
          in.
        </p>
      )}
    </section>
  );
}

function MapSize({ editor }: { editor: MapEditor }) {
  const width = useStudio((s) => s.doc?.map.width ?? 0);
  const height = useStudio((s) => s.doc?.map.height ?? 0);
  const [draft, setDraft] = useState<{ w: string; h: string } | null>(null);
  const w = draft?.w ?? String(width);
  const h = draft?.h ?? String(height);
  const refused = mapSizeRefusal(w, h);
  const valid = refused === null;
  const changed = +w !== width || +h !== height;
  return (
    <section className="editor-panel__section">
      <header className="editor-panel__heading">Map size</header>
      <form
        className="map-size"
        onSubmit={(e) => {
          e.preventDefault();
          if (!valid || !changed) return;
          editor.resize(+w, +h);
          setDraft(null);
        }}
      >
        <input
          aria-label="Width in tiles"
          aria-invalid={refused ? true : undefined}
          data-testid="map-width"
          inputMode="numeric"
          value={w}
          onChange={(e) => setDraft({ w: e.target.value, h })}
        />
        <span aria-hidden>×</span>
        <input
          aria-label="Height in tiles"
          aria-invalid={refused ? true : undefined}
          data-testid="map-height"
          inputMode="numeric"
          value={h}
          onChange={(e) => setDraft({ w, h: e.target.value })}
        />
        <button
          type="submit"
          className="chip-button"
          data-testid="map-resize"
          disabled={!valid || !changed}
        >
          Resize
        </button>
      </form>
      {refused ? (
        <Refusal testId="map-size-error" text={refused} />
      ) : (
        <p className="editor-panel__hint">Anchored top-left; zones cut off are reported.</p>
      )}
    </section>
  );
}
