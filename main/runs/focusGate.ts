/**
 * One person's model calls first while days are planned (issue 25). When a game day begins every
 * person asks the model for a plan — four or five calls each, one after another. Asked all at
 * once, the calls share the model and everyone's plan is ready at about the same time, minutes
 * in, so nobody moves until then. On a CPU the calls' prompts are most of their cost and do not
 * batch, so answering one person's calls first costs the town little time: that person walks
 * within seconds (the out-of-order scheduler lets them), then the next.
 *
 * So while `focused()` says so (someone has not planned the current day), the gate lets one call
 * through at a time: the waiting call of the person who called first in the run, and after a
 * call ends it keeps the model {@link GRACE_MS} for that person's next call (made once its
 * answer is handled). Otherwise calls pass as they come. Which order calls are answered in never
 * changes a record (Simulation.ts: calls are numbered when they start).
 */

/** How long the model waits for the next call of the person just answered. */
export const GRACE_MS = 400;

interface Waiter {
  agent: string;
  go: () => void;
}

export class FocusGate {
  /** People in the order they first called; earlier first. */
  private readonly rank = new Map<string, number>();
  private busy = false;
  private waiters: Waiter[] = [];
  /** The person the model waits for after answering them, until `until`. */
  private kept: { agent: string; until: number; timer: ReturnType<typeof setTimeout> } | null =
    null;

  constructor(
    private readonly focused: () => boolean,
    private readonly nowMs: () => number = () => performance.now(),
  ) {}

  /**
   * Waits for a call's turn; resolves to whether the call went through the gate (then `leave`
   * must follow when it ends).
   */
  async enter(agentId: string | null): Promise<boolean> {
    const agent = agentId ?? '';
    if (!this.rank.has(agent)) this.rank.set(agent, this.rank.size);
    if (!this.focused() && !this.busy && this.waiters.length === 0) return false;
    if (!this.busy && this.mayGo(agent)) {
      this.take();
      return true;
    }
    await new Promise<void>((go) => this.waiters.push({ agent, go }));
    return true;
  }

  /** A call that went through the gate ended. */
  leave(agentId: string | null): void {
    this.busy = false;
    const agent = agentId ?? '';
    if (this.focused() && !this.waiters.some((w) => w.agent === agent)) {
      const timer = setTimeout(() => {
        this.kept = null;
        this.next();
      }, GRACE_MS);
      this.kept = { agent, until: this.nowMs() + GRACE_MS, timer };
    }
    this.next();
  }

  private mayGo(agent: string): boolean {
    return !this.kept || this.kept.agent === agent || this.nowMs() >= this.kept.until;
  }

  private take(): void {
    this.busy = true;
    if (this.kept) clearTimeout(this.kept.timer);
    this.kept = null;
  }

  /** Lets the next call through: all of them once nobody is left to plan. */
  private next(): void {
    if (this.busy || this.waiters.length === 0) return;
    if (!this.focused()) {
      const all = this.waiters;
      this.waiters = [];
      if (this.kept) clearTimeout(this.kept.timer);
      this.kept = null;
      for (const w of all) w.go();
      return;
    }
    const rankOf = (w: Waiter) => this.rank.get(w.agent) ?? Infinity;
    const kept = this.kept && this.waiters.find((w) => w.agent === this.kept!.agent);
    if (this.kept && !kept && this.nowMs() < this.kept.until) return; // its timer calls again
    const chosen = kept || this.waiters.reduce((a, b) => (rankOf(b) < rankOf(a) ? b : a));
    this.waiters = this.waiters.filter((w) => w !== chosen);
    this.take();
    chosen.go();
  }
}
