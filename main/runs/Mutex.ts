/**
 * A FIFO async mutex: everything that touches the live Simulation (a step, an intervention, an
 * interview, a snapshot) runs alone, in arrival order, so an intervention asked for while a step
 * runs waits for that step to finish and is applied before the next one starts. Ten lines of
 * promise chaining; not worth a dependency.
 */
export class Mutex {
  private tail: Promise<unknown> = Promise.resolve();
  private pending = 0;

  /** Nothing is running or waiting. */
  get idle(): boolean {
    return this.pending === 0;
  }

  /** Runs `fn` after every earlier holder has finished; resolves or rejects with its result. */
  run<T>(fn: () => Promise<T> | T): Promise<T> {
    this.pending++;
    const result = this.tail.then(fn).finally(() => {
      this.pending--;
    });
    // The chain continues whether `fn` failed or not; the caller sees the failure.
    this.tail = result.catch(() => undefined);
    return result;
  }
}
