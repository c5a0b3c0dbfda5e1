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
import { LOCATION_SEPARATOR } from '../prompts/action';
import { conditionsOf } from './ablation';
import type { Agent } from './Agent';
import type { Mind } from './mind';
import { TextVectors } from './textVectors';

/** Places offered per action. */
export const PLACES_OFFERED = 3;
/**
 * Added to a place's similarity in the agent's home sector (the reference tells the model where
 * the agent lives, and home tasks belong there) and in its current area (the reference prefers
 * staying when the task can be done where the agent is). Tie-breakers only: all-MiniLM's
 * similarities of a task to the right and the wrong place differ by a few hundredths. At 0.1
 * and 0.05, "read a novel in the library (read a book)" ranked Tobias's own bookshelf (0.39 +
 * 0.15) over the library's reading table (0.53).
 */
const HOME_BONUS = 0.05;
const HERE_BONUS = 0.02;

/** Place-name vectors: the names repeat every step. A town has hundreds, not thousands. */
const placeVectors = new TextVectors(4096);

function dot(a: Float32Array, b: Float32Array): number {
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += a[i] * b[i];
  return sum;
}

/**
 * The text a place is ranked against: the task within its schedule block, written as reverie
 * writes a decomposed task, "block (task)", when it asks for the task's sector. A task alone
 * often names no place: ranked on the task alone, SmolLM2's "read the notes from the morning
 * shift" was done at Tobias's own bookshelf, and in one run in four he stayed in his room all
 * morning; ranked within its block "go to the library at The Copper Kettle", it was done at the
 * cafe's corner table.
 */
function placeQuery(task: string, block?: string): string {
  return block && block !== task ? `${block} (${task})` : task;
}

/**
 * `locations` without other people's homes, as the reference's arena prompt asks ("Never go
 * into other people's rooms unless necessary"): a home sector of residents other than `agent`
 * stays only when `query` names it or one of them. Every place stays when none would be left.
 * Without it, SmolLM2's Delphine made tea at Agnes's tea table in Whitlow Cottage, and Tobias's
 * "get ready for bed" ranked Agnes's bed first: the closest names to their tasks.
 */
function outsideOthersHomes(
  agent: Agent,
  mind: Mind,
  query: string,
  locations: readonly string[],
): readonly string[] {
  if (!mind.homes) return locations;
  const text = query.toLowerCase();
  const words = new Set(text.split(/[^\p{L}\p{N}']+/u));
  // A resident is named by their full name, or by a first or last name as a whole word.
  const names = (resident: string) =>
    text.includes(resident.toLowerCase()) ||
    resident.split(' ').some((part) => part.length > 1 && words.has(part.toLowerCase()));
  const closed = new Set<string>();
  for (const [sector, residents] of mind.homes) {
    if (residents.includes(agent.name) || text.includes(sector.toLowerCase())) continue;
    if (!residents.some(names)) closed.add(sector);
  }
  const open = locations.filter((l) => !closed.has(l.split(LOCATION_SEPARATOR)[0]));
  return open.length > 0 ? open : locations;
}

/**
 * The {@link PLACES_OFFERED} places of `locations` ("sector > arena[ > object]") most relevant
 * to `task` done within the schedule block `block`, best first; ties keep the order of
 * `locations`. With the place-shortlist guard off: all of them, in their order.
 */
export async function placesFor(
  agent: Agent,
  mind: Mind,
  task: string,
  locations: readonly string[],
  block?: string,
): Promise<string[]> {
  const query = placeQuery(task, block);
  locations = outsideOthersHomes(agent, mind, query, locations);
  // The place-shortlist guard (common/runs/guards.ts); off, every known place is offered.
  if (!conditionsOf(mind).guards.placeShortlist) return [...locations];
  if (locations.length <= PLACES_OFFERED) return [...locations];
  const [taskVector] = await mind.embedder.embed([query]);
  const vectors = await placeVectors.of(mind.embedder, locations);
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
