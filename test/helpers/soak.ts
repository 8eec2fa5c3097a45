/**
 * How deep the long e2e matrices go. `npm test` samples them, so that the suite fits a small
 * machine: every case runs, and the latencies are spread over the cases. The soak run
 * (`npm run test:soak`, a CI step of its own) runs the whole matrix: every case at every
 * latency, 20 rounds of each race, and the 1,000-alert and 500-alert runs.
 *
 *   NCALC_TEST_SOAK=1      the whole matrix
 *   NCALC_TEST_ROUNDS=n    race rounds per case (default: 2, or 20 with NCALC_TEST_SOAK=1)
 */
export const SOAK = flagFromEnv('NCALC_TEST_SOAK');

export const ROUNDS = wholeFromEnv('NCALC_TEST_ROUNDS', SOAK ? 20 : 2);

/** Whether case `index` of a matrix runs at the latency at `latencyIndex` of `latencies` of them. */
export function sampled(index: number, latencyIndex: number, latencies: number): boolean {
  return SOAK || index % latencies === latencyIndex;
}

function flagFromEnv(name: string): boolean {
  const text = process.env[name];
  if (text === undefined || text === '' || text === '0') return false;
  if (text === '1') return true;
  throw new Error(`${name}=${text}: expected 1 (the whole matrix) or 0`);
}

function wholeFromEnv(name: string, fallback: number): number {
  const text = process.env[name];
  if (text === undefined || text === '') return fallback;
  const n = Number(text);
  if (!Number.isInteger(n) || n < 1 || n > 1000)
    throw new Error(`${name}=${text}: expected a whole number from 1 to 1000`);
  return n;
}
