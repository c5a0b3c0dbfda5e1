/**
 * The Konva shapes the town canvas draws per zone or chunk: a terrain chunk's bitmap, zone
 * outlines, the selected node's highlight, the tile grid over the visible chunks and spawn
 * markers with their names. Each draws in map px (tile × tile size); none takes events.
 */
import { memo } from 'react';
import { Group, Image as KonvaImage, Shape, Text } from 'react-konva';
import type { ChunkRange } from './camera';
import { CHUNK_TILES, chunkTiles } from './chunks';
import { NAME_MAX_PX } from './labels';
import type { ZoneShape } from './zones';

export const TerrainChunk = memo(function TerrainChunk({
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

export function Outline({
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
export function Highlight({
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
export function GridLines({
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

export function SpawnMarker({
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
