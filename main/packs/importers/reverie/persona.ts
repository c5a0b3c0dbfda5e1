/**
 * A reverie persona's bootstrap files (scratch.json, spatial_memory.json) → our persona fields.
 */
import { formatAddress } from '../../../../common/scenario/address';
import type { Persona } from '../../../../common/scenario/schema';
import { asRecord, importError } from '../common';

/** Our persona fields that come from a scratch file (the rest come from the map). */
export type ScratchFields = Pick<
  Persona,
  | 'firstName'
  | 'lastName'
  | 'age'
  | 'innate'
  | 'learned'
  | 'currently'
  | 'lifestyle'
  | 'dailyPlanRequirement'
  | 'livingArea'
  | 'seed'
  | 'visionRadius'
  | 'attentionBandwidth'
  | 'retention'
  | 'retrievalWeights'
> & {
  /** `importance_trigger_max`: reflection threshold (per persona in reverie, global for us). */
  reflectionThreshold: number | null;
};

/**
 * Reads the identity and parameters from a parsed scratch.json.
 * @throws ImportError (naming `file` and the field) for a missing or mistyped required field.
 */
export function scratchToFields(raw: unknown, file: string): ScratchFields {
  const scratch = asRecord(raw);
  if (!scratch) throw importError(file, '', 'expected a JSON object (a persona scratch file)');
  const str = (key: string, required = true): string => {
    const value = scratch[key];
    if (typeof value === 'string') return value.trim();
    if (!required && (value === undefined || value === null)) return '';
    throw importError(file, key, `expected a string, got ${JSON.stringify(value) ?? 'nothing'}`);
  };
  const num = (key: string, fallback: number): number => {
    const value = scratch[key];
    if (value === undefined || value === null) return fallback;
    if (typeof value === 'number' && Number.isFinite(value)) return value;
    throw importError(file, key, `expected a number, got ${JSON.stringify(value)}`);
  };
  const age = num('age', NaN);
  if (!Number.isInteger(age)) throw importError(file, 'age', 'expected an age in whole years');
  const learned = str('learned');
  const currently = str('currently');
  // Our exporter keeps the seed paragraph in a `seed` key, which reverie's Scratch loader
  // ignores (it reads its keys one by one); the original files have none.
  const seed =
    typeof scratch.seed === 'string' && scratch.seed.trim()
      ? scratch.seed.trim()
      : seedFromParagraphs(learned, currently);
  const trigger = scratch.importance_trigger_max;
  return {
    firstName: str('first_name'),
    lastName: str('last_name', false),
    age,
    innate: str('innate'),
    learned,
    currently,
    lifestyle: str('lifestyle', false),
    dailyPlanRequirement: str('daily_plan_req', false),
    livingArea: str('living_area')
      .split(':')
      .map((part) => part.trim())
      .join(':'),
    seed,
    visionRadius: num('vision_r', 8),
    attentionBandwidth: num('att_bandwidth', 8),
    retention: num('retention', 8),
    retrievalWeights: {
      recency: num('recency_w', 1),
      relevance: num('relevance_w', 1),
      importance: num('importance_w', 1),
    },
    reflectionThreshold: typeof trigger === 'number' && trigger > 0 ? trigger : null,
  };
}

/**
 * The seed paragraph when none was given: one clause per sentence of `learned` and
 * `currently`, joined with ";" (our seed is semicolon-separated, one memory per clause, as in
 * the original's agent history files).
 */
export function seedFromParagraphs(...paragraphs: string[]): string {
  return paragraphs
    .flatMap((p) => p.split(/(?<=[.!?])\s+/))
    .map((sentence) => sentence.replace(/;/g, ',').replace(/\.$/, '').trim())
    .filter((sentence) => sentence.length > 0)
    .join('; ');
}

/**
 * Flattens spatial_memory.json (`world > sector > arena > [objects]`) into addresses: one per
 * object, or the arena (sector) itself when it lists no objects (arenas) — the exporter
 * rebuilds exactly the same tree from these.
 * @throws ImportError when the file is not shaped like a spatial memory.
 */
export function spatialMemoryToAddresses(raw: unknown, file: string): string[] {
  const worlds = asRecord(raw);
  if (!worlds) throw importError(file, '', 'expected a JSON object (world > sector > arena)');
  const out: string[] = [];
  for (const [world, sectorsRaw] of Object.entries(worlds)) {
    const sectors = asRecord(sectorsRaw);
    if (!sectors) throw importError(file, world, 'expected an object of sectors');
    for (const [sector, arenasRaw] of Object.entries(sectors)) {
      const arenas = asRecord(arenasRaw);
      if (!arenas) throw importError(file, `${world}.${sector}`, 'expected an object of arenas');
      if (Object.keys(arenas).length === 0) out.push(trimmedAddress(world, sector));
      for (const [arena, objects] of Object.entries(arenas)) {
        if (!Array.isArray(objects) || objects.some((o) => typeof o !== 'string'))
          throw importError(file, `${world}.${sector}.${arena}`, 'expected a list of object names');
        if (objects.length === 0) out.push(trimmedAddress(world, sector, arena));
        for (const object of objects as string[])
          out.push(trimmedAddress(world, sector, arena, object.trim()));
      }
    }
  }
  return [...new Set(out)];
}

/** Reverie strips every name it reads; spatial memory names are compared after stripping. */
function trimmedAddress(...parts: string[]): string {
  return formatAddress(...parts.map((part) => part.trim()));
}
