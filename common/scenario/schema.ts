/**
 * The scenario model: everything a designer authors, as zod schemas plus the types they infer.
 *
 * Units: map sizes and coordinates are tiles; `tileSize` is pixels per tile; game time is
 * seconds. Grids are row-major `number[]` of length `width * height` (tile (x, y) at
 * `y * width + x`), the same layout as the reverie maze CSVs, so import/export is a copy.
 */
import { z } from 'zod';

/** The schema version this build writes. Older documents are migrated up (see migrate.ts). */
export const SCHEMA_VERSION = 1;

/** Reference constants (ARCHITECTURE §9): every reverie persona uses 8/8/8. */
export const DEFAULT_VISION_RADIUS = 8;
export const DEFAULT_ATTENTION_BANDWIDTH = 8;
export const DEFAULT_RETENTION = 8;
/** The reference code's retrieval weights (recency, relevance, importance) = (0.5, 3, 2). */
export const DEFAULT_RETRIEVAL_WEIGHTS = { recency: 0.5, relevance: 3, importance: 2 } as const;
/** Importance sum of new observations that triggers a reflection (Park et al. 2023). */
export const DEFAULT_REFLECTION_THRESHOLD = 150;
/** Game seconds per simulation step in the reference implementation. */
export const DEFAULT_SECONDS_PER_STEP = 10;

/** Hard ceilings that keep a hostile or corrupt document from exhausting memory. */
export const MAX_MAP_SIDE = 1024;
export const MAX_PERSONAS = 500;

const name = z.string().trim().min(1, 'expected a non-empty name').max(120);
const text = z.string().max(20_000);
/** A zone id as painted in a grid; 0 means "no zone" and never names a record. */
const zoneId = z.number().int().min(1).max(0xffff);
/** Stable record ids: lower-case slugs, so addresses and file names stay readable. */
export const recordId = z
  .string()
  .regex(/^[a-z0-9][a-z0-9_-]{0,63}$/, 'expected a lower-case id of letters, digits, "-" or "_"');

const grid = z.array(z.number().int().min(0).max(0xffff));

/** One terrain layer: tile indices into the tileset (0 = empty, n = tileset tile n - 1). */
export const terrainLayerSchema = z.object({
  name,
  visible: z.boolean().default(true),
  tiles: grid,
});

/** The tileset a map paints with: a PNG sheet inside the pack (or a built-in one). */
export const tilesetSchema = z.object({
  /** Path of the image: `builtin:<name>` for the studio's own art, else a pack asset path. */
  image: z.string().min(1),
  tileWidth: z.number().int().min(1).max(512),
  tileHeight: z.number().int().min(1).max(512),
  columns: z.number().int().min(1).max(4096),
  tileCount: z.number().int().min(1).max(65_535),
  /** Names for palette entries, by tile index (0-based). Optional; helps the palette. */
  names: z.record(z.string(), z.string()).default({}),
});

export const mapSchema = z.object({
  width: z.number().int().min(1).max(MAX_MAP_SIDE),
  height: z.number().int().min(1).max(MAX_MAP_SIDE),
  /** Pixels per square tile (the reference town uses 32). */
  tileSize: z.number().int().min(4).max(512),
  tileset: tilesetSchema,
  /** Drawn bottom to top. */
  layers: z.array(terrainLayerSchema).max(32),
  /** 1 = blocked, 0 = walkable. */
  collision: grid,
  /** Zone grids: each cell holds the id of the sector/arena/object/spawn it belongs to, or 0. */
  zones: z.object({
    sector: grid,
    arena: grid,
    object: grid,
    spawn: grid,
  }),
});

export const objectSchema = z.object({
  zone: zoneId,
  name,
  description: text.default(''),
  /** The state an object starts a run in ("idle" in the reference implementation). */
  defaultState: z.string().trim().min(1).max(200).default('idle'),
});

export const arenaSchema = z.object({
  zone: zoneId,
  name,
  description: text.default(''),
  objects: z.array(objectSchema).default([]),
});

export const sectorSchema = z.object({
  zone: zoneId,
  name,
  description: text.default(''),
  arenas: z.array(arenaSchema).default([]),
});

export const spawnSchema = z.object({
  zone: zoneId,
  name,
});

/**
 * The environment tree (world > sector > arena > object). It is also the name table for the
 * zone grids: a grid value `n` on the sector grid names the sector whose `zone` is `n`.
 */
export const treeSchema = z.object({
  world: name,
  sectors: z.array(sectorSchema).default([]),
  spawns: z.array(spawnSchema).default([]),
});

export const retrievalWeightsSchema = z.object({
  recency: z.number().min(0).max(100),
  relevance: z.number().min(0).max(100),
  importance: z.number().min(0).max(100),
});

