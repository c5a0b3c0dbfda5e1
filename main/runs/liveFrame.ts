/**
 * The map frame of a live simulation, as the run view draws it (common/api/runs.ts RunFrame):
 * where everyone stands and what they are doing, and the objects not in their default state.
 */
import type { AgentFrame, RunFrame } from '../../common/api/runs';
import type { Simulation } from '../engine/sim/Simulation';

/** The frame after `sim.step` steps. */
export function liveFrame(sim: Simulation, runId: string): RunFrame {
  const now = sim.gameTime;
  const sprites = new Map(sim.scenario.personas.map((p) => [p.id, p.sprite]));
  const agents: AgentFrame[] = sim.agents.map((agent) => {
    const a = agent.action;
    return {
      id: agent.id,
      name: agent.name,
      sprite: sprites.get(agent.id) ?? '',
      x: agent.tile.x,
      y: agent.tile.y,
      emoji: a?.emoji ?? '',
      action: a?.description ?? 'idle',
      address: a?.address ?? '',
      // A wait action also names the other agent; only a chat in progress is "chatting".
      chattingWith: a && a.predicate === 'chat with' && a.endsAt > now ? a.withAgent : null,
      asleep: agent.isAsleep(),
      resident: false,
    };
  });
  const objects = Object.entries(sim.world.toSnapshot().objectStates)
    .map(([address, state]) => ({ address, state }))
    .sort((a, b) => (a.address < b.address ? -1 : a.address > b.address ? 1 : 0));
  return {
    runId,
    step: sim.step,
    gameTime: now,
    clock: sim.clock.label(now),
    agents,
    objects,
  };
}
