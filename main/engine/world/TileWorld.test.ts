import { describe, expect, it } from 'vitest';
import { TileWorld } from './TileWorld';
import { bfsDistances, buildTestTown } from './testMaps';

const at = (x: number, y: number) => y * 10 + x;

describe('TileWorld', () => {
  const town = buildTestTown();

  it('names every tile with its sector, arena and object, as reverie addresses', () => {
    const world = TileWorld.fromScenario(town);
    expect(world.details({ x: 1, y: 1 })).toEqual({
      world: 'Town',
      sector: 'cafe',
      arena: 'kitchen',
      object: 'stove',
      spawn: 0,
      blocked: false,
    });
    expect(world.addressAt({ x: 1, y: 1 }, 'object')).toBe('Town:cafe:kitchen:stove');
    expect(world.addressAt({ x: 3, y: 3 }, 'arena')).toBe('Town:cafe:kitchen');
    expect(world.addressAt({ x: 3, y: 3 }, 'object')).toBeNull();
    expect(world.addressAt({ x: 7, y: 2 }, 'sector')).toBe('Town:park');
    expect(world.addressAt({ x: 10, y: 0 }, 'world')).toBeNull();
    expect(world.details({ x: -1, y: 0 })).toBeNull();
  });

  it('indexes the tiles of sectors, arenas and object instances', () => {
    const world = TileWorld.fromScenario(town);
    expect(world.tilesOf('Town:cafe:kitchen:stove')).toEqual([at(1, 1), at(2, 1)]);
    expect(world.tilesOf('Town:park:lawn:bench')).toEqual([at(7, 2), at(8, 6)]);
    expect(world.tilesOf('Town:cafe')).toHaveLength(40);
    expect(world.tilesOf('Town:cafe:dining')).toHaveLength(20);
    expect(world.tilesOf('Town:nowhere')).toEqual([]);
    expect(world.addresses('arena')).toEqual([
      'Town:cafe:kitchen',
      'Town:park:lawn',
      'Town:cafe:dining',
    ]);
    expect(world.addresses('object')).toEqual([
      'Town:cafe:kitchen:stove',
      'Town:park:lawn:bench',
      'Town:cafe:dining:table',
    ]);
  });

  it('keeps object state per instance, defaulting to the tree defaultState', () => {
    const world = TileWorld.fromScenario(town);
    expect(world.objectState('Town:cafe:kitchen:stove')).toBe('idle');
    expect(world.objectState('Town:cafe:dining:table')).toBe('empty');
    expect(world.setObjectState('Town:cafe:kitchen:stove', 'being cooked on')).toBe(true);
    expect(world.objectState('Town:cafe:kitchen:stove')).toBe('being cooked on');
    expect(world.setObjectState('Town:cafe:kitchen:oven', 'hot')).toBe(false);
    expect(world.objectState('Town:cafe:kitchen:oven')).toBeUndefined();

    const snapshot = world.toSnapshot();
    expect(snapshot).toEqual({ objectStates: { 'Town:cafe:kitchen:stove': 'being cooked on' } });
    const restored = TileWorld.fromSnapshot(town, JSON.parse(JSON.stringify(snapshot)));
    expect(restored.objectState('Town:cafe:kitchen:stove')).toBe('being cooked on');
    expect(restored.restoreSnapshot({ objectStates: { 'Town:gone:x:y': 'on' } })).toEqual([
      'Town:gone:x:y',
    ]);
    expect(restored.objectState('Town:cafe:kitchen:stove')).toBe('idle');

    world.resetObjectState('Town:cafe:kitchen:stove');
    expect(world.toSnapshot()).toEqual({ objectStates: {} });
  });

  it('lists spawn tiles per zone and overall', () => {
    const world = TileWorld.fromScenario(town);
    expect(world.spawnTiles(1)).toEqual([
      { x: 0, y: 0 },
      { x: 7, y: 7 },
    ]);
    expect(world.spawnTiles()).toEqual([
      { x: 0, y: 0 },
      { x: 3, y: 3 },
      { x: 7, y: 7 },
    ]);
    expect(world.spawnTiles(9)).toEqual([]);
  });

  it('walks to the nearest reachable tile of an address, through the door', () => {
    const world = TileWorld.fromScenario(town);
    const result = world.findPathToAddress({ x: 0, y: 0 }, 'Town:park:lawn:bench');
    const dist = bfsDistances(world, at(0, 0));
    expect(result).toMatchObject({ kind: 'path', goal: { x: 7, y: 2 } });
    expect(result.kind === 'path' && result.path.length - 1).toBe(dist[at(7, 2)]);
    expect(result.kind === 'path' && result.path).toContainEqual({ x: 5, y: 3 });
  });

  it('reports unknown addresses, walled-in tiles and walls as unreachable', () => {
    const world = TileWorld.fromScenario(town);
    expect(world.findPathToAddress({ x: 0, y: 0 }, 'Town:cafe:attic')).toMatchObject({
      kind: 'unreachable',
      reason: 'no-goals',
    });
    expect(world.findPath({ x: 0, y: 0 }, { x: 9, y: 0 })).toMatchObject({ reason: 'no-route' });
    expect(world.findPath({ x: 0, y: 0 }, { x: 5, y: 0 })).toMatchObject({
      reason: 'goal-blocked',
    });
    expect(world.isBlocked({ x: 5, y: 0 })).toBe(true);
    expect(world.isBlocked({ x: 5, y: 3 })).toBe(false);
    expect(world.isBlocked({ x: 99, y: 3 })).toBe(true);
  });

  it('rejects grids whose length does not match the map size', () => {
    const bad = buildTestTown();
    bad.map.zones.object = bad.map.zones.object.slice(1);
    expect(() => TileWorld.fromScenario(bad)).toThrow(/expected grids of 80 cells/);
  });
});
