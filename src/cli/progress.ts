import type { CliIO } from './io';

/** The counter is redrawn at most this often: a terminal spends more on redraws than on the work. */
export const PROGRESS_INTERVAL_MS = 100;

/**
 * A one-line counter on stderr, redrawn in place on a terminal (nothing otherwise), at most
 * once per PROGRESS_INTERVAL_MS. Result lines go to stdout above it.
 */
export class Progress {
  private done = 0;
  private shown = false;
  private lastDraw = Number.NEGATIVE_INFINITY;
  private timer: NodeJS.Timeout | undefined;
  /** Redraws so far (tests). */
  draws = 0;

  constructor(
    private readonly io: Pick<CliIO, 'stdout' | 'stderr'>,
    private readonly total: number,
    private readonly enabled: boolean,
    private readonly now: () => number = Date.now,
  ) {}

  /** A result line, above the counter. */
  line(text: string): void {
    this.erase();
    this.io.stdout.write(text + '\n');
    this.schedule();
  }

  tick(): void {
    this.done++;
    this.schedule();
  }

  /** Removes the counter for good; call when the work is over. */
  clear(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.erase();
  }

  private schedule(): void {
    if (!this.enabled || this.timer) return;
    const wait = this.lastDraw + PROGRESS_INTERVAL_MS - this.now();
    if (wait <= 0) this.draw();
    else {
      this.timer = setTimeout(() => {
        this.timer = undefined;
        this.draw();
      }, wait);
      this.timer.unref();
    }
  }

  private draw(): void {
    if (this.done >= this.total) return this.erase();
    this.io.stderr.write(`\r\u001b[K  … ${this.done}/${this.total} done`);
    this.shown = true;
    this.draws++;
    this.lastDraw = this.now();
  }

  private erase(): void {
    if (!this.shown) return;
    this.io.stderr.write('\r\u001b[K');
    this.shown = false;
  }
}
