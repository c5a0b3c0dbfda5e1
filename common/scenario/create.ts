import { SCHEMA_VERSION, type Scenario } from './schema';

/** The studio's built-in tileset (resources/tileset.png); see resources/README.md. */
export const BUILTIN_TILESET = {
  image: 'builtin:town',
  tileWidth: 32,
  tileHeight: 32,
  columns: 8,
  tileCount: 32,
  names: {},
} as const;

/** A blank, valid scenario: one grass layer, no zones, no people. */
export function createEmptyScenario(id: string, name: string, width = 40, height = 30): Scenario {
  const cells = width * height;
  const blank = () => new Array<number>(cells).fill(0);
  return {
    schemaVersion: SCHEMA_VERSION,
    id,
    name,
    description: '',
    map: {
      width,
      height,
      tileSize: 32,
      tileset: { ...BUILTIN_TILESET, names: {} },
      layers: [{ name: 'Ground', visible: true, tiles: new Array<number>(cells).fill(1) }],
      collision: blank(),
      zones: { sector: blank(), arena: blank(), object: blank(), spawn: blank() },
    },
    tree: { world: name, sectors: [], spawns: [] },
    personas: [],
    settings: {
      startTime: '2023-02-13T07:00:00',
      secondsPerStep: 10,
      reflectionThreshold: 150,
      models: { chat: null, embed: null },
      costLayer: { lifestylePolicy: true, socialMemory: true, mindWandering: true },
      seed: 1,
    },
  };
}
