/**
 * A scripted-model harness for cognition tests: the test town's world, its three agents
 * (seeded with their seed memories) and a {@link Mind} factory at any game time.
 */
import { seedClauses } from '../../../common/scenario/seed';
import { Agent } from '../agent/Agent';
import type { Mind } from '../agent/mind';
import { seedMemories } from '../agent/observe';
import { Clock } from '../sim/Clock';
import { TileWorld } from '../world/TileWorld';
import { HashEmbedder, ScriptedModel, type Script } from './ScriptedModel';
import { buildTestScenario } from './testTown';
import { townScript } from './townScript';

/** The harness: agents by id, the model double, and `mind(now)` for game seconds `now`. */
export interface Harness {
  world: TileWorld;
  clock: Clock;
  model: ScriptedModel;
  embedder: HashEmbedder;
  agents: Record<'ada' | 'bo' | 'cy', Agent>;
  mind(now?: number, overrides?: Partial<Mind>): Mind;
}

/** Builds the harness; `script` entries replace the town script's. */
export async function harness(script: Script = {}): Promise<Harness> {
  const scenario = buildTestScenario();
  const world = TileWorld.fromScenario(scenario);
  const clock = new Clock(scenario.settings.startTime, scenario.settings.secondsPerStep);
  const model = new ScriptedModel({ ...townScript(), ...script });
  const embedder = new HashEmbedder();
  const starts = { ada: { x: 1, y: 2 }, bo: { x: 3, y: 2 }, cy: { x: 7, y: 5 } };
  const mind = (now = 0, overrides: Partial<Mind> = {}): Mind => ({
    model,
    embedder,
    clock,
    now,
    world,
    seed: 1,
    reflectionThreshold: scenario.settings.reflectionThreshold,
    ...overrides,
  });
  const agents = Object.fromEntries(
    scenario.personas.map((p) => [
      p.id,
      Agent.fromPersona(
        p,
        world.worldName,
        starts[p.id as keyof typeof starts],
        embedder.dimensions,
      ),
    ]),
  ) as Harness['agents'];
  for (const p of scenario.personas) {
    await seedMemories(agents[p.id as keyof typeof starts], mind(), seedClauses(p.seed));
  }
  model.calls.length = 0;
  return { world, clock, model, embedder, agents, mind };
}
