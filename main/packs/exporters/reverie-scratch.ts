/**
 * Our persona → a reverie bootstrap scratch.json and spatial_memory.json, with the 47 keys in
 * the original's order and the values a fresh base simulation has (MANIFEST "scratch.json").
 */
import { parseAddress } from '../../../common/scenario/address';
import type { Persona } from '../../../common/scenario/schema';

/** The reverie display name: "<first> <last>" (also its folder name under personas/). */
export function reverieName(persona: Persona): string {
  return [persona.firstName, persona.lastName].filter(Boolean).join(' ').trim();
}

/**
 * The bootstrap scratch. Reflection parameters we do not model keep the original's values;
 * `seed` is our addition (reverie's Scratch reads its keys one by one and ignores it), so a
 * re-import keeps the persona's seed paragraph.
 */
export function personaToScratch(persona: Persona, reflectionThreshold: number): object {
  const name = reverieName(persona);
  return {
    vision_r: persona.visionRadius,
    att_bandwidth: persona.attentionBandwidth,
    retention: persona.retention,
    curr_time: null,
    curr_tile: null,
    daily_plan_req: persona.dailyPlanRequirement,
    name,
    first_name: persona.firstName,
    last_name: persona.lastName,
    age: persona.age,
    innate: persona.innate,
    learned: persona.learned,
    currently: persona.currently,
    lifestyle: persona.lifestyle,
    living_area: persona.livingArea,
    concept_forget: 100,
    daily_reflection_time: 180,
    daily_reflection_size: 5,
    overlap_reflect_th: 4,
    kw_strg_event_reflect_th: 10,
    kw_strg_thought_reflect_th: 9,
    recency_w: persona.retrievalWeights.recency,
    relevance_w: persona.retrievalWeights.relevance,
    importance_w: persona.retrievalWeights.importance,
    recency_decay: 0.995,
    importance_trigger_max: reflectionThreshold,
    importance_trigger_curr: reflectionThreshold,
    importance_ele_n: 0,
    thought_count: 5,
    daily_req: [],
    f_daily_schedule: [],
    f_daily_schedule_hourly_org: [],
    act_address: null,
    act_start_time: null,
    act_duration: null,
    act_description: null,
    act_pronunciatio: null,
    act_event: [name, null, null],
    act_obj_description: null,
    act_obj_pronunciatio: null,
    act_obj_event: [null, null, null],
    chatting_with: null,
    chat: null,
    chatting_with_buffer: {},
    chatting_end_time: null,
    act_path_set: false,
    planned_path: [],
    seed: persona.seed,
  };
}

/**
 * Known places → `world > sector > arena > [objects]`. An arena address alone gives an arena
 * with no objects listed; a sector address alone, a sector with no arenas — the inverse of the
 * importer's flattening.
 */
export function knownPlacesToSpatialMemory(places: readonly string[]): object {
  const tree: Record<string, Record<string, Record<string, string[]>>> = {};
  for (const place of places) {
    const [world, sector, arena, object] = parseAddress(place);
    const sectors = (tree[world] ??= {});
    const arenas = (sectors[sector] ??= {});
    if (arena === undefined) continue;
    const objects = (arenas[arena] ??= []);
    if (object !== undefined && !objects.includes(object)) objects.push(object);
  }
  return tree;
}
