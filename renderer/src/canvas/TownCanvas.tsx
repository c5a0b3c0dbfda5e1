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
 * scale, set imperatively; edits redraw only their dirty chunk bitmaps (in place) and call
 * batchDraw; previews move Konva nodes directly. React renders when the visible chunk range,
 * the zoom readout, the hovered tile or the settled document changes.
 */
import { memo, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { Group, Image as KonvaImage, Layer, Rect, Shape, Stage, Text } from 'react-konva';
import type Konva from 'konva';
import type { KonvaEventObject } from 'konva/lib/Node';
import { useStore } from 'zustand';
import type { TownMap, ZoneKind } from '../../../common/scenario/schema';
import {
  clampScale,
  fitToView,
  sameRange,
  visibleChunks,
  zoomAround,
  WHEEL_ZOOM_FACTOR,
  type Camera,
  type ChunkRange,
} from './camera';
import {
  CHUNK_TILES,
  ChunkBitmaps,
  chunkCounts,
  chunkTiles,
  renderCollisionChunk,
  renderTerrainChunk,
  renderZoneTint,
  type CollisionStyle,
} from './chunks';
import { zoneColor } from './colors';
import { addressAt, indexTree, zoneShapes, type ZoneShape } from './zones';
import { useTilesetImage } from './tileset';
import { useElementSize } from './useElementSize';
import { useSettledDoc } from './useSettledDoc';
import { Minimap, type MinimapHandle } from './Minimap';
import { useStudioStore } from '../stores/studioStore';
import type { EditorUi } from '../editor/MapEditor';
import { terrainIndex, type TilePointer, type TileRect } from '../editor/types';
import { ToolStrip } from '../components/ToolStrip';
import { EditorPanel } from '../components/EditorPanel';
import { keyPressOf } from '../shortcuts/chord';
import { keyForPage } from '../shortcuts/useShortcuts';
import { useShortcutSheet } from '../shortcuts/ShortcutSheet';
import { layoutLabels, NAME_MAX_PX, zoneLabelCandidates } from './labels';
import { MapLabels, measureLabel } from './MapLabels';
import { toolStatus } from '../editor/statusText';

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
/** Space kept around a focused zone, screen px. */
const FOCUS_PADDING_PX = 80;

/** Screen px taken by the floating tool strip (left), toolbar (top) and layers panel (right). */
const FIT_INSET_PX = { left: 56, top: 48, right: 248 };
/** Below this free width or height, fit ignores the floating panels. */
const FIT_INSET_MIN_PX = 320;

const EMPTY_RANGE: ChunkRange = { x0: 0, y0: 0, x1: -1, y1: -1 };

interface Hover {
  x: number;
  y: number;
  address: string | null;
}

/** Hidden-layer flags as a stable key, so caches rebuild only when visibility changes. */
function hiddenKey(hidden: EditorUi['hidden']): string {
  return Object.keys(hidden)
    .filter((k) => hidden[k as keyof typeof hidden])
    .sort()
    .join(',');
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
  const cameraRef = useRef<Camera>({ x: 0, y: 0, scale: 1 });
  const size = useElementSize(containerRef);
  const sizeRef = useRef(size);

  const fallbackMap = settled?.map;
  const { image: tileset, status: tilesetStatus } = useTilesetImage(
    fallbackMap?.tileset ?? { image: '' },
  );

  const [range, setRange] = useState<ChunkRange>(EMPTY_RANGE);
  const [zoom, setZoom] = useState(1);
  const [epoch, setEpoch] = useState(0);
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
  const hidKey = hiddenKey(hidden);

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

  // Chunk bitmaps read the live map, so mid-stroke redraws show the stroke. A new epoch
  // (new document, resize), tileset or visibility rebuilds them.
  const terrainCache = useMemo(() => {
    void epoch;
    const hiddenNow = new Set(hidKey.split(','));
    return new ChunkBitmaps(counts.x, (cx, cy, into) => {
      const m = liveMap()!;
      const shown = {
        ...m,
        layers: m.layers.map((l, i) =>
          hiddenNow.has(`terrain:${i}`) ? { ...l, visible: false } : l,
        ),
      };
      return renderTerrainChunk(shown, cx, cy, tileset, into);
    });
  }, [counts.x, tileset, epoch, hidKey, liveMap]);
  // Walls show on every layer (as on the minimap); editing them or the Collision toggle
  // switches to the hatch that makes them stand out.
  const collisionStyle: CollisionStyle = showCollision || layer === 'collision' ? 'hatch' : 'walls';
  const collisionCache = useMemo(() => {
    void epoch;
    return new ChunkBitmaps(counts.x, (cx, cy, into) =>
      renderCollisionChunk(liveMap()!, cx, cy, into, collisionStyle),
    );
  }, [counts.x, epoch, liveMap, collisionStyle]);

  const chunkPx = CHUNK_TILES * ts;
  const updateRange = useCallback(
    (camera: Camera) => {
      const next = visibleChunks(camera, sizeRef.current, chunkPx, counts);
      setRange((prev) => (sameRange(prev, next) ? prev : next));
    },
    [chunkPx, counts],
  );

  const applyCamera = useCallback(
    (camera: Camera) => {
      cameraRef.current = camera;
      const stage = stageRef.current;
      if (!stage) return;
      stage.position({ x: camera.x, y: camera.y });
      stage.scale({ x: camera.scale, y: camera.scale });
      setZoom(camera.scale);
      updateRange(camera);
      const px = ts * camera.scale;
      minimapRef.current?.setView({
        x: -camera.x / px,
        y: -camera.y / px,
        w: sizeRef.current.width / px,
        h: sizeRef.current.height / px,
      });
    },
    [updateRange, ts],
  );

  // Fit the map into the part of the viewport the floating tool strip, view toolbar and
  // layers panel leave free (when the window is wide enough for that to matter).
  const fit = useCallback(() => {
    const s = sizeRef.current;
    if (s.width <= 0) return;
    const free = {
      width: s.width - FIT_INSET_PX.left - FIT_INSET_PX.right,
      height: s.height - FIT_INSET_PX.top,
    };
    if (free.width < FIT_INSET_MIN_PX || free.height < FIT_INSET_MIN_PX)
      return applyCamera(fitToView(mapPx, s));
    const c = fitToView(mapPx, free);
    applyCamera({ ...c, x: c.x + FIT_INSET_PX.left, y: c.y + FIT_INSET_PX.top });
  }, [applyCamera, mapPx]);

  /** Centres tile (x, y) (fractional) in the viewport at the current zoom. */
  const centerOn = useCallback(
    (x: number, y: number, scale = cameraRef.current.scale) => {
      const s = sizeRef.current;
      applyCamera({ scale, x: s.width / 2 - x * ts * scale, y: s.height / 2 - y * ts * scale });
    },
    [applyCamera, ts],
  );

  // The editor borrows the camera for the hand tool and for jumping to issues / tree nodes.
  useEffect(() => {
    editor.setViewport({
      panBy(dx, dy) {
        const c = cameraRef.current;
        applyCamera({ ...c, x: c.x + dx, y: c.y + dy });
      },
      focusRect(r: TileRect) {
        const s = sizeRef.current;
        const w = (r.x1 - r.x0 + 1) * ts;
        const h = (r.y1 - r.y0 + 1) * ts;
        const fitScale = Math.min(
          (s.width - FOCUS_PADDING_PX) / w,
          (s.height - FOCUS_PADDING_PX) / h,
        );
        // Zoom out only if the zone does not fit; zoom in to at least 1:1 for a tiny one.
        const scale = clampScale(
          Math.min(Math.max(cameraRef.current.scale, Math.min(1, fitScale)), fitScale),
        );
        centerOn((r.x0 + r.x1 + 1) / 2, (r.y0 + r.y1 + 1) / 2, scale);
      },
    });
    return () => editor.setViewport(null);
  }, [editor, applyCamera, centerOn, ts]);

  // Fit once per opened scenario, as soon as the viewport has a size; later resizes keep the
  // camera and only re-cull.
  const fittedFor = useRef<string | null>(null);
  useEffect(() => {
    sizeRef.current = size;
    if (size.width === 0 || size.height === 0) return;
    if (fittedFor.current !== scenarioId) {
      fittedFor.current = scenarioId;
      fit();
    } else {
      applyCamera(cameraRef.current);
    }
  }, [size, scenarioId, fit, applyCamera]);

  // Edits: redraw exactly the chunks whose versions moved, in place, then batchDraw.
  useEffect(
    () =>
      editor.versions.onDidChange((category, chunks) => {
        if (!category || !chunks) {
          setEpoch((e) => e + 1);
          minimapRef.current?.redraw(null);
          return;
        }
        if (category === 'terrain') {
          let drawn = false;
          for (const c of chunks) drawn = terrainCache.redraw(c) || drawn;
          if (drawn) terrainRef.current?.batchDraw();
          minimapRef.current?.redraw(chunks);
        } else if (category === 'collision') {
          let drawn = false;
          for (const c of chunks) drawn = collisionCache.redraw(c) || drawn;
          if (drawn) collisionRef.current?.batchDraw();
          minimapRef.current?.redraw(chunks);
        } else {
          if (category === tintKindRef.current && tintRef.current) {
            const m = liveMap();
            const tint = tintRef.current.image() as HTMLCanvasElement | undefined;
            if (m && tint) {
              for (const c of chunks) {
                const t = chunkTiles(m, c % counts.x, Math.floor(c / counts.x));
                renderZoneTint(m, m.zones[category], tint, { x0: t.x0, y0: t.y0, w: t.w, h: t.h });
              }
              zonesRef.current?.batchDraw();
            }
          }
          if (category === 'sector') minimapRef.current?.redraw(chunks);
        }
      }),
    [editor, terrainCache, collisionCache, liveMap, counts.x],
  );

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

  const onWheel = (e: KonvaEventObject<WheelEvent>) => {
    e.evt.preventDefault();
    const stage = stageRef.current;
    const pointer = stage?.getPointerPosition();
    if (!stage || !pointer) return;
    const factor = e.evt.deltaY < 0 ? WHEEL_ZOOM_FACTOR : 1 / WHEEL_ZOOM_FACTOR;
    applyCamera(zoomAround(cameraRef.current, pointer, factor));
  };

  const zoomBy = (factor: number) => {
    applyCamera(zoomAround(cameraRef.current, { x: size.width / 2, y: size.height / 2 }, factor));
  };

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
      <div className="town-canvas__toolbar" role="toolbar" aria-label="Map view">
        <button
          type="button"
          className="icon-button"
          data-testid="zoom-out"
          title="Zoom out"
          onClick={() => zoomBy(1 / WHEEL_ZOOM_FACTOR)}
        >
          −
        </button>
        <span className="town-canvas__zoom" data-testid="zoom-level">
          {Math.round(zoom * 100)}%
        </span>
        <button
          type="button"
          className="icon-button"
          data-testid="zoom-in"
          title="Zoom in"
          onClick={() => zoomBy(WHEEL_ZOOM_FACTOR)}
        >
          +
        </button>
        <button type="button" className="chip-button" data-testid="zoom-fit" onClick={fit}>
          Fit
        </button>
        <span className="town-canvas__sep" />
        <Toggle
          id="toggle-zones"
          title="Zone tints, outlines and names"
          checked={showZones}
          onChange={setShowZones}
        >
          Zones
        </Toggle>
        <Toggle
          id="toggle-collision"
          title="Hatch blocked tiles"
          checked={showCollision}
          onChange={setShowCollision}
        >
          Collision
        </Toggle>
        <Toggle
          id="toggle-grid"
          title="Tile grid"
          checked={showGrid}
          onChange={(v) => editor.setShowGrid(v)}
        >
          Grid
        </Toggle>
      </div>
      <EditorPanel editor={editor} />
      <div className="town-canvas__minimap">
        <Minimap
          ref={minimapRef}
          getMap={liveMap}
          tileset={tileset}
          onJump={(x, y) => centerOn(x, y)}
        />
      </div>
      <div className="town-canvas__status" data-testid="canvas-status">
        <span className="town-canvas__path" data-testid="tool-path" data-path={path}>
          {toolStatus(path)}
        </span>
        {hover ? (
          <>
            <span className="mono" data-testid="hover-tile-address">
              {hover.x},{hover.y}
            </span>
            <span data-testid="hover-address">{hover.address}</span>
          </>
        ) : (
          <span className="muted">
            {width}×{height} tiles · {tool === 'hand' ? '' : 'Space-drag to pan · '}scroll to zoom
            {tilesetStatus === 'missing'
              ? ' · tileset image unavailable, showing placeholder colours'
              : ''}
          </span>
        )}
        <button
          type="button"
          className="link-button town-canvas__keys"
          data-testid="shortcuts-open"
          title="Every keyboard shortcut (?)"
          onClick={() => useShortcutSheet.getState().setOpen(true)}
        >
          Shortcuts <kbd>?</kbd>
        </button>
      </div>
    </div>
  );
}

