import { Limiter, mapPool } from '../support/limiter';
import type { AccountPlan } from '../plan/account-plan';

/**
 * How many writes one account may have in flight by default: all of `parallelism` when the
 * run has one account, half of it (at least 1) with more, so that an account whose requests
 * wait (a 429 and its Retry-After, a slow answer) leaves at least half of the budget to the
 * others.
 */
export function defaultAccountParallelism(parallelism: number, accounts: number): number {
  return accounts <= 1 ? parallelism : Math.max(1, Math.ceil(parallelism / 2));
}

/** The accounts apply will write to: planned, with changes. */
export function writingAccounts(plans: readonly AccountPlan[]): number {
  return plans.filter((p) => p.status === 'ok' && (p.changes.length > 0 || (p.targetChanges?.length ?? 0) > 0)).length;
}

/**
 * One account's writes: its own slot first, then the run's, so that a slow or throttled account
 * holds at most its own share of the run's slots. An account the service rate limits drops to
 * one write at a time, and only that account.
 */
export class AccountLimit {
  readonly #own: Limiter;

  constructor(
    private readonly account: AccountPlan['account'],
    perAccount: number,
    private readonly runLimit: Limiter,
  ) {
    this.#own = new Limiter(perAccount);
  }

  run<T>(work: () => Promise<T>): Promise<T> {
    return this.#own.run(() => this.runLimit.run(work));
  }

  /**
   * `work` for each item through the limit, in order, the results in the items' order. Only as
   * many items as the account has slots are handed over at a time (`mapPool`): a fleet's apply
   * of 100,000 creates held a waiting task for every one of them.
   */
  map<T, R>(items: readonly T[], work: (item: T, index: number) => Promise<R>): Promise<R[]> {
    return mapPool(items, this.#own.concurrency, (item, i) => this.run(() => work(item, i)));
  }

  /**
   * Lowers the account to one write at a time; returns what its failed write says after the
   * client's message.
   */
  rateLimited(): string {
    const was = this.#own.concurrency > 1 ? ` (was ${this.#own.concurrency})` : '';
    this.#own.lower(1);
    return (
      `account ${this.account.label} is rate limited by the service: its remaining writes run one at a time${was}, ` +
      'the other accounts are not slowed; run apply again later, or give this run a lower --account-parallelism'
    );
  }
}
