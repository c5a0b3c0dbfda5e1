/**
 * The chunk bitmaps the town canvas draws terrain and walls from, and their upkeep: an edit
 * redraws exactly the chunks whose versions moved, in place (and the zone tint's tiles, and the
 * minimap's), then batchDraws the layer; a new document or resize rebuilds them all (a new
 * epoch), as do a new tileset, hidden terrain layers or another wall style.
 */
import { useEffect, useMemo, useState, type RefObject } from 'react';
import type Konva from 'konva';
import type { TownMap, ZoneKind } from '../../../common/scenario/schema';
import {
  ChunkBitmaps,
  chunkTiles,
  renderCollisionChunk,
  renderTerrainChunk,
  renderZoneTint,
  type CollisionStyle,
} from './chunks';
import type { MinimapHandle } from './Minimap';
import type { EditorUi, MapEditor } from '../editor/MapEditor';

export interface ChunkBitmapsOptions {
  editor: MapEditor;
  /** The live map (mid-gesture cells included). */
  liveMap(): TownMap | null;
  /** Chunks across. */
  countsX: number;
  tileset: HTMLImageElement | null;
  hidden: EditorUi['hidden'];
  collisionStyle: CollisionStyle;
  /** The zone kind whose tint shows now. */
  tintKindRef: RefObject<ZoneKind>;
  layers: {
    terrain: RefObject<Konva.Layer | null>;
    collision: RefObject<Konva.Layer | null>;
    zones: RefObject<Konva.Layer | null>;
    tint: RefObject<Konva.Image | null>;
    minimap: RefObject<MinimapHandle | null>;
  };
}

/** Hidden-layer flags as a stable key, so caches rebuild only when visibility changes. */
function hiddenKey(hidden: EditorUi['hidden']): string {
  return Object.keys(hidden)
    .filter((k) => hidden[k as keyof typeof hidden])
    .sort()
    .join(',');
}

export function useChunkBitmaps({
  editor,
  liveMap,
  countsX,
  tileset,
  hidden,
  collisionStyle,
  tintKindRef,
  layers,
}: ChunkBitmapsOptions): { terrainCache: ChunkBitmaps; collisionCache: ChunkBitmaps } {
  const [epoch, setEpoch] = useState(0);
  const hidKey = hiddenKey(hidden);
  const { terrain: terrainRef, collision: collisionRef, zones: zonesRef } = layers;
  const { tint: tintRef, minimap: minimapRef } = layers;

  // Chunk bitmaps read the live map, so mid-stroke redraws show the stroke. A new epoch
  // (new document, resize), tileset or visibility rebuilds them.
  const terrainCache = useMemo(() => {
    void epoch;
    const hiddenNow = new Set(hidKey.split(','));
    return new ChunkBitmaps(countsX, (cx, cy, into) => {
      const m = liveMap()!;
      const shown = {
        ...m,
        layers: m.layers.map((l, i) =>
          hiddenNow.has(`terrain:${i}`) ? { ...l, visible: false } : l,
        ),
      };
      return renderTerrainChunk(shown, cx, cy, tileset, into);
    });
  }, [countsX, tileset, epoch, hidKey, liveMap]);
  const collisionCache = useMemo(() => {
    void epoch;
    return new ChunkBitmaps(countsX, (cx, cy, into) =>
      renderCollisionChunk(liveMap()!, cx, cy, into, collisionStyle),
    );
  }, [countsX, epoch, liveMap, collisionStyle]);

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
                const t = chunkTiles(m, c % countsX, Math.floor(c / countsX));
                renderZoneTint(m, m.zones[category], tint, { x0: t.x0, y0: t.y0, w: t.w, h: t.h });
              }
              zonesRef.current?.batchDraw();
            }
          }
          if (category === 'sector') minimapRef.current?.redraw(chunks);
        }
      }),
    // The refs are the canvas's own (stable); listed for the linter, they never re-subscribe.
    [
      editor,
      terrainCache,
      collisionCache,
      liveMap,
      countsX,
      terrainRef,
      collisionRef,
      zonesRef,
      tintRef,
      minimapRef,
      tintKindRef,
    ],
  );

  return { terrainCache, collisionCache };
}
