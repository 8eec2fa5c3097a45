/**
 * A small seeded generator for the drift → code property tests: the same seed makes the same
 * app and the same console changes, so a failure is replayed with NCALC_PROPERTY_SEED.
 */

/** mulberry32: a 32-bit seeded PRNG, enough to pick shapes and changes. */
export class Random {
  private state: number;
  constructor(readonly seed: number) {
    this.state = seed >>> 0;
  }
  next(): number {
    let t = (this.state = (this.state + 0x6d2b79f5) >>> 0);
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  /** An integer in [lo, hi]. */
  int(lo: number, hi: number): number {
    return lo + Math.floor(this.next() * (hi - lo + 1));
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
  pick<T>(items: readonly T[]): T {
    return items[this.int(0, items.length - 1)];
  }
  /** A random subset of `items`, each taken with probability `p`. */
  some<T>(items: readonly T[], p: number): T[] {
    return items.filter(() => this.chance(p));
  }
}

/**
 * The seeds of a run: NCALC_PROPERTY_SEED replays one case; otherwise `count` cases from a
 * base that changes every day (new cases over time, the same all day to replay).
 */
export function propertySeeds(count: number, salt: number): number[] {
  const fixed = process.env.NCALC_PROPERTY_SEED;
  if (fixed) return [Number(fixed)];
  const day = Math.floor(Date.now() / 86_400_000);
  return Array.from({ length: count }, (_, i) => (day * 1000 + salt * 100 + i) >>> 0);
}

/** Runs one case; a failure says its seed and how to replay it. */
export async function withSeed(seed: number, what: string, body: () => Promise<void>): Promise<void> {
  try {
    await body();
  } catch (e) {
    const err = e as Error;
    err.message = `${what}, seed ${seed} (replay: NCALC_PROPERTY_SEED=${seed} npx jest <this file>):\n${err.message}`;
    throw err;
  }
}