const TerrainChunk = memo(function TerrainChunk({
  cx,
  cy,
  image,
  width,
  height,
  tileSize,
}: {
  cx: number;
  cy: number;
  image: HTMLCanvasElement;
  width: number;
  height: number;
  tileSize: number;
}) {
  const t = chunkTiles({ width, height }, cx, cy);
  return (
    <KonvaImage
      id={`chunk-${cx}-${cy}`}
      name="chunk"
      image={image}
      x={t.x0 * tileSize}
      y={t.y0 * tileSize}
      width={t.w * tileSize}
      height={t.h * tileSize}
      perfectDrawEnabled={false}
    />
  );
});

function Outline({
  id,
  name,
  shape,
  tileSize,
  color,
  dash,
}: {
  id: string;
  name: string;
  shape: ZoneShape;
  tileSize: number;
  color: string;
  dash?: number[];
}) {
  return (
    <Shape
      id={id}
      name={name}
      stroke={color}
      strokeWidth={name === 'sector-outline' ? 2 : 1.5}
      dash={dash}
      strokeScaleEnabled={false}
      perfectDrawEnabled={false}
      sceneFunc={(ctx, node) => {
        ctx.beginPath();
        for (const s of shape.outline) {
          ctx.moveTo(s.x1 * tileSize, s.y1 * tileSize);
          ctx.lineTo(s.x2 * tileSize, s.y2 * tileSize);
        }
        ctx.strokeShape(node);
      }}
    />
  );
}

