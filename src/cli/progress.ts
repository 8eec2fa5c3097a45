import type { CliIO } from './io';

/** The counter is redrawn at most this often: a terminal spends more on redraws than on the work. */
export const PROGRESS_INTERVAL_MS = 100;

/** In a log (CI, or stderr not a terminal): one progress line at most this often. */
export const PROGRESS_LOG_INTERVAL_MS = 5000;

/** Rate and time left only once the run has lasted this long: the first ticks say little. */
const RATE_AFTER_MS = 1000;

/** True in CI (CI set, as CI services do, and not to "false" or "0"): no redraws in place there. */
export function inCi(env: NodeJS.ProcessEnv): boolean {
  const ci = env.CI?.trim().toLowerCase();
  return !!ci && ci !== 'false' && ci !== '0';
}

/**
 * How apply shows its progress on stderr: redrawn in place on a terminal (not in CI); in a log,
 * a line every PROGRESS_LOG_INTERVAL_MS when `grouped` (most result lines are left out, see
 * src/render/grouping.ts; otherwise every result line is the progress); none with JSON.
 */
export function progressMode(io: Pick<CliIO, 'stderr' | 'env'>, json: boolean, grouped: boolean): boolean | 'log' {
  if (json) return false;
  if (io.stderr.isTTY === true && !inCi(io.env)) return true;
  return grouped ? 'log' : false;
}

/**
 * A one-line counter on stderr, redrawn in place on a terminal at most once per
 * PROGRESS_INTERVAL_MS (`enabled` true), or written as a line of its own at most once per
 * PROGRESS_LOG_INTERVAL_MS (`enabled` 'log'), with the rate and the time left. Result lines go to stdout above it. Given the work of each
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
  private lastDraw: number;
  private readonly started: number;
  private timer: NodeJS.Timeout | undefined;
  /** Redraws so far (tests). */
  draws = 0;

  constructor(
    private readonly io: Pick<CliIO, 'stdout' | 'stderr'>,
    private readonly total: number,
    private readonly enabled: boolean | 'log',
    private readonly now: () => number = Date.now,
    accounts: ReadonlyMap<object, number> = new Map(),
    /** What the counter counts: `… 12/50 accounts planned`. */
    private readonly noun = 'done',
  ) {
    this.left = new Map([...accounts].filter(([, n]) => n > 0));
    this.accounts = this.left.size;
    this.started = now();
    // In place: the first draw at once. In a log: the first line after an interval.
    this.lastDraw = enabled === 'log' ? this.started : Number.NEGATIVE_INFINITY;
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
    const interval = this.enabled === 'log' ? PROGRESS_LOG_INTERVAL_MS : PROGRESS_INTERVAL_MS;
    const wait = this.lastDraw + interval - this.now();
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
    if (this.enabled === 'log') {
      if (this.done >= this.total) return;
      this.io.stderr.write(`  … ${this.text()}\n`);
    } else {
      // Lines are on their way: their flush erases the counter and schedules it again.
      if (this.pending.length > 0) return;
      if (this.done >= this.total) return this.erase();
      this.io.stderr.write(`\r\u001b[K  … ${this.text()}`);
      this.shown = true;
    }
    this.draws++;
    this.lastDraw = this.now();
  }

  /** `[12/50 accounts] 1234/1880 done, 410/s, about 2 s left`. */
  private text(): string {
    const accounts = this.accounts > 1 ? `[${this.accountsDone}/${this.accounts} accounts] ` : '';
    const elapsed = this.now() - this.started;
    let rate = '';
    if (elapsed >= RATE_AFTER_MS && this.done > 0) {
      const perSecond = (this.done * 1000) / elapsed;
      const left = Math.ceil((this.total - this.done) / perSecond);
      rate = `, ${perSecond >= 10 ? Math.round(perSecond) : perSecond.toFixed(1)}/s, about ${durationText(left)} left`;
    }
    return `${accounts}${this.done}/${this.total} ${this.noun}${rate}`;
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

/** `45 s`, `3 min 20 s`. */
function durationText(seconds: number): string {
  if (seconds < 60) return `${seconds} s`;
  const min = Math.floor(seconds / 60);
  const s = seconds % 60;
  return s ? `${min} min ${s} s` : `${min} min`;
}
