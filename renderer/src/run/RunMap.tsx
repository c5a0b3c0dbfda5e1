/**
 * The live map: the town's terrain (the editor's chunk bitmaps, drawn once per 16×16 chunk) with
 * the run's people on top — sprites gliding between tiles, emoji above heads, speech bubbles,
 * object state badges, a ring on the selected agent and a follow-cam.
 *
 * It is one plain 2D canvas repainted on animation frames only while something changes (a new
 * frame, a glide, a pan): the whole picture is a few chunk blits plus ~25 sprites and labels,
 * which costs far less than diffing a scene graph per frame. Pointer input is native: drag pans,
 * the wheel zooms, a click selects an agent, sets an object's state, or walks the resident.
 */
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import spriteSheet from '../../../resources/sprites.json';
import type { RunFrame } from '../../../common/api/runs';
import type { EnvTree, TownMap } from '../../../common/scenario/schema';
import {
  fitToView,
  visibleChunks,
  zoomAround,
  WHEEL_ZOOM_FACTOR,
  type Camera,
} from '../canvas/camera';
import {
  CHUNK_TILES,
  ChunkBitmaps,
  chunkCounts,
  chunkTiles,
  renderTerrainChunk,
} from '../canvas/chunks';
import { keepApart, type ScreenBox } from '../canvas/labels';
import { useTilesetImage } from '../canvas/tileset';
import { useElementSize } from '../canvas/useElementSize';
import {
  agentAtPoint,
  objectAt,
  objectPlaces,
  placeBubble,
  SpriteTweens,
  wrapBubble,
} from './mapGeometry';
import type { Bubble } from './runState';
import { headEmoji } from './format';

type Frame = { x: number; y: number; w: number; h: number };
const SPRITE_FRAMES = spriteSheet.frames as Record<string, Frame>;
const FIRST_SPRITE = Object.values(SPRITE_FRAMES)[0]!;

/** A click moves the pointer less than this (screen px); more is a drag. */
const CLICK_SLOP_PX = 4;

export interface RunMapProps {
  map: TownMap;
  tree: EnvTree;
  frame: RunFrame | null;
  bubbles: Bubble[];
  selectedAgentId: string | null;
  follow: boolean;
  /** The agent the user controls, if they joined. */
  residentId: string | null;
  onSelectAgent(id: string | null): void;
  /** A click on an object (address), with the screen point for a popover. */
  onObjectClick(address: string, at: { x: number; y: number }): void;
  /** A click on a tile while the user is a resident (walk there). */
  onTileClick(x: number, y: number): void;
  onStopFollow(): void;
}

function useImage(src: string): HTMLImageElement | null {
  const [image, setImage] = useState<HTMLImageElement | null>(null);
  useEffect(() => {
    const img = new Image();
    let live = true;
    img.onload = () => live && setImage(img);
    img.src = new URL(src, document.baseURI).href;
    return () => {
      live = false;
    };
  }, [src]);
  return image;
}

function roundRect(
  ctx: CanvasRenderingContext2D,
  x: number,
  y: number,
  w: number,
  h: number,
  r: number,
) {
  ctx.beginPath();
  ctx.roundRect(x, y, w, h, r);
}

