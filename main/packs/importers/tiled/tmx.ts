/**
 * TMX/TSX (XML) → the same plain shape as Tiled's JSON formats (.tmj/.tsj), so one reader
 * (read.ts) handles both. Only the parts the importer uses are converted.
 */
import { childrenNamed, type XmlElement } from './xml';

type Json = Record<string, unknown>;

const num = (value: string | undefined): number | undefined =>
  value === undefined ? undefined : Number(value);

/** `<properties><property name type value/>…` → `[{name, type, value}]`. */
function properties(element: XmlElement): Json[] {
  return childrenNamed(element, 'properties').flatMap((p) =>
    childrenNamed(p, 'property').map((prop) => {
      const type = prop.attrs.type ?? 'string';
      const raw = prop.attrs.value ?? prop.text;
      const value =
        type === 'int' || type === 'float' ? Number(raw) : type === 'bool' ? raw === 'true' : raw;
      return { name: prop.attrs.name, type, value };
    }),
  );
}

/** A `<map>` element as a .tmj object. */
export function tmxMapToJson(map: XmlElement): Json {
  return {
    width: num(map.attrs.width),
    height: num(map.attrs.height),
    tilewidth: num(map.attrs.tilewidth),
    tileheight: num(map.attrs.tileheight),
    orientation: map.attrs.orientation,
    infinite: map.attrs.infinite === '1',
    properties: properties(map),
    tilesets: childrenNamed(map, 'tileset').map((t) => ({
      firstgid: num(t.attrs.firstgid),
      ...(t.attrs.source !== undefined ? { source: t.attrs.source } : tsxTilesetToJson(t)),
    })),
    layers: layers(map),
  };
}

/** A `<tileset>` element (embedded, or the root of a .tsx) as a .tsj object. */
export function tsxTilesetToJson(t: XmlElement): Json {
  const image = childrenNamed(t, 'image')[0];
  return {
    name: t.attrs.name,
    tilewidth: num(t.attrs.tilewidth),
    tileheight: num(t.attrs.tileheight),
    tilecount: num(t.attrs.tilecount),
    columns: num(t.attrs.columns),
    image: image?.attrs.source,
    tiles: childrenNamed(t, 'tile').map((tile) => ({
      id: num(tile.attrs.id),
      class: tile.attrs.class ?? tile.attrs.type,
      properties: properties(tile),
    })),
  };
}

function layers(parent: XmlElement): Json[] {
  const out: Json[] = [];
  for (const child of parent.children) {
    const visible = child.attrs.visible !== '0';
    if (child.name === 'layer') {
      const data = childrenNamed(child, 'data')[0];
      const chunked = data ? childrenNamed(data, 'chunk').length > 0 : false;
      const tiles = data ? childrenNamed(data, 'tile') : [];
      out.push({
        type: 'tilelayer',
        name: child.attrs.name ?? '',
        visible,
        encoding: data?.attrs.encoding,
        compression: data?.attrs.compression,
        // No encoding: one <tile gid="…"/> per cell (Tiled's deprecated XML format).
        data:
          data?.attrs.encoding === undefined
            ? tiles.map((tile) => Number(tile.attrs.gid ?? 0))
            : data.text,
        ...(chunked ? { chunks: [] } : {}),
      });
    } else if (child.name === 'objectgroup') {
      out.push({
        type: 'objectgroup',
        name: child.attrs.name ?? '',
        visible,
        objects: childrenNamed(child, 'object').map((o) => ({
          id: num(o.attrs.id),
          name: o.attrs.name ?? '',
          class: o.attrs.class ?? o.attrs.type ?? '',
          x: num(o.attrs.x) ?? 0,
          y: num(o.attrs.y) ?? 0,
          width: num(o.attrs.width) ?? 0,
          height: num(o.attrs.height) ?? 0,
          rotation: num(o.attrs.rotation) ?? 0,
          gid: num(o.attrs.gid),
          point: childrenNamed(o, 'point').length > 0,
          ellipse: childrenNamed(o, 'ellipse').length > 0,
          polygon: childrenNamed(o, 'polygon').length + childrenNamed(o, 'polyline').length > 0,
          properties: properties(o),
        })),
      });
    } else if (child.name === 'group') {
      out.push({ type: 'group', name: child.attrs.name ?? '', visible, layers: layers(child) });
    }
  }
  return out;
}
