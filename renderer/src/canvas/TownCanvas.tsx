/**
 * The town view and map editor surface: a viewport-sized react-konva Stage.
 *
 * Layers (few, per Konva's advice); none takes Konva events — pointer input arrives as native
 * pointer events on the viewport element and goes to the MapEditor in tile coordinates:
 *   layer-terrain    one Konva.Image per visible 16×16-tile chunk (`chunk-<cx>-<cy>`)
 *   layer-zones      zone tint (`zone-tint`), sector/arena/object outlines and labels
 *   layer-collision  walls per visible chunk (`collision-<cx>-<cy>`): shaded on every layer,
 *                    hatched while editing walls or with the Collision toggle
 *   layer-overlay    spawns, selected-node highlight, grid, hover/brush (`hover-tile`),
 *                    rectangle preview (`rect-preview`) and selection (`selection-rect`)
 *
 * What runs at pointer rate stays out of React: the camera is the stage's own position and
 * scale, set imperatively (useMapCamera.ts); edits redraw only their dirty chunk bitmaps (in
 * place) and call batchDraw; previews move Konva nodes directly. React renders when the visible
 * chunk range, the zoom readout, the hovered tile or the settled document changes. The shapes
 * are in MapShapes.tsx, the view toolbar and status bar in MapViewToolbar.tsx and
 * CanvasStatusBar.tsx.
 */
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { Image as KonvaImage, Layer, Rect, Stage } from 'react-konva';
import type Konva from 'konva';
import { useStore } from 'zustand';
import type { TownMap, ZoneKind } from '../../../common/scenario/schema';
import { chunkCounts, chunkTiles, renderZoneTint, type CollisionStyle } from './chunks';
import { zoneColor } from './colors';
import { addressAt, indexTree, zoneShapes } from './zones';
import { useTilesetImage } from './tileset';
import { useElementSize } from './useElementSize';
import { useSettledDoc } from './useSettledDoc';
import { useMapCamera } from './useMapCamera';
import { useChunkBitmaps } from './useChunkBitmaps';
import { Minimap, type MinimapHandle } from './Minimap';
import { GridLines, Highlight, Outline, SpawnMarker, TerrainChunk } from './MapShapes';
import { MapViewToolbar } from './MapViewToolbar';
import { CanvasStatusBar } from './CanvasStatusBar';
import { useStudioStore } from '../stores/studioStore';
import type { EditorUi } from '../editor/MapEditor';
import { terrainIndex, type TilePointer, type TileRect } from '../editor/types';
import { ToolStrip } from '../components/ToolStrip';
import { EditorPanel } from '../components/EditorPanel';
import { keyPressOf } from '../shortcuts/chord';
import { keyForPage } from '../shortcuts/useShortcuts';
import { layoutLabels, zoneLabelCandidates } from './labels';
import { MapLabels, measureLabel } from './MapLabels';

export interface TownCanvasProps {
  /** Identifies the open scenario; the view fits the map whenever it changes. */
  scenarioId: string;
}

/**
 * Names of each kind are candidates from these zooms up (below, markers and outlines only);
 * among candidates, layoutLabels hides or shortens whatever would overlap.
 */
const SPAWN_NAMES_MIN_ZOOM = 0.75;
const ARENA_NAMES_MIN_ZOOM = 0.55;
const OBJECT_NAMES_MIN_ZOOM = 1.1;
/** Grid lines are drawn from this zoom up (below it they would be a grey wash). */
const GRID_MIN_ZOOM = 0.3;

interface Hover {
  x: number;
  y: number;
  address: string | null;
}

