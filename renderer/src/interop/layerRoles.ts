/**
 * The mapping dialog edits one role per Tiled layer; the importer wants a LayerMapping (lists
 * per part of our map, one sector layer, one arena layer). These convert between the two and
 * keep the dialog's choices importable: terrain only from tile layers, one sector layer and
 * one arena layer at a time.
 */
import {
  emptyLayerMapping,
  type LayerMappingInput,
  type TiledLayerSummary,
} from '../../../common/api/interop';

export type LayerRole =
  'terrain' | 'collision' | 'sector' | 'arena' | 'object' | 'spawn' | 'ignore';

/** The dropdown's options, in the order of the importer's layers. */
export const LAYER_ROLES: readonly { role: LayerRole; label: string; hint: string }[] = [
  { role: 'terrain', label: 'Terrain', hint: 'drawn as ground, bottom to top' },
  { role: 'collision', label: 'Walls (collision)', hint: 'every tile or shape blocks' },
  { role: 'sector', label: 'Sector zones', hint: 'one sector per distinct tile or shape' },
  { role: 'arena', label: 'Arena zones', hint: 'one room per distinct tile or shape' },
  { role: 'object', label: 'Objects', hint: 'one object per tile kind or shape' },
  { role: 'spawn', label: 'Spawn points', hint: 'where residents can start' },
  { role: 'ignore', label: 'Leave out', hint: 'not imported' },
];

type Layer = Pick<TiledLayerSummary, 'name' | 'kind'>;

/** Whether `role` can take `layer` (terrain needs tiles). */
export function roleFits(layer: Layer, role: LayerRole): boolean {
  return role !== 'terrain' || layer.kind === 'tile';
}

/** Each layer's role under `mapping`; layers it does not name are left out. */
export function rolesFromMapping(
  layers: readonly Layer[],
  mapping: LayerMappingInput,
): Record<string, LayerRole> {
  const roles: Record<string, LayerRole> = {};
  for (const { name } of layers) {
    roles[name] = mapping.terrain.includes(name)
      ? 'terrain'
      : mapping.collision.includes(name)
        ? 'collision'
        : mapping.sector === name
          ? 'sector'
          : mapping.arena === name
            ? 'arena'
            : mapping.spawn.includes(name)
              ? 'spawn'
              : mapping.object.includes(name)
                ? 'object'
                : 'ignore';
  }
  return roles;
}

/** The mapping the importer wants, in layer order (terrain is drawn bottom to top). */
export function mappingFromRoles(
  layers: readonly Layer[],
  roles: Readonly<Record<string, LayerRole>>,
): LayerMappingInput {
  const mapping = emptyLayerMapping();
  for (const layer of layers) {
    const role = roles[layer.name] ?? 'ignore';
    if (role === 'ignore' || !roleFits(layer, role)) continue;
    if (role === 'sector') mapping.sector ??= layer.name;
    else if (role === 'arena') mapping.arena ??= layer.name;
    else mapping[role].push(layer.name);
  }
  return mapping;
}

/**
 * Gives `layer` a new role. A map has one sector layer and one arena layer, so choosing one
 * for a second layer leaves the previous one out (the dialog says which).
 * @returns the new roles and the layer that was displaced, if any.
 */
export function assignRole(
  layers: readonly Layer[],
  roles: Readonly<Record<string, LayerRole>>,
  name: string,
  role: LayerRole,
): { roles: Record<string, LayerRole>; displaced: string | null } {
  const layer = layers.find((l) => l.name === name);
  if (!layer) throw new Error(`no layer "${name}"`);
  if (!roleFits(layer, role))
    throw new Error(`layer "${name}" holds shapes, not tiles, so it cannot be terrain`);
  const next = { ...roles, [name]: role };
  let displaced: string | null = null;
  if (role === 'sector' || role === 'arena') {
    for (const other of layers) {
      if (other.name !== name && next[other.name] === role) {
        next[other.name] = 'ignore';
        displaced = other.name;
      }
    }
  }
  return { roles: next, displaced };
}
