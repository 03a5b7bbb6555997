/** At most `size` tasks run at once; the rest wait their turn in order. */
export class Semaphore {
  private running = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(readonly size: number) {}

  /** Tasks running now (tests and benchmarks check the bound holds). */
  get active(): number {
    return this.running;
  }

  /** Waits for a slot and answers the function that gives it back (call it exactly once). */
  async acquire(): Promise<() => void> {
    if (this.running >= this.size) await new Promise<void>((resolve) => this.waiting.push(resolve));
    this.running += 1;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.running -= 1;
      this.waiting.shift()?.();
    };
  }

  async run<T>(task: () => Promise<T>): Promise<T> {
    const release = await this.acquire();
    try {
      return await task();
    } finally {
      release();
    }
  }
}
