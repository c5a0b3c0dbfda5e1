/**
 * Which Tiled layers become which parts of our map. The CLI uses suggestLayerMapping's
 * guesses; the studio's mapping dialog shows them and lets the designer change them.
 */
import { emptyLayerMapping, type LayerMappingInput } from '../../../../common/api/interop';
import type { TiledMap } from './model';

/** Tiled layer names (groups joined with "/") for each part of our map. */
export type LayerMapping = LayerMappingInput;

/**
 * Guesses a mapping from layer names: a name containing "collision", "sector", "arena",
 * "object" or "spawn" (any case; "Object Interaction Blocks" counts) goes there, other tile
 * layers are terrain, and other object layers hold objects (an object whose class says
 * "spawn" still becomes a spawn). Reverie's "World Blocks" and "Special Blocks Registry"
 * layers are bookkeeping and are left out.
 */
export function suggestLayerMapping(map: TiledMap): LayerMapping {
  const mapping = emptyLayerMapping();
  for (const layer of map.layers) {
    const name = layer.name.toLowerCase();
    if (/collision/.test(name)) mapping.collision.push(layer.name);
    else if (/sector/.test(name)) mapping.sector ??= layer.name;
    else if (/arena/.test(name)) mapping.arena ??= layer.name;
    else if (/spawn/.test(name)) mapping.spawn.push(layer.name);
    else if (/object/.test(name)) mapping.object.push(layer.name);
    else if (/world blocks|special blocks/.test(name)) continue;
    else if (layer.kind === 'tile') mapping.terrain.push(layer.name);
    else mapping.object.push(layer.name);
  }
  return mapping;
}