/** The selected tree node's tiles: a light fill and a strong outline. */
function Highlight({
  shape,
  grid,
  width,
  tileSize,
}: {
  shape: ZoneShape;
  grid: readonly number[];
  width: number;
  tileSize: number;
}) {
  return (
    <Group id="node-highlight">
      <Shape
        fill="rgba(124, 156, 255, 0.28)"
        perfectDrawEnabled={false}
        sceneFunc={(ctx, node) => {
          ctx.beginPath();
          for (let y = shape.minY; y <= shape.maxY; y++)
            for (let x = shape.minX; x <= shape.maxX; x++)
              if (grid[y * width + x] === shape.zone)
                ctx.rect(x * tileSize, y * tileSize, tileSize, tileSize);
          ctx.fillShape(node);
        }}
      />
      <Shape
        stroke="#7c9cff"
        strokeWidth={3}
        strokeScaleEnabled={false}
        perfectDrawEnabled={false}
        sceneFunc={(ctx, node) => {
          ctx.beginPath();
          for (const s of shape.outline) {
            ctx.moveTo(s.x1 * tileSize, s.y1 * tileSize);
            ctx.lineTo(s.x2 * tileSize, s.y2 * tileSize);
          }
          ctx.strokeShape(node);
        }}
      />
    </Group>
  );
}

