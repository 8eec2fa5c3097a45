/**
 * One synth spread over worker processes: `ncalc` runs the app K times at once, each with
 * `NCALC_SYNTH_PART=i/K` in its environment, and the constructs of each run write only their
 * part of the stacks (see constructs/synth-part.ts); `ncalc` merges the parts into the output
 * one run gives (read/synth-workers.ts). Free of cdktf, so that `ncalc` reads it without
 * loading it.
 */
export const SYNTH_PART_ENV = 'NCALC_SYNTH_PART';

/** Part `index` (1-based) of `count`. */
export interface SynthPart {
  readonly index: number;
  readonly count: number;
}

export const synthPartText = (part: SynthPart): string => `${part.index}/${part.count}`;

/** The part of the environment's `NCALC_SYNTH_PART`; null when unset or not a part (the whole app is written). */
export function synthPartOf(env: Readonly<Record<string, string | undefined>>): SynthPart | null {
  const m = /^(\d{1,4})\/(\d{1,4})$/.exec(env[SYNTH_PART_ENV]?.trim() ?? '');
  if (!m) return null;
  const index = Number(m[1]);
  const count = Number(m[2]);
  return count > 1 && index >= 1 && index <= count ? { index, count } : null;
}