/** An environment address in reverie form: `world:sector[:arena[:object]]`. */
export const addressSchema = z
  .string()
  .regex(/^[^:]+(:[^:]+){1,3}$/, 'expected an address like "world:sector:arena"');

/** One resident. Field names follow the Generative Agents scratch file, in camelCase. */
export const personaSchema = z.object({
  id: recordId,
  firstName: name,
  lastName: z.string().trim().max(120).default(''),
  age: z.number().int().min(0).max(150),
  /** Innate traits, e.g. "kind, inquisitive, patient". */
  innate: text,
  /** Learned traits: the paragraph that says who the person is. */
  learned: text,
  /** What they are currently doing in life. */
  currently: text,
  /** Sleep and daily rhythm, e.g. "goes to bed around 11pm, wakes up around 7am". */
  lifestyle: text,
  /** What a daily plan must contain (work hours, classes…). */
  dailyPlanRequirement: text.default(''),
  /** Home arena address; the persona's living area. */
  livingArea: addressSchema,
  /** Semicolon-separated clauses; each becomes one of the persona's first memories. */
  seed: text,
  /** Initial spatial memory: addresses the persona knows at the start. */
  knownPlaces: z.array(addressSchema).default([]),
  /** Spawn zone id, or null to start anywhere in the living area. */
  spawn: zoneId.nullable().default(null),
  visionRadius: z.number().int().min(1).max(64).default(DEFAULT_VISION_RADIUS),
  attentionBandwidth: z.number().int().min(1).max(64).default(DEFAULT_ATTENTION_BANDWIDTH),
  retention: z.number().int().min(0).max(256).default(DEFAULT_RETENTION),
  retrievalWeights: retrievalWeightsSchema.default({ ...DEFAULT_RETRIEVAL_WEIGHTS }),
  /** Name of one of the studio's own sprites (resources/sprites). */
  sprite: z.string().min(1).max(64).default('villager-1'),
});

export const modelChoiceSchema = z.object({
  provider: z.enum(['llama', 'transformers', 'openai-compatible', 'replay']),
  /** A GGUF path, an ONNX folder, a model name on a server, or a run folder for replay. */
  model: z.string().min(1),
  baseUrl: z.string().url().optional(),
});

export const settingsSchema = z.object({
  /** Game start as a local date-time, ISO form without zone: "2023-02-13T07:00:00". */
  startTime: z
    .string()
    .regex(
      /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?$/,
      'expected a date-time like 2023-02-13T07:00:00',
    ),
  secondsPerStep: z.number().int().min(1).max(3600).default(DEFAULT_SECONDS_PER_STEP),
  reflectionThreshold: z.number().min(1).max(10_000).default(DEFAULT_REFLECTION_THRESHOLD),
  models: z
    .object({ chat: modelChoiceSchema.nullable(), embed: modelChoiceSchema.nullable() })
    .default({ chat: null, embed: null }),
  /** The Affordable Generative Agents cost layer, each switch independent. */
  costLayer: z
    .object({
      lifestylePolicy: z.boolean(),
      socialMemory: z.boolean(),
      mindWandering: z.boolean(),
    })
    .default({ lifestylePolicy: true, socialMemory: true, mindWandering: true }),
  /** Seed for every random choice in a run, so runs are reproducible. */
  seed: z
    .number()
    .int()
    .min(0)
    .max(2 ** 32 - 1)
    .default(1),
});

/** The structural schema. `scenarioSchema` adds cross-field checks on top of it. */
export const scenarioShape = z.object({
  schemaVersion: z.literal(SCHEMA_VERSION),
  id: recordId,
  name,
  description: text.default(''),
  map: mapSchema,
  tree: treeSchema,
  personas: z.array(personaSchema).max(MAX_PERSONAS),
  settings: settingsSchema,
});

export type TerrainLayer = z.infer<typeof terrainLayerSchema>;
export type Tileset = z.infer<typeof tilesetSchema>;
export type TownMap = z.infer<typeof mapSchema>;
export type ZoneKind = keyof TownMap['zones'];
export type WorldObject = z.infer<typeof objectSchema>;
export type Arena = z.infer<typeof arenaSchema>;
export type Sector = z.infer<typeof sectorSchema>;
export type Spawn = z.infer<typeof spawnSchema>;
export type EnvTree = z.infer<typeof treeSchema>;
export type Persona = z.infer<typeof personaSchema>;
/** A persona as written by hand: fields with defaults may be left out. */
export type PersonaInput = z.input<typeof personaSchema>;
export type RetrievalWeights = z.infer<typeof retrievalWeightsSchema>;
export type ModelChoice = z.infer<typeof modelChoiceSchema>;
export type Settings = z.infer<typeof settingsSchema>;
export type Scenario = z.infer<typeof scenarioShape>;
