import { createHash } from 'node:crypto';
import type { Refused } from '../model/problems';

/** Shard `index` of `count` (1-based, as `--shard 2/3` writes it). */
export interface Shard {
  readonly index: number;
  readonly count: number;
}

/** `2/3` → a shard; otherwise a message saying what is expected. */
export function parseShard(text: string): Shard | Refused {
  const m = /^\s*(\d{1,6})\s*\/\s*(\d{1,6})\s*$/.exec(text);
  const expected = 'expected <i>/<n> with 1 ≤ i ≤ n, such as 1/3 (the first of three shards)';
  if (!m) return { problem: `--shard ${JSON.stringify(text)} is not a shard; ${expected}` };
  const index = Number(m[1]);
  const count = Number(m[2]);
  if (count < 1 || index < 1 || index > count)
    return {
      problem: `--shard ${text}: ${index < 1 || count < 1 ? 'numbers start at 1' : `there is no shard ${index} of ${count}`}; ${expected}`,
    };
  return { index, count };
}

/**
 * The shard (1-based) an account falls in: a hash of its key (base URL and stack / provider,
 * never a credential) modulo the number of shards. The same account lands in the same shard
 * on every machine and in every run, whatever other accounts the app has, and stays there
 * when its token is rotated; a shard needs only the secrets of its own accounts.
 */
export function shardOfKey(key: string, count: number): number {
  return (createHash('sha256').update(key).digest().readUInt32BE(0) % count) + 1;
}

export function inShard(account: { key: string }, shard: Shard): boolean {
  return shardOfKey(account.key, shard.count) === shard.index;
}
