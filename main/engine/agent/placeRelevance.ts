/**
 * Which of the places an agent knows the `action` prompt offers for a task: the few most
 * relevant to it, by the embedding similarity of the task and the place's name, as retrieval
 * ranks memories (Park et al. 2023 §4.1 relevance). The reference narrows the choice the same
 * way in steps (sector, then arena, then object, each from a short list); one ranked short
 * list does it in one call.
 *
 * Why few: asked to choose among all 31 places Delphine knows, SmolLM2-135M answered "Larkspur
 * College > library > bookshelves" for making tea at home, baking pies and going to bed alike;
 * offered the 3 most relevant, it chose the kitchen, the cafe's coffee machine, the pond bench
 * and the library's archive shelves for the tasks that named them.
 */
import { parseAddress } from '../../../common/scenario/address';
import type { Embedder } from '../../models/types';
import { LOCATION_SEPARATOR } from '../prompts/action';
import type { Agent } from './Agent';
import type { Mind } from './mind';

/** Places offered per action. */
export const PLACES_OFFERED = 3;
/**
 * Added to a place's similarity in the agent's home sector (the reference tells the model where
 * the agent lives, and home tasks belong there) and in its current area (the reference prefers
 * staying when the task can be done where the agent is).
 */
const HOME_BONUS = 0.1;
const HERE_BONUS = 0.05;

/** Place-name vectors by embedder: names repeat every step, their vectors never change. */
const placeVectors = new WeakMap<Embedder, Map<string, Float32Array>>();

async function vectorsOf(embedder: Embedder, names: readonly string[]): Promise<Float32Array[]> {
  let cache = placeVectors.get(embedder);
  if (!cache) placeVectors.set(embedder, (cache = new Map()));
  const missing = [...new Set(names.filter((n) => !cache.has(n)))];
  if (missing.length > 0) {
    const vectors = await embedder.embed(missing);
    missing.forEach((n, i) => cache.set(n, vectors[i]));
  }
  return names.map((n) => cache.get(n)!);
}

function dot(a: Float32Array, b: Float32Array): number {
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += a[i] * b[i];
  return sum;
}

/**
 * The text a place is ranked against: the task within its schedule block, written as reverie
 * writes a decomposed task, "block (task)", when it asks for the task's sector. A task alone
 * often names no place: SmolLM2 gave Tobias "read the notes from the night shift" inside "go to
 * the library in the morning", and ranked on the task alone his own room's bookshelf beat the
 * library, so he stayed in his room all morning.
 */
function placeQuery(task: string, block?: string): string {
  return block && block !== task ? `${block} (${task})` : task;
}

/**
 * The {@link PLACES_OFFERED} places of `locations` ("sector > arena[ > object]") most relevant
 * to `task` done within the schedule block `block`, best first; ties keep the order of
 * `locations`.
 */
export async function placesFor(
  agent: Agent,
  mind: Mind,
  task: string,
  locations: readonly string[],
  block?: string,
): Promise<string[]> {
  if (locations.length <= PLACES_OFFERED) return [...locations];
  const [taskVector] = await mind.embedder.embed([placeQuery(task, block)]);
  const vectors = await vectorsOf(mind.embedder, locations);
  const homeSector = parseAddress(agent.identity.livingArea)[1];
  const here = mind.world.details(agent.tile);
  const hereArena = here ? `${here.sector}${LOCATION_SEPARATOR}${here.arena}` : null;
  return locations
    .map((place, i) => {
      const [sector] = place.split(LOCATION_SEPARATOR);
      let score = dot(taskVector, vectors[i]);
      if (sector === homeSector) score += HOME_BONUS;
      if (hereArena && (place === hereArena || place.startsWith(hereArena + LOCATION_SEPARATOR)))
        score += HERE_BONUS;
      return { place, score, i };
    })
    .sort((a, b) => b.score - a.score || a.i - b.i)
    .slice(0, PLACES_OFFERED)
    .map((p) => p.place);
}
