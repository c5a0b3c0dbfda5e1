/**
 * Object states that follow the people using them. As in reverie (`reverie.py`: "once the
 * persona gets there, we activate the object action"), an object takes the state its user chose
 * while the user stands on it with nowhere left to walk; the first such user in agent order wins,
 * and the object returns to its default when nobody uses it.
 *
 * Holding only where one stands keeps every change to an object next to it, so only agents near
 * the object can see or cause it — what lets the out-of-order scheduler (scheduler.ts) run far
 * apart agents at different steps and still produce the lock-step result.
 */
import type { Agent } from '../agent/Agent';
import type { TileWorld } from '../world/TileWorld';
import type { StepRecord } from './types';

/** The object `agent` holds now and the state it gives it, or null. */
export function holdOf(agent: Agent, world: TileWorld): { address: string; state: string } | null {
  const a = agent.action;
  if (!a?.objectAddress || !a.objectState || agent.path.length > 0) return null;
  if (!world.tilesOf(a.objectAddress).includes(world.indexOf(agent.tile))) return null;
  return { address: a.objectAddress, state: a.objectState };
}

/** The objects in a non-default state because someone holds them, and their states. */
export class HeldObjects {
  /**
   * Changes made by steps later than the last written one, with what they replaced, so the
   * object states after an earlier step can be told while some agents have gone on.
   */
  private history: { step: number; address: string; world?: string; held?: string }[] = [];

  constructor(
    private readonly world: TileWorld,
    private readonly held: Map<string, string>,
  ) {}

  /** True while someone holds the object at `address` (the world shows their state). */
  isHeld(address: string): boolean {
    return this.held.has(address);
  }

  /** For snapshots: address → state. */
  toJSON(): Record<string, string> {
    return Object.fromEntries(this.held);
  }

  /** World object states and held objects as they were before step `step` (for checkpoints). */
  before(step: number): { objectStates: Record<string, string>; held: Record<string, string> } {
    const objectStates = { ...this.world.toSnapshot().objectStates };
    const held = Object.fromEntries(this.held);
    for (const change of [...this.history].reverse()) {
      if (change.step < step) continue;
      if (change.world === undefined) delete objectStates[change.address];
      else objectStates[change.address] = change.world;
      if (change.held === undefined) delete held[change.address];
      else held[change.address] = change.held;
    }
    return { objectStates, held };
  }

  /** Forgets the changes of steps before `step` (they are written). */
  settle(step: number): void {
    this.history = this.history.filter((c) => c.step >= step);
  }

  /**
   * Brings the objects that `members` held before their step (`before`, addresses) or hold
   * after it up to date, given every agent's current hold; returns the changes, by address.
   */
  update(
    step: number,
    agents: readonly Agent[],
    members: readonly Agent[],
    before: readonly (string | null)[],
  ): StepRecord['objects'] {
    const touched = new Set<string>();
    for (const address of before) if (address) touched.add(address);
    for (const m of members) {
      const hold = holdOf(m, this.world);
      if (hold) touched.add(hold.address);
    }
    const changes: StepRecord['objects'] = [];
    for (const address of [...touched].sort()) {
      this.history.push({
        step,
        address,
        world: this.world.toSnapshot().objectStates[address],
        held: this.held.get(address),
      });
      let state: string | undefined;
      for (const a of agents) {
        const hold = holdOf(a, this.world);
        if (hold?.address === address) {
          state = hold.state;
          break;
        }
      }
      if (state === undefined) {
        if (this.held.delete(address) && this.world.resetObjectState(address)) {
          changes.push({ address, state: this.world.objectState(address) ?? '' });
        }
      } else if (this.held.get(address) !== state) {
        this.held.set(address, state);
        if (this.world.setObjectState(address, state)) changes.push({ address, state });
      }
    }
    return changes;
  }
}
