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
