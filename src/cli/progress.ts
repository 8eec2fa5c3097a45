import type { CliIO } from './io';

/** The counter is redrawn at most this often: a terminal spends more on redraws than on the work. */
export const PROGRESS_INTERVAL_MS = 100;

/**
 * A one-line counter on stderr, redrawn in place on a terminal (nothing otherwise), at most
 * once per PROGRESS_INTERVAL_MS. Result lines go to stdout above it. Given the work of each
 * account, it also counts accounts finished (`[12/50 accounts] 1234/1880 done`), and `tick`
 * says when an account's last piece of work is done.
 */
export class Progress {
  private done = 0;
  private accountsDone = 0;
  private readonly left: Map<object, number>;
  private shown = false;
  private pending: string[] = [];
  private flushing: NodeJS.Immediate | undefined;
  private lastDraw = Number.NEGATIVE_INFINITY;
  private timer: NodeJS.Timeout | undefined;
  /** Redraws so far (tests). */
  draws = 0;

  constructor(
    private readonly io: Pick<CliIO, 'stdout' | 'stderr'>,
    private readonly total: number,
    private readonly enabled: boolean,
    private readonly now: () => number = Date.now,
    accounts: ReadonlyMap<object, number> = new Map(),
    /** What the counter counts: `… 12/50 accounts planned`. */
    private readonly noun = 'done',
  ) {
    this.left = new Map([...accounts].filter(([, n]) => n > 0));
    this.accounts = this.left.size;
  }

  /** Accounts with work to do. */
  readonly accounts: number;

  /**
   * A result line, above the counter. Lines are written together once per turn of the event
   * loop: writes to a file or a pipe are synchronous, and one per line cost a write call for
   * every change while the writes of a run wait for their turn (a slow reader on a pipe held
   * each of them up).
   */
  line(text: string): void {
    this.pending.push(text);
    this.flushing ??= setImmediate(() => this.flush());
  }

  /** Writes the lines not yet written (before anything else that writes to stdout or stderr). */
  flush(): void {
    if (this.flushing) clearImmediate(this.flushing);
    this.flushing = undefined;
    if (this.pending.length === 0) return;
    this.erase();
    this.io.stdout.write(this.pending.join('\n') + '\n');
    this.pending = [];
    this.schedule();
  }

  /**
   * One piece of work done (of `account`, when given). Returns the account's place in the
   * order accounts finished (1-based) when this was its last piece, else 0.
   */
  tick(account?: object): number {
    this.done++;
    let finished = 0;
    const left = account ? this.left.get(account) : undefined;
    if (left !== undefined) {
      if (left > 1) this.left.set(account!, left - 1);
      else {
        this.left.delete(account!);
        finished = ++this.accountsDone;
      }
    }
    this.schedule();
    return finished;
  }

  /** Removes the counter for good; call when the work is over. */
  clear(): void {
    this.flush();
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
    // Lines are on their way: their flush erases the counter and schedules it again.
    if (this.pending.length > 0) return;
    if (this.done >= this.total) return this.erase();
    const accounts = this.accounts > 1 ? `[${this.accountsDone}/${this.accounts} accounts] ` : '';
    this.io.stderr.write(`\r\u001b[K  … ${accounts}${this.done}/${this.total} ${this.noun}`);
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

/**
 * Plan options that count accounts planned on a terminal (`… 12/50 accounts planned`, on
 * stderr, gone when planning ends); `done` removes the counter.
 */
export function planningProgress(
  io: Pick<CliIO, 'stdout' | 'stderr'>,
  accounts: number,
  json: boolean,
): { onPlanned: () => void; done: () => void } {
  const enabled = !json && accounts > 1 && io.stdout.isTTY === true && io.stderr.isTTY === true;
  const progress = new Progress(io, accounts, enabled, Date.now, new Map(), 'accounts planned');
  return { onPlanned: () => void progress.tick(), done: () => progress.clear() };
}