export function RunMap(props: RunMapProps) {
  const { map, tree, frame, bubbles, selectedAgentId, follow, residentId } = props;
  const containerRef = useRef<HTMLDivElement>(null);
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const size = useElementSize(containerRef);
  const { image: tileset } = useTilesetImage(map.tileset);
  const sprites = useImage(spriteSheet.image);
  const camera = useRef<Camera | null>(null);
  const tweens = useRef(new SpriteTweens());
  const dirty = useRef(true);
  const raf = useRef(0);
  const [hover, setHover] = useState<{ id: string; x: number; y: number } | null>(null);
  const drag = useRef<{ x: number; y: number; cam: Camera; moved: boolean } | null>(null);
  const drawTimes = useRef<number[]>([]);

  const ts = map.tileSize;
  const counts = useMemo(() => chunkCounts(map), [map]);
  const chunks = useMemo(
    () =>
      new ChunkBitmaps(counts.x, (cx, cy, into) => renderTerrainChunk(map, cx, cy, tileset, into)),
    [map, tileset, counts.x],
  );
  const places = useMemo(() => objectPlaces(map, tree), [map, tree]);

  // Latest props for the paint loop, which lives outside React's render.
  const live = useRef({ frame, bubbles, selectedAgentId, follow, residentId, hover });
  live.current = { frame, bubbles, selectedAgentId, follow, residentId, hover };

  useEffect(() => {
    if (frame) tweens.current.update(frame.agents, performance.now());
    dirty.current = true;
  }, [frame]);
  useEffect(() => {
    dirty.current = true;
  }, [bubbles, selectedAgentId, follow, residentId, hover, chunks, sprites]);

  // Fit the map when the view opens or the map changes size.
  useEffect(() => {
    if (size.width > 0 && size.height > 0) {
      camera.current = fitToView({ width: map.width * ts, height: map.height * ts }, size);
      dirty.current = true;
    }
  }, [map.width, map.height, ts, size.width > 0 && size.height > 0]); // eslint-disable-line react-hooks/exhaustive-deps

  const paint = useCallback(() => {
    const canvas = canvasRef.current;
    const cam = camera.current;
    if (!canvas || !cam) return;
    const t0 = performance.now();
    const { frame, bubbles, selectedAgentId, follow, residentId, hover } = live.current;
    const dpr = window.devicePixelRatio || 1;
    const w = canvas.clientWidth;
    const h = canvas.clientHeight;
    if (canvas.width !== Math.round(w * dpr) || canvas.height !== Math.round(h * dpr)) {
      canvas.width = Math.round(w * dpr);
      canvas.height = Math.round(h * dpr);
    }
    const now = performance.now();
    const pos = (id: string) => tweens.current.at(id, now);

    // Follow-cam: ease the camera toward the followed agent.
    const followed =
      follow && selectedAgentId ? frame?.agents.find((a) => a.id === selectedAgentId) : null;
    if (followed) {
      const p = pos(followed.id);
      const tx = w / 2 - (p.x + 0.5) * ts * cam.scale;
      const ty = h / 2 - (p.y + 0.5) * ts * cam.scale;
      cam.x += (tx - cam.x) * 0.2;
      cam.y += (ty - cam.y) * 0.2;
      if (Math.abs(tx - cam.x) > 0.5 || Math.abs(ty - cam.y) > 0.5) dirty.current = true;
    }

    const ctx = canvas.getContext('2d')!;
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    ctx.fillStyle = '#0f1114';
    ctx.fillRect(0, 0, canvas.width, canvas.height);
    ctx.setTransform(dpr * cam.scale, 0, 0, dpr * cam.scale, dpr * cam.x, dpr * cam.y);
    ctx.imageSmoothingEnabled = false;
    const range = visibleChunks(cam, { width: w, height: h }, CHUNK_TILES * ts, counts);
    for (let cy = range.y0; cy <= range.y1; cy++)
      for (let cx = range.x0; cx <= range.x1; cx++) {
        const t = chunkTiles(map, cx, cy);
        ctx.drawImage(chunks.get(cx, cy), t.x0 * ts, t.y0 * ts, t.w * ts, t.h * ts);
      }

    // Sprites, in row order so lower ones overlap higher ones.
    const agents = frame ? [...frame.agents].sort((a, b) => pos(a.id).y - pos(b.id).y) : [];
    for (const a of agents) {
      const p = pos(a.id);
      const x = p.x * ts;
      const y = p.y * ts;
      if (a.id === selectedAgentId || a.id === residentId) {
        ctx.fillStyle =
          a.id === residentId ? 'rgba(250, 204, 21, 0.45)' : 'rgba(124, 140, 255, 0.5)';
        ctx.beginPath();
        ctx.ellipse(x + ts / 2, y + ts * 0.9, ts * 0.45, ts * 0.18, 0, 0, Math.PI * 2);
        ctx.fill();
      }
      const f = SPRITE_FRAMES[a.sprite] ?? FIRST_SPRITE;
      ctx.globalAlpha = a.asleep ? 0.6 : 1;
      if (sprites) ctx.drawImage(sprites, f.x, f.y, f.w, f.h, x, y - ts * 0.25, ts, ts);
      else {
        ctx.fillStyle = '#e5e7eb';
        ctx.fillRect(x + ts * 0.25, y, ts / 2, ts * 0.75);
      }
      ctx.globalAlpha = 1;
    }

    // Screen-space labels: object badges, emoji, names, bubbles.
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    const sx = (tx: number) => cam.x + tx * ts * cam.scale;
    const sy = (ty: number) => cam.y + ty * ts * cam.scale;
    ctx.textBaseline = 'middle';
    ctx.textAlign = 'center';
    ctx.font = '11px system-ui, sans-serif';
    // Name tags and object badges never cover each other (canvas/labels.ts keepApart): the
    // people the user picked first, then object states, then the other names.
    const tags: (ScreenBox & { draw: () => void; rank: number })[] = [];
    for (const o of frame?.objects ?? []) {
      const place = places.get(o.address);
      if (!place) continue;
      const label = o.state.length > 24 ? o.state.slice(0, 23) + '…' : o.state;
      const bw = ctx.measureText(label).width + 10;
      const bx = sx(place.cx) - bw / 2;
      const by = sy(place.y0) - 16;
      tags.push({
        key: `object ${o.address}`,
        rank: 1,
        x0: bx,
        y0: by,
        x1: bx + bw,
        y1: by + 15,
        draw: () => {
          ctx.font = '11px system-ui, sans-serif';
          roundRect(ctx, bx, by, bw, 15, 7);
          ctx.fillStyle = 'rgba(234, 88, 12, 0.92)';
          ctx.fill();
          ctx.fillStyle = '#fff';
          ctx.fillText(label, bx + bw / 2, by + 8);
        },
      });
    }
    const emojiPx = Math.max(12, Math.min(22, ts * cam.scale * 0.5));
    for (const a of agents) {
      const p = pos(a.id);
      const cx = sx(p.x + 0.5);
      const top = sy(p.y - 0.25);
      ctx.font = `${emojiPx}px system-ui, "Noto Color Emoji", sans-serif`;
      const emoji = a.asleep ? '💤' : headEmoji(a.emoji);
      if (emoji) ctx.fillText(emoji, cx, top - emojiPx * 0.6);
      const picked = a.id === selectedAgentId || a.id === hover?.id || a.id === residentId;
      if (picked || cam.scale >= 1) {
        ctx.font = '600 11px system-ui, sans-serif';
        const name = a.name.split(' ')[0] ?? a.name;
        const nw = ctx.measureText(name).width + 8;
        const ny = sy(p.y + 1) - 1;
        tags.push({
          key: `agent ${a.id}`,
          rank: picked ? 0 : 2,
          x0: cx - nw / 2,
          y0: ny,
          x1: cx + nw / 2,
          y1: ny + 14,
          draw: () => {
            ctx.font = '600 11px system-ui, sans-serif';
            roundRect(ctx, cx - nw / 2, ny, nw, 14, 4);
            ctx.fillStyle = 'rgba(15, 17, 20, 0.75)';
            ctx.fill();
            ctx.fillStyle = a.id === residentId ? '#facc15' : '#e5e7eb';
            ctx.fillText(name, cx, ny + 7);
          },
        });
      }
    }
    tags.sort((a, b) => a.rank - b.rank);
    const kept = keepApart(tags);
    for (const t of tags) if (kept.has(t.key)) t.draw();
    // Which tags are drawn, for the label e2e spec (boxes in CSS px of the canvas).
    const labelsText = JSON.stringify(
      tags
        .filter((t) => kept.has(t.key))
        .map(({ key, x0, y0, x1, y1 }) => ({ key, x0, y0, x1, y1 })),
    );
    if (canvas.dataset.labels !== labelsText) canvas.dataset.labels = labelsText;
    ctx.font = '12px system-ui, sans-serif';
    ctx.textAlign = 'left';
    for (const b of bubbles) {
      const a = frame?.agents.find((x) => x.id === b.agent);
      if (!a) continue;
      const p = pos(a.id);
      const lines = wrapBubble(b.text);
      if (!lines.length) continue;
      const bw = Math.max(...lines.map((l) => ctx.measureText(l).width)) + 14;
      const bh = lines.length * 15 + 8;
      // Kept whole inside the map: shifted sideways at its edges, under the speaker at the top.
      const place = placeBubble({
        anchorX: sx(p.x + 0.5),
        top: sy(p.y - 0.25) - emojiPx * 1.2,
        bottom: sy(p.y + 1) + 14,
        width: bw,
        height: bh,
        viewW: w,
        viewH: h,
      });
      const { x: bx, y: by, tailX } = place;
      roundRect(ctx, bx, by, bw, bh, 7);
      ctx.fillStyle = 'rgba(255, 255, 255, 0.95)';
      ctx.fill();
      ctx.beginPath();
      const edge = place.below ? by : by + bh;
      const tip = place.below ? by - 6 : by + bh + 6;
      ctx.moveTo(tailX - 4, edge);
      ctx.lineTo(tailX, tip);
      ctx.lineTo(tailX + 4, edge);
      ctx.fill();
      ctx.fillStyle = '#111827';
      lines.forEach((l, i) => ctx.fillText(l, bx + 7, by + 4 + 7.5 + i * 15));
    }

    if (tweens.current.moving(now)) dirty.current = true;
    // The camera as "x,y,scale" on the element, so tests can aim at a tile.
    const camText = `${cam.x.toFixed(1)},${cam.y.toFixed(1)},${cam.scale.toFixed(4)}`;
    const box = containerRef.current;
    if (box && box.dataset.camera !== camText) box.dataset.camera = camText;
    // The last paints' cost, for the frame-time benchmark (read by scripts/*.bench.ts).
    const times = drawTimes.current;
    times.push(performance.now() - t0);
    if (times.length > 240) times.shift();
    canvas.dataset.paints = String(Number(canvas.dataset.paints ?? 0) + 1);
  }, [map, ts, counts, chunks, places, sprites]);

  // The paint loop: one rAF chain, painting only when something changed.
  useEffect(() => {
    const loop = () => {
      if (dirty.current) {
        dirty.current = false;
        paint();
      }
      raf.current = requestAnimationFrame(loop);
    };
    raf.current = requestAnimationFrame(loop);
    return () => cancelAnimationFrame(raf.current);
  }, [paint]);

  useEffect(() => {
    dirty.current = true;
  }, [size.width, size.height]);

  // Expose paint times to benchmarks without a global: a method on the element.
  useEffect(() => {
    const el = canvasRef.current as (HTMLCanvasElement & { paintTimes?: () => number[] }) | null;
    if (el) el.paintTimes = () => [...drawTimes.current];
  }, []);

  const toMap = (e: { clientX: number; clientY: number }) => {
    const rect = containerRef.current!.getBoundingClientRect();
    const cam = camera.current!;
    const px = (e.clientX - rect.left - cam.x) / cam.scale;
    const py = (e.clientY - rect.top - cam.y) / cam.scale;
    return { px, py, sx: e.clientX - rect.left, sy: e.clientY - rect.top };
  };

  const onPointerDown = (e: React.PointerEvent) => {
    if (!camera.current || e.button !== 0) return;
    e.currentTarget.setPointerCapture(e.pointerId);
    drag.current = { x: e.clientX, y: e.clientY, cam: { ...camera.current }, moved: false };
  };
  const onPointerMove = (e: React.PointerEvent) => {
    const d = drag.current;
    if (d && camera.current) {
      const dx = e.clientX - d.x;
      const dy = e.clientY - d.y;
      if (Math.abs(dx) + Math.abs(dy) > CLICK_SLOP_PX) d.moved = true;
      if (d.moved) {
        camera.current = { ...d.cam, x: d.cam.x + dx, y: d.cam.y + dy };
        // Panning by hand ends the follow-cam (else it would pull the view straight back).
        if (live.current.follow) props.onStopFollow();
        dirty.current = true;
        return;
      }
    }
    if (!camera.current) return;
    const { px, py, sx, sy } = toMap(e);
    const now = performance.now();
    const id = agentAtPoint(live.current.frame, (a) => tweens.current.at(a, now), ts, px, py);
    setHover((h) =>
      id
        ? h?.id === id && Math.abs(h.x - sx) + Math.abs(h.y - sy) < 6
          ? h
          : { id, x: sx, y: sy }
        : null,
    );
  };
  const onPointerUp = (e: React.PointerEvent) => {
    const d = drag.current;
    drag.current = null;
    if (!d || d.moved || !camera.current) return;
    const { px, py, sx, sy } = toMap(e);
    const now = performance.now();
    const id = agentAtPoint(live.current.frame, (a) => tweens.current.at(a, now), ts, px, py);
    const tx = Math.floor(px / ts);
    const ty = Math.floor(py / ts);
    if (id && id !== live.current.residentId) return props.onSelectAgent(id);
    if (live.current.residentId && tx >= 0 && ty >= 0 && tx < map.width && ty < map.height)
      return props.onTileClick(tx, ty);
    const address = objectAt(map, tree, tx, ty);
    if (address) return props.onObjectClick(address, { x: sx, y: sy });
    props.onSelectAgent(null);
  };
  const onWheel = (e: React.WheelEvent) => {
    if (!camera.current) return;
    const rect = containerRef.current!.getBoundingClientRect();
    const factor = e.deltaY < 0 ? WHEEL_ZOOM_FACTOR : 1 / WHEEL_ZOOM_FACTOR;
    camera.current = zoomAround(
      camera.current,
      { x: e.clientX - rect.left, y: e.clientY - rect.top },
      factor,
    );
    dirty.current = true;
  };

  const hovered = hover ? frame?.agents.find((a) => a.id === hover.id) : undefined;
  return (
    <div
      className="run-map"
      ref={containerRef}
      data-testid="run-map"
      data-step={frame?.step ?? ''}
      data-agents={frame?.agents.length ?? 0}
      data-positions={frame?.agents.map((a) => `${a.id}:${a.x},${a.y}`).join(';') ?? ''}
      onPointerDown={onPointerDown}
      onPointerMove={onPointerMove}
      onPointerUp={onPointerUp}
      onPointerLeave={() => setHover(null)}
      onWheel={onWheel}
    >
      <canvas ref={canvasRef} className="run-map__canvas" data-testid="run-map-canvas" />
      {hovered && hover && (
        <div
          className="run-map__tip"
          data-testid="run-map-tip"
          style={{ left: hover.x + 14, top: hover.y + 14 }}
        >
          <strong>{hovered.name}</strong>
          <span>
            {headEmoji(hovered.emoji)} {hovered.asleep ? 'asleep' : hovered.action}
          </span>
          <span className="muted">{hovered.address}</span>
        </div>
      )}
    </div>
  );
}
