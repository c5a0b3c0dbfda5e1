/**
 * The town canvas's camera: the stage's own position and scale, set imperatively (never through
 * React state at pointer rate), the visible chunk range it culls to, fit-to-view (once per opened
 * scenario, around the floating panels), centring, zoom by wheel or button, and the viewport the
 * map editor borrows for the hand tool and for jumping to a zone.
 */
import { useCallback, useEffect, useRef, useState, type RefObject } from 'react';
import type Konva from 'konva';
import type { KonvaEventObject } from 'konva/lib/Node';
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
import { CHUNK_TILES } from './chunks';
import type { MinimapHandle } from './Minimap';
import type { MapEditor } from '../editor/MapEditor';
import type { TileRect } from '../editor/types';

/** Space kept around a focused zone, screen px. */
const FOCUS_PADDING_PX = 80;

/** Screen px taken by the floating tool strip (left), toolbar (top) and layers panel (right). */
const FIT_INSET_PX = { left: 56, top: 48, right: 248 };
/** Below this free width or height, fit ignores the floating panels. */
const FIT_INSET_MIN_PX = 320;

const EMPTY_RANGE: ChunkRange = { x0: 0, y0: 0, x1: -1, y1: -1 };

export interface MapCameraOptions {
  editor: MapEditor;
  /** The open scenario: the view fits the map once per scenario. */
  scenarioId: string;
  /** The viewport's size, screen px. */
  size: { width: number; height: number };
  stageRef: RefObject<Konva.Stage | null>;
  minimapRef: RefObject<MinimapHandle | null>;
  /** Map px per tile. */
  ts: number;
  /** The whole map, map px. */
  mapPx: { width: number; height: number };
  /** Chunks across and down. */
  counts: { x: number; y: number };
}

export interface MapCamera {
  /** The camera now (read it in handlers; it changes without a render). */
  cameraRef: RefObject<Camera>;
  /** The zoom the readout and the labels use (renders when it changes). */
  zoom: number;
  /** The chunks in view. */
  range: ChunkRange;
  fit(): void;
  /** Centres tile (x, y) (fractional) in the viewport, at the current zoom unless given. */
  centerOn(x: number, y: number, scale?: number): void;
  /** Zooms around the viewport's centre. */
  zoomBy(factor: number): void;
  onWheel(e: KonvaEventObject<WheelEvent>): void;
}

export function useMapCamera({
  editor,
  scenarioId,
  size,
  stageRef,
  minimapRef,
  ts,
  mapPx,
  counts,
}: MapCameraOptions): MapCamera {
  const cameraRef = useRef<Camera>({ x: 0, y: 0, scale: 1 });
  const sizeRef = useRef(size);
  const [range, setRange] = useState<ChunkRange>(EMPTY_RANGE);
  const [zoom, setZoom] = useState(1);

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
    [updateRange, ts, stageRef, minimapRef],
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

  return { cameraRef, zoom, range, fit, centerOn, zoomBy, onWheel };
}
