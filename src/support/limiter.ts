/**
 * The one concurrency limit of the project: at most `concurrency` tasks at once, started in the
 * order asked. The limit can be lowered while tasks run (an account the service rate limits
 * drops to one write at a time): tasks in flight finish, no new one starts above it.
 */
export class Limiter {
  #active = 0;
  readonly #waiting: Array<() => void> = [];

  constructor(public concurrency: number) {}

  /** Lowers the limit (never below 1). */
  lower(to: number): void {
    this.concurrency = Math.max(1, Math.min(this.concurrency, to));
  }

  async run<T>(work: () => Promise<T>): Promise<T> {
    if (this.#active < this.concurrency) this.#active++;
    // A slot freed by a finished task is handed over already counted (see #release): counting
    // it free first would let a newcomer take it before the waiter resumes, and more would run.
    else await new Promise<void>((resolve) => this.#waiting.push(resolve));
    try {
      return await work();
    } finally {
      this.#release();
    }
  }

  #release(): void {
    this.#active--;
    while (this.#waiting.length && this.#active < this.concurrency) {
      this.#active++;
      this.#waiting.shift()!();
    }
  }
}

/**
 * `work` for each item, at most `workers` at once, started in the items' order; the results in
 * that order. Only `workers` items are in hand at a time, so a fleet's 100,000 items cost no
 * waiting task (a closure and its promises) each, as mapping them all through a Limiter would.
 */
export async function mapPool<T, R>(
  items: readonly T[],
  workers: number,
  work: (item: T, index: number) => Promise<R>,
): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const i = next++;
      results[i] = await work(items[i]!, i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(items.length, Math.max(1, workers)) }, worker));
  return results;
}