/** Tile grid over the visible chunks only. */
function GridLines({
  range,
  width,
  height,
  tileSize,
}: {
  range: ChunkRange;
  width: number;
  height: number;
  tileSize: number;
}) {
  const x0 = range.x0 * CHUNK_TILES;
  const y0 = range.y0 * CHUNK_TILES;
  const x1 = Math.min(width, (range.x1 + 1) * CHUNK_TILES);
  const y1 = Math.min(height, (range.y1 + 1) * CHUNK_TILES);
  return (
    <Shape
      id="grid-lines"
      stroke="rgba(255,255,255,0.26)"
      strokeWidth={1}
      strokeScaleEnabled={false}
      perfectDrawEnabled={false}
      sceneFunc={(ctx, node) => {
        ctx.beginPath();
        for (let x = x0; x <= x1; x++) {
          ctx.moveTo(x * tileSize, y0 * tileSize);
          ctx.lineTo(x * tileSize, y1 * tileSize);
        }
        for (let y = y0; y <= y1; y++) {
          ctx.moveTo(x0 * tileSize, y * tileSize);
          ctx.lineTo(x1 * tileSize, y * tileSize);
        }
        ctx.strokeShape(node);
      }}
    />
  );
}

function SpawnMarker({
  shape,
  grid,
  width,
  tileSize,
  name,
  labelScale,
}: {
  shape: ZoneShape;
  grid: readonly number[];
  width: number;
  tileSize: number;
  /** The name to show under the marker (as laid out), or null when it is hidden. */
  name: string | null;
  labelScale: number;
}) {
  return (
    <Group id={`spawn-${shape.zone}`} name="spawn">
      <Shape
        fill="rgba(255, 214, 102, 0.9)"
        stroke="rgba(40, 30, 0, 0.8)"
        strokeWidth={1}
        strokeScaleEnabled={false}
        perfectDrawEnabled={false}
        sceneFunc={(ctx, node) => {
          ctx.beginPath();
          const r = tileSize * 0.22;
          for (let y = shape.minY; y <= shape.maxY; y++) {
            for (let x = shape.minX; x <= shape.maxX; x++) {
              if (grid[y * width + x] !== shape.zone) continue;
              const cx = (x + 0.5) * tileSize;
              const cy = (y + 0.5) * tileSize;
              // A diamond per spawn tile.
              ctx.moveTo(cx, cy - r);
              ctx.lineTo(cx + r, cy);
              ctx.lineTo(cx, cy + r);
              ctx.lineTo(cx - r, cy);
              ctx.closePath();
            }
          }
          ctx.fillStrokeShape(node);
        }}
      />
      {name && (
        <Text
          name="zone-label"
          x={(shape.anchor.x + 0.5) * tileSize}
          y={(shape.anchor.y + 0.85) * tileSize}
          width={NAME_MAX_PX}
          offsetX={NAME_MAX_PX / 2}
          align="center"
          wrap="none"
          ellipsis
          scaleX={labelScale}
          scaleY={labelScale}
          text={name}
          fontSize={11}
          fill="#ffd666"
          fontFamily="Inter, system-ui, sans-serif"
          shadowColor="black"
          shadowBlur={3}
          shadowOpacity={0.9}
        />
      )}
    </Group>
  );
}

/** A labelled view toggle in the canvas toolbar; `id` doubles as its test id. */
function Toggle(props: {
  id: string;
  title: string;
  checked: boolean;
  onChange: (checked: boolean) => void;
  children: React.ReactNode;
}) {
  return (
    <label className="toggle" title={props.title}>
      <input
        type="checkbox"
        data-testid={props.id}
        checked={props.checked}
        onChange={(e) => props.onChange(e.target.checked)}
      />
      {props.children}
    </label>
  );
}
