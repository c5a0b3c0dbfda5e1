/**
 * The town view: a viewport-sized react-konva Stage showing the map read-only.
 *
 * Layers (few, per Konva's advice), none of which takes events — the Stage itself handles
 * pan, zoom and hover:
 *   layer-terrain    one Konva.Image per visible 16×16-tile chunk (`chunk-<cx>-<cy>`)
 *   layer-zones      sector tint (`zone-tint`), outlines (`sector-outline-<zone>`), labels
 *   layer-collision  hatching per visible chunk (`collision-<cx>-<cy>`), toggled
 *   layer-overlay    spawn markers (`spawn-<zone>`) and the hovered tile (`hover-tile`)
 *
 * The camera is the stage's own position and scale, set imperatively: panning and hovering
 * run at pointer rate and stay out of React; React state changes only when the set of visible
 * chunks, the zoom readout or the hovered tile changes.
 */
import { memo, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import {
  Group,
  Image as KonvaImage,
  Label,
  Layer,
  Rect,
  Shape,
  Stage,
  Tag,
  Text,
} from 'react-konva';
import type Konva from 'konva';
import type { KonvaEventObject } from 'konva/lib/Node';
import type { EnvTree, TownMap } from '../../../common/scenario/schema';
import {
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
  chunkCounts,
  chunkTiles,
  renderCollisionChunk,
  renderTerrainChunk,
  renderZoneTint,
} from './chunks';
import { zoneColor } from './colors';
import { addressAt, indexTree, zoneShapes, type ZoneShape } from './zones';
import { useTilesetImage } from './tileset';
import { useElementSize } from './useElementSize';

export interface TownCanvasProps {
  /** Identifies the open scenario; the view fits the map whenever it changes. */
  scenarioId: string;
  map: TownMap;
  tree: EnvTree;
}

/** Below this zoom spawn names would crowd the sector labels; only their markers show. */
const SPAWN_NAMES_MIN_ZOOM = 0.75;
/** Width of a spawn name's text box, screen px (the text is centred in it). */
const SPAWN_NAME_WIDTH_PX = 160;

const EMPTY_RANGE: ChunkRange = { x0: 0, y0: 0, x1: -1, y1: -1 };

interface Hover {
  x: number;
  y: number;
  address: string | null;
}

export function TownCanvas({ scenarioId, map, tree }: TownCanvasProps) {
  const containerRef = useRef<HTMLDivElement>(null);
  const stageRef = useRef<Konva.Stage>(null);
  const hoverRef = useRef<Konva.Rect>(null);
  const size = useElementSize(containerRef);
  const sizeRef = useRef(size);
  const { image: tileset, status: tilesetStatus } = useTilesetImage(map.tileset);

  const [range, setRange] = useState<ChunkRange>(EMPTY_RANGE);
  const [zoom, setZoom] = useState(1);
  const [showZones, setShowZones] = useState(true);
  const [showCollision, setShowCollision] = useState(false);
  const [hover, setHover] = useState<Hover | null>(null);
  const hoverTile = useRef<{ x: number; y: number } | null>(null);

  const ts = map.tileSize;
  const counts = useMemo(() => chunkCounts(map), [map]);
  const mapPx = useMemo(() => ({ width: map.width * ts, height: map.height * ts }), [map, ts]);
  const treeIndex = useMemo(() => indexTree(tree), [tree]);
  const sectors = useMemo(() => zoneShapes(map.zones.sector, map.width, map.height), [map]);
  const spawns = useMemo(() => zoneShapes(map.zones.spawn, map.width, map.height), [map]);
  const zoneTint = useMemo(() => renderZoneTint(map), [map]);

  // Chunk bitmaps are drawn on first sight and kept: a new map or tileset makes a new cache.
  const terrainCache = useMemo(
    () => new ChunkCache((cx, cy) => renderTerrainChunk(map, cx, cy, tileset)),
    [map, tileset],
  );
  const collisionCache = useMemo(
    () => new ChunkCache((cx, cy) => renderCollisionChunk(map, cx, cy)),
    [map],
  );

  const chunkPx = CHUNK_TILES * ts;
  const updateRange = useCallback(
    (camera: Camera) => {
      const next = visibleChunks(camera, sizeRef.current, chunkPx, counts);
      setRange((prev) => (sameRange(prev, next) ? prev : next));
    },
    [chunkPx, counts],
  );

  const cameraOf = (stage: Konva.Stage): Camera => ({
    x: stage.x(),
    y: stage.y(),
    scale: stage.scaleX(),
  });

  const applyCamera = useCallback(
    (camera: Camera) => {
      const stage = stageRef.current;
      if (!stage) return;
      stage.position({ x: camera.x, y: camera.y });
      stage.scale({ x: camera.scale, y: camera.scale });
      setZoom(camera.scale);
      updateRange(camera);
    },
    [updateRange],
  );

  const fit = useCallback(() => {
    if (sizeRef.current.width > 0) applyCamera(fitToView(mapPx, sizeRef.current));
  }, [applyCamera, mapPx]);

  // Fit once per opened scenario, as soon as the viewport has a size; later resizes keep the
  // camera and only re-cull.
  const fittedFor = useRef<string | null>(null);
  useEffect(() => {
    sizeRef.current = size;
    if (size.width === 0 || size.height === 0) return;
    if (fittedFor.current !== scenarioId) {
      fittedFor.current = scenarioId;
      fit();
    } else if (stageRef.current) {
      updateRange(cameraOf(stageRef.current));
    }
  }, [size, scenarioId, fit, updateRange]);

  const onWheel = (e: KonvaEventObject<WheelEvent>) => {
    e.evt.preventDefault();
    const stage = stageRef.current;
    const pointer = stage?.getPointerPosition();
    if (!stage || !pointer) return;
    const factor = e.evt.deltaY < 0 ? WHEEL_ZOOM_FACTOR : 1 / WHEEL_ZOOM_FACTOR;
    applyCamera(zoomAround(cameraOf(stage), pointer, factor));
  };

  const zoomBy = (factor: number) => {
    const stage = stageRef.current;
    if (!stage) return;
    applyCamera(zoomAround(cameraOf(stage), { x: size.width / 2, y: size.height / 2 }, factor));
  };

  const onDrag = (e: KonvaEventObject<DragEvent>) => {
    // Only the stage is draggable; the event bubbles from nowhere else, but be exact.
    if (e.target === stageRef.current) updateRange(cameraOf(e.target as Konva.Stage));
  };

  const onPointerMove = () => {
    const stage = stageRef.current;
    const p = stage?.getRelativePointerPosition();
    if (!stage || !p) return;
    const x = Math.floor(p.x / ts);
    const y = Math.floor(p.y / ts);
    const prev = hoverTile.current;
    if (prev && prev.x === x && prev.y === y) return;
    const inside = x >= 0 && y >= 0 && x < map.width && y < map.height;
    hoverTile.current = { x, y };
    const rect = hoverRef.current;
    if (rect) {
      rect.visible(inside);
      rect.position({ x: x * ts, y: y * ts });
    }
    setHover(inside ? { x, y, address: addressAt(map, tree, treeIndex, x, y) } : null);
  };

  const onPointerLeave = () => {
    hoverTile.current = null;
    hoverRef.current?.visible(false);
    setHover(null);
  };

  const chunks: { cx: number; cy: number }[] = [];
  for (let cy = range.y0; cy <= range.y1; cy++)
    for (let cx = range.x0; cx <= range.x1; cx++) chunks.push({ cx, cy });

  // Labels keep a constant on-screen size whatever the zoom.
  const labelScale = 1 / zoom;

  return (
    <div
      className="town-canvas"
      data-testid="town-canvas"
      data-tileset={tilesetStatus}
      data-chunks={chunks.length}
    >
      <div className="town-canvas__viewport" ref={containerRef}>
        {size.width > 0 && (
          <Stage
            ref={stageRef}
            id="town-stage"
            width={size.width}
            height={size.height}
            draggable
            dragDistance={3}
            onWheel={onWheel}
            onDragMove={onDrag}
            onDragEnd={onDrag}
            onMouseMove={onPointerMove}
            onMouseLeave={onPointerLeave}
          >
            <Layer id="layer-terrain" listening={false} imageSmoothingEnabled={false}>
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
                  map={map}
                />
              ))}
            </Layer>
            <Layer
              id="layer-zones"
              listening={false}
              visible={showZones}
              imageSmoothingEnabled={false}
            >
              <KonvaImage
                id="zone-tint"
                image={zoneTint}
                width={mapPx.width}
                height={mapPx.height}
                perfectDrawEnabled={false}
              />
              {sectors.map((s) => (
                <Outline
                  key={s.zone}
                  id={`sector-outline-${s.zone}`}
                  name="sector-outline"
                  shape={s}
                  tileSize={ts}
                  color={zoneColor(s.zone, 0.95)}
                />
              ))}
              {sectors.map((s) => {
                const sector = treeIndex.sectors.get(s.zone);
                return (
                  <Label
                    key={s.zone}
                    id={`sector-label-${s.zone}`}
                    name="sector-label"
                    x={(s.anchor.x + 0.5) * ts}
                    y={(s.anchor.y + 0.5) * ts}
                    scaleX={labelScale}
                    scaleY={labelScale}
                  >
                    <Tag
                      fill="rgba(16, 18, 22, 0.78)"
                      cornerRadius={4}
                      pointerDirection="down"
                      pointerWidth={8}
                      pointerHeight={5}
                    />
                    <Text
                      text={sector?.name ?? `sector ${s.zone}`}
                      fontSize={12}
                      fontStyle="600"
                      fontFamily="Inter, system-ui, sans-serif"
                      fill={zoneColor(s.zone)}
                      padding={5}
                    />
                  </Label>
                );
              })}
            </Layer>
            <Layer id="layer-collision" listening={false} visible={showCollision}>
              {showCollision &&
                chunks.map(({ cx, cy }) => {
                  const t = chunkTiles(map, cx, cy);
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
            <Layer id="layer-overlay" listening={false}>
              {spawns.map((s) => (
                <SpawnMarker
                  key={s.zone}
                  shape={s}
                  grid={map.zones.spawn}
                  width={map.width}
                  tileSize={ts}
                  name={tree.spawns.find((sp) => sp.zone === s.zone)?.name ?? `spawn ${s.zone}`}
                  labelScale={labelScale}
                  showName={zoom >= SPAWN_NAMES_MIN_ZOOM}
                />
              ))}
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
        <label className="toggle" title="Sector tints, outlines and names">
          <input
            type="checkbox"
            data-testid="toggle-zones"
            checked={showZones}
            onChange={(e) => setShowZones(e.target.checked)}
          />
          Zones
        </label>
        <label className="toggle" title="Hatch blocked tiles">
          <input
            type="checkbox"
            data-testid="toggle-collision"
            checked={showCollision}
            onChange={(e) => setShowCollision(e.target.checked)}
          />
          Collision
        </label>
      </div>
      <div className="town-canvas__status" data-testid="canvas-status">
        {hover ? (
          <>
            <span className="mono">
              {hover.x},{hover.y}
            </span>
            <span data-testid="hover-address">{hover.address}</span>
          </>
        ) : (
          <span className="muted">
            {map.width}×{map.height} tiles · drag to pan · scroll to zoom
            {tilesetStatus === 'missing'
              ? ' · tileset image unavailable, showing placeholder colours'
              : ''}
          </span>
        )}
      </div>
    </div>
  );
}

/** Lazily rendered bitmaps keyed by chunk coordinates. */
class ChunkCache {
  private readonly bitmaps = new Map<string, HTMLCanvasElement>();
  constructor(private readonly render: (cx: number, cy: number) => HTMLCanvasElement) {}
  get(cx: number, cy: number): HTMLCanvasElement {
    const key = `${cx},${cy}`;
    let bitmap = this.bitmaps.get(key);
    if (!bitmap) this.bitmaps.set(key, (bitmap = this.render(cx, cy)));
    return bitmap;
  }
}

const TerrainChunk = memo(function TerrainChunk({
  cx,
  cy,
  image,
  map,
}: {
  cx: number;
  cy: number;
  image: HTMLCanvasElement;
  map: TownMap;
}) {
  const t = chunkTiles(map, cx, cy);
  return (
    <KonvaImage
      id={`chunk-${cx}-${cy}`}
      name="chunk"
      image={image}
      x={t.x0 * map.tileSize}
      y={t.y0 * map.tileSize}
      width={t.w * map.tileSize}
      height={t.h * map.tileSize}
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
}: {
  id: string;
  name: string;
  shape: ZoneShape;
  tileSize: number;
  color: string;
}) {
  return (
    <Shape
      id={id}
      name={name}
      stroke={color}
      strokeWidth={2}
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

function SpawnMarker({
  shape,
  grid,
  width,
  tileSize,
  name,
  labelScale,
  showName,
}: {
  shape: ZoneShape;
  grid: readonly number[];
  width: number;
  tileSize: number;
  name: string;
  labelScale: number;
  showName: boolean;
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
      {showName && (
        <Text
          x={(shape.anchor.x + 0.5) * tileSize}
          y={(shape.anchor.y + 0.85) * tileSize}
          width={SPAWN_NAME_WIDTH_PX}
          offsetX={SPAWN_NAME_WIDTH_PX / 2}
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