export function TownCanvas({ scenarioId }: TownCanvasProps) {
  const store = useStudioStore();
  const editor = store.editor;
  const settled = useSettledDoc(store, editor);
  const containerRef = useRef<HTMLDivElement>(null);
  const stageRef = useRef<Konva.Stage>(null);
  const terrainRef = useRef<Konva.Layer>(null);
  const zonesRef = useRef<Konva.Layer>(null);
  const collisionRef = useRef<Konva.Layer>(null);
  const overlayRef = useRef<Konva.Layer>(null);
  const hoverRef = useRef<Konva.Rect>(null);
  const brushRef = useRef<Konva.Image>(null);
  const previewRef = useRef<Konva.Rect>(null);
  const selectionRef = useRef<Konva.Rect>(null);
  const tintRef = useRef<Konva.Image>(null);
  const minimapRef = useRef<MinimapHandle>(null);
  const size = useElementSize(containerRef);

  const fallbackMap = settled?.map;
  const { image: tileset, status: tilesetStatus } = useTilesetImage(
    fallbackMap?.tileset ?? { image: '' },
  );

  const [showZones, setShowZones] = useState(true);
  const [showCollision, setShowCollision] = useState(false);
  const [hover, setHover] = useState<Hover | null>(null);
  const hoverTile = useRef<{ x: number; y: number } | null>(null);
  const downButton = useRef<number | null>(null);

  const tool = useStore(editor.ui, (s) => s.tool);
  const path = useStore(editor.ui, (s) => s.path);
  const layer = useStore(editor.ui, (s) => s.layer);
  const hidden = useStore(editor.ui, (s) => s.hidden);
  const showGrid = useStore(editor.ui, (s) => s.showGrid);
  const selectedNode = useStore(editor.ui, (s) => s.selectedNode);
  const brushTile = useStore(editor.ui, (s) => s.tile);

  /** The live map (mid-gesture cells included), for bitmap drawing. */
  const liveMap = useCallback((): TownMap | null => store.getState().doc?.map ?? null, [store]);

  const map = settled?.map;
  const tree = settled?.tree;
  const ts = map?.tileSize ?? 32;
  const width = map?.width ?? 1;
  const height = map?.height ?? 1;
  const counts = useMemo(() => chunkCounts({ width, height }), [width, height]);
  const mapPx = useMemo(() => ({ width: width * ts, height: height * ts }), [width, height, ts]);
  const treeIndex = useMemo(() => (tree ? indexTree(tree) : null), [tree]);

  // Zone kind whose tint shows: the zone layer being edited, else sectors.
  const tintKind: ZoneKind =
    terrainIndex(layer) === null && layer !== 'collision' ? (layer as ZoneKind) : 'sector';
  const tintKindRef = useRef(tintKind);
  tintKindRef.current = tintKind;

  const zones = map?.zones;
  const sectors = useMemo(
    () => (zones ? zoneShapes(zones.sector, width, height) : []),
    [zones, width, height],
  );
  const arenas = useMemo(
    () => (zones ? zoneShapes(zones.arena, width, height) : []),
    [zones, width, height],
  );
  const objects = useMemo(
    () => (zones ? zoneShapes(zones.object, width, height) : []),
    [zones, width, height],
  );
  const spawns = useMemo(
    () => (zones ? zoneShapes(zones.spawn, width, height) : []),
    [zones, width, height],
  );
  const zoneTint = useMemo(
    () => (map ? renderZoneTint(map, map.zones[tintKind]) : null),
    [map, tintKind],
  );

  // Walls show on every layer (as on the minimap); editing them or the Collision toggle
  // switches to the hatch that makes them stand out.
  const collisionStyle: CollisionStyle = showCollision || layer === 'collision' ? 'hatch' : 'walls';
  const { cameraRef, zoom, range, fit, centerOn, zoomBy, onWheel } = useMapCamera({
    editor,
    scenarioId,
    size,
    stageRef,
    minimapRef,
    ts,
    mapPx,
    counts,
  });
  const { terrainCache, collisionCache } = useChunkBitmaps({
    editor,
    liveMap,
    countsX: counts.x,
    tileset,
    hidden,
    collisionStyle,
    tintKindRef,
    layers: {
      terrain: terrainRef,
      collision: collisionRef,
      zones: zonesRef,
      tint: tintRef,
      minimap: minimapRef,
    },
  });

  // Previews and selection follow the editor's session state without React.
  useEffect(() => {
    const place = (node: Konva.Rect | null, r: TileRect | null) => {
      if (!node) return;
      node.visible(!!r);
      if (r)
        node.setAttrs({
          x: r.x0 * ts,
          y: r.y0 * ts,
          width: (r.x1 - r.x0 + 1) * ts,
          height: (r.y1 - r.y0 + 1) * ts,
        });
    };
    const sync = (s: EditorUi) => {
      place(previewRef.current, s.preview);
      place(selectionRef.current, s.selection);
      overlayRef.current?.batchDraw();
    };
    sync(editor.ui.getState());
    return editor.ui.subscribe((s, p) => {
      if (s.preview !== p.preview || s.selection !== p.selection) sync(s);
    });
  }, [editor, ts]);

  // The map's shortcuts (editorShortcuts.ts) while a town is open, not while typing in a field
  // or while a dialog owns the keyboard.
  useEffect(() => {
    const down = (e: KeyboardEvent) => {
      if (!keyForPage(e)) return;
      // Space on a focused button would press it; the canvas keeps Space for panning only
      // when focus is not on a control.
      if (e.key === ' ' && (e.target as HTMLElement | null)?.closest?.('button')) return;
      if (e.repeat && e.key === ' ') return e.preventDefault();
      if (editor.keyDown(keyPressOf(e))) e.preventDefault();
    };
    const up = (e: KeyboardEvent) => editor.keyUp({ key: e.key });
    window.addEventListener('keydown', down);
    window.addEventListener('keyup', up);
    return () => {
      window.removeEventListener('keydown', down);
      window.removeEventListener('keyup', up);
    };
  }, [editor]);

  const toPointer = (e: React.PointerEvent, button: number): TilePointer => {
    const rect = containerRef.current!.getBoundingClientRect();
    const sx = e.clientX - rect.left;
    const sy = e.clientY - rect.top;
    const c = cameraRef.current;
    return {
      x: Math.floor((sx - c.x) / c.scale / ts),
      y: Math.floor((sy - c.y) / c.scale / ts),
      screen: { x: sx, y: sy },
      button,
      shift: e.shiftKey,
    };
  };

  const updateHover = (p: TilePointer) => {
    const m = liveMap();
    if (!m || !tree || !treeIndex) return;
    const prev = hoverTile.current;
    if (prev && prev.x === p.x && prev.y === p.y) return;
    const inside = p.x >= 0 && p.y >= 0 && p.x < m.width && p.y < m.height;
    hoverTile.current = { x: p.x, y: p.y };
    editor.setHover(inside ? { x: p.x, y: p.y } : null);
    const rect = hoverRef.current;
    if (rect) {
      rect.visible(inside);
      rect.position({ x: p.x * ts, y: p.y * ts });
      brushRef.current?.visible(inside && showBrushTile);
      brushRef.current?.position({ x: p.x * ts, y: p.y * ts });
      overlayRef.current?.batchDraw();
    }
    setHover(inside ? { x: p.x, y: p.y, address: addressAt(m, tree, treeIndex, p.x, p.y) } : null);
  };

  const onPointerDown = (e: React.PointerEvent<HTMLDivElement>) => {
    if (downButton.current !== null) return;
    // Middle-click would start the browser's autoscroll; the editor pans instead.
    if (e.button === 1) e.preventDefault();
    e.currentTarget.setPointerCapture(e.pointerId);
    downButton.current = e.button;
    const p = toPointer(e, e.button);
    updateHover(p);
    editor.pointerDown(p);
  };
  const onPointerMove = (e: React.PointerEvent<HTMLDivElement>) => {
    const p = toPointer(e, downButton.current ?? 0);
    updateHover(p);
    if (downButton.current !== null) editor.pointerMove(p);
  };
  const onPointerUp = (e: React.PointerEvent<HTMLDivElement>) => {
    if (downButton.current === null) return;
    const p = toPointer(e, downButton.current);
    downButton.current = null;
    editor.pointerUp(p);
  };
  const onPointerLeave = () => {
    if (downButton.current !== null) return;
    hoverTile.current = null;
    editor.setHover(null);
    hoverRef.current?.visible(false);
    brushRef.current?.visible(false);
    overlayRef.current?.batchDraw();
    setHover(null);
  };

  // Which names show at this zoom, and how long (labels.ts): never two on top of each other.
  const labels = useMemo(() => {
    if (!treeIndex || !tree) return new Map<string, string>();
    const names = {
      sector: (z: number) => treeIndex.sectors.get(z)?.name ?? `sector ${z}`,
      arena: (z: number) => treeIndex.arenas.get(z)?.arena.name ?? `arena ${z}`,
      object: (z: number) => treeIndex.objects.get(z)?.object.name ?? `object ${z}`,
      spawn: (z: number) => tree.spawns.find((sp) => sp.zone === z)?.name ?? `spawn ${z}`,
    };
    const candidates = zoneLabelCandidates({
      sectors: hidden.sector ? [] : sectors,
      arenas: zoom >= ARENA_NAMES_MIN_ZOOM && !hidden.arena ? arenas : [],
      objects: zoom >= OBJECT_NAMES_MIN_ZOOM && !hidden.object ? objects : [],
      spawns: zoom >= SPAWN_NAMES_MIN_ZOOM && !hidden.spawn ? spawns : [],
      name: (kind, zone) => names[kind](zone),
      tileSize: ts,
    });
    return layoutLabels(candidates, zoom, measureLabel);
  }, [treeIndex, tree, hidden, sectors, arenas, objects, spawns, zoom, ts]);

  if (!map || !tree || !treeIndex) return null;

  const chunks: { cx: number; cy: number }[] = [];
  for (let cy = range.y0; cy <= range.y1; cy++)
    for (let cx = range.x0; cx <= range.x1; cx++) chunks.push({ cx, cy });

  // Labels keep a constant on-screen size whatever the zoom.
  const labelScale = 1 / zoom;
  const zonesVisible = showZones && !hidden[tintKind];
  const collisionVisible = !hidden.collision;
  const selectedShape = selectedNode
    ? { sector: sectors, arena: arenas, object: objects, spawn: spawns }[selectedNode.kind].find(
        (s) => s.zone === selectedNode.zone,
      )
    : undefined;
  // The brush shows the tile it will paint under the cursor (terrain layers only).
  const showBrushTile =
    !!tileset &&
    terrainIndex(layer) !== null &&
    (tool === 'brush' || tool === 'rect' || tool === 'fill');
  const cols = map.tileset.columns;
  const cursor =
    tool === 'hand' || path.startsWith('hand')
      ? path.endsWith('panning')
        ? 'grabbing'
        : 'grab'
      : 'crosshair';

  return (
    <div
      className="town-canvas"
      data-testid="town-canvas"
      data-tileset={tilesetStatus}
      data-walls={collisionVisible ? collisionStyle : 'hidden'}
      data-chunks={chunks.length}
      data-tool-path={path}
    >
      <div
        className="town-canvas__viewport"
        ref={containerRef}
        style={{ cursor }}
        data-testid="canvas-viewport"
        onPointerDown={onPointerDown}
        onPointerMove={onPointerMove}
        onPointerUp={onPointerUp}
        onPointerCancel={onPointerUp}
        onPointerLeave={onPointerLeave}
        onContextMenu={(e) => e.preventDefault()}
      >
        {size.width > 0 && (
          <Stage
            ref={stageRef}
            id="town-stage"
            width={size.width}
            height={size.height}
            onWheel={onWheel}
          >
            <Layer
              ref={terrainRef}
              id="layer-terrain"
              listening={false}
              imageSmoothingEnabled={false}
            >
              <Rect
                id="map-backdrop"
                width={mapPx.width}
                height={mapPx.height}
                fill="#1d2126"
                shadowColor="black"
                shadowBlur={24}
                shadowOpacity={0.5}
                perfectDrawEnabled={false}
              />
              {chunks.map(({ cx, cy }) => (
                <TerrainChunk
                  key={`${cx}-${cy}`}
                  cx={cx}
                  cy={cy}
                  image={terrainCache.get(cx, cy)}
                  width={width}
                  height={height}
                  tileSize={ts}
                />
              ))}
            </Layer>
            <Layer
              ref={zonesRef}
              id="layer-zones"
              listening={false}
              visible={zonesVisible}
              imageSmoothingEnabled={false}
            >
              {zoneTint && (
                <KonvaImage
                  ref={tintRef}
                  id="zone-tint"
                  image={zoneTint}
                  width={mapPx.width}
                  height={mapPx.height}
                  perfectDrawEnabled={false}
                />
              )}
              {!hidden.arena &&
                arenas.map((s) => (
                  <Outline
                    key={`a${s.zone}`}
                    id={`arena-outline-${s.zone}`}
                    name="arena-outline"
                    shape={s}
                    tileSize={ts}
                    color="rgba(255,255,255,0.55)"
                    dash={[4, 3]}
                  />
                ))}
              {!hidden.object &&
                objects.map((s) => (
                  <Outline
                    key={`o${s.zone}`}
                    id={`object-outline-${s.zone}`}
                    name="object-outline"
                    shape={s}
                    tileSize={ts}
                    color="rgba(255, 214, 102, 0.95)"
                  />
                ))}
              {!hidden.sector &&
                sectors.map((s) => (
                  <Outline
                    key={s.zone}
                    id={`sector-outline-${s.zone}`}
                    name="sector-outline"
                    shape={s}
                    tileSize={ts}
                    color={zoneColor(s.zone, 0.95)}
                  />
                ))}
              {treeIndex && (
                <MapLabels
                  shown={labels}
                  sectors={sectors}
                  arenas={arenas}
                  objects={objects}
                  tileSize={ts}
                  zoom={zoom}
                />
              )}
            </Layer>
            <Layer
              ref={collisionRef}
              id="layer-collision"
              listening={false}
              visible={collisionVisible}
            >
              {collisionVisible &&
                chunks.map(({ cx, cy }) => {
                  const t = chunkTiles({ width, height }, cx, cy);
                  return (
                    <KonvaImage
                      key={`${cx}-${cy}`}
                      id={`collision-${cx}-${cy}`}
                      name="collision-chunk"
                      image={collisionCache.get(cx, cy)}
                      x={t.x0 * ts}
                      y={t.y0 * ts}
                      width={t.w * ts}
                      height={t.h * ts}
                      perfectDrawEnabled={false}
                    />
                  );
                })}
            </Layer>
            <Layer ref={overlayRef} id="layer-overlay" listening={false}>
              {!hidden.spawn &&
                spawns.map((s) => (
                  <SpawnMarker
                    key={s.zone}
                    shape={s}
                    grid={map.zones.spawn}
                    width={width}
                    tileSize={ts}
                    name={labels.get(`spawn-${s.zone}`) ?? null}
                    labelScale={labelScale}
                  />
                ))}
              {selectedNode && selectedShape && (
                <Highlight
                  shape={selectedShape}
                  grid={map.zones[selectedNode.kind]}
                  width={width}
                  tileSize={ts}
                />
              )}
              {showGrid && zoom >= GRID_MIN_ZOOM && (
                <GridLines range={range} width={width} height={height} tileSize={ts} />
              )}
              <Rect
                ref={previewRef}
                id="rect-preview"
                stroke="#7c9cff"
                strokeWidth={2}
                strokeScaleEnabled={false}
                fill="rgba(124,156,255,0.22)"
                visible={false}
                perfectDrawEnabled={false}
              />
              <Rect
                ref={selectionRef}
                id="selection-rect"
                stroke="#ffffff"
                strokeWidth={1.5}
                dash={[6, 4]}
                strokeScaleEnabled={false}
                fill="rgba(255,255,255,0.06)"
                visible={false}
                perfectDrawEnabled={false}
              />
              {tileset && (
                <KonvaImage
                  ref={brushRef}
                  id="brush-preview"
                  image={tileset}
                  crop={{
                    x: ((brushTile - 1) % cols) * map.tileset.tileWidth,
                    y: Math.floor((brushTile - 1) / cols) * map.tileset.tileHeight,
                    width: map.tileset.tileWidth,
                    height: map.tileset.tileHeight,
                  }}
                  width={ts}
                  height={ts}
                  opacity={0.8}
                  visible={false}
                  perfectDrawEnabled={false}
                />
              )}
              <Rect
                ref={hoverRef}
                id="hover-tile"
                width={ts}
                height={ts}
                stroke="#ffffff"
                strokeWidth={2}
                strokeScaleEnabled={false}
                fill="rgba(255,255,255,0.12)"
                visible={false}
                perfectDrawEnabled={false}
              />
            </Layer>
          </Stage>
        )}
      </div>
      <ToolStrip editor={editor} />
      <MapViewToolbar
        zoom={zoom}
        zoomBy={zoomBy}
        fit={fit}
        showZones={showZones}
        onShowZones={setShowZones}
        showCollision={showCollision}
        onShowCollision={setShowCollision}
        showGrid={showGrid}
        onShowGrid={(v) => editor.setShowGrid(v)}
      />
      <EditorPanel editor={editor} />
      <div className="town-canvas__minimap">
        <Minimap
          ref={minimapRef}
          getMap={liveMap}
          tileset={tileset}
          onJump={(x, y) => centerOn(x, y)}
        />
      </div>
      <CanvasStatusBar
        path={path}
        hover={hover}
        width={width}
        height={height}
        hand={tool === 'hand'}
        tilesetMissing={tilesetStatus === 'missing'}
      />
    </div>
  );
}
