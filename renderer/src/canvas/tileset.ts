/** Loading a map's tileset image in the renderer. */
import { useEffect, useState } from 'react';
import type { Tileset } from '../../../common/scenario/schema';

/**
 * Where the image of a `builtin:<name>` tileset lives. resources/ is the renderer's Vite
 * publicDir, so resources/tileset.png is served next to index.html. The URL is relative so it
 * works over http (web mode) and file:// (Electron) alike.
 */
export const BUILTIN_TILESETS: Record<string, string> = { town: 'tileset.png' };

/** The image URL for a tileset, or null when this build cannot load it (pack assets). */
export function tilesetUrl(tileset: Pick<Tileset, 'image'>): string | null {
  const match = /^builtin:(.+)$/.exec(tileset.image);
  const file = match ? BUILTIN_TILESETS[match[1]] : undefined;
  return file ? new URL(file, document.baseURI).href : null;
}

export type TilesetStatus = 'loading' | 'ready' | 'missing';

/**
 * Loads the tileset image. While it loads, or when it cannot be loaded, the image is null and
 * the canvas draws placeholder colours instead.
 */
export function useTilesetImage(tileset: Pick<Tileset, 'image'>): {
  image: HTMLImageElement | null;
  status: TilesetStatus;
} {
  const url = tilesetUrl(tileset);
  const [state, setState] = useState<{
    url: string | null;
    image: HTMLImageElement | null;
    status: TilesetStatus;
  }>({
    url: null,
    image: null,
    status: 'loading',
  });
  useEffect(() => {
    if (!url) return;
    let live = true;
    const img = new Image();
    img.onload = () => live && setState({ url, image: img, status: 'ready' });
    img.onerror = () => live && setState({ url, image: null, status: 'missing' });
    img.src = url;
    return () => {
      live = false;
    };
  }, [url]);
  if (!url) return { image: null, status: 'missing' };
  // A stale result for a previous URL counts as still loading.
  return state.url === url
    ? { image: state.image, status: state.status }
    : { image: null, status: 'loading' };
}
