/**
 * Certificate lifetimes and renewal: when an "expires in (days)" threshold fires before an
 * ACME client renews, and the largest threshold that fires only when renewal has failed.
 *
 * ACME clients renew when about a third of a certificate's lifetime is left (certbot: 30 of
 * 90 days; the ACME Renewal Information default is the same share). A threshold at or above
 * that point fires every cycle before the renewal runs.
 */

export const DAY_MS = 86_400_000;

/** The share of the lifetime left when a certificate is renewed. */
export const RENEWAL_SHARE_LEFT = 1 / 3;

/**
 * The longest lifetime of a publicly trusted TLS certificate issued from a date on (CA/Browser
 * Forum Baseline Requirements, ballot SC-081v3). Before the first date: 398 days.
 */
export const MAX_LIFETIME_SCHEDULE: ReadonlyArray<{ readonly from: string; readonly days: number }> = [
  { from: '2026-03-15', days: 200 },
  { from: '2027-03-15', days: 100 },
  { from: '2029-03-15', days: 47 },
];
export const MAX_LIFETIME_BEFORE_SC081 = 398;

/** The longest lifetime a certificate issued at `at` may have. */
export function maxLifetimeDays(at: Date): number {
  let days = MAX_LIFETIME_BEFORE_SC081;
  for (const step of MAX_LIFETIME_SCHEDULE) if (at.getTime() >= Date.parse(`${step.from}T00:00:00Z`)) days = step.days;
  return days;
}

/** notAfter − notBefore, in days (fractional). */
export function lifetimeDays(notBefore: Date, notAfter: Date): number {
  return (notAfter.getTime() - notBefore.getTime()) / DAY_MS;
}

/** Days left when the certificate is renewed. */
export function renewalDaysLeft(lifetime: number): number {
  return lifetime * RENEWAL_SHARE_LEFT;
}

/**
 * The largest whole threshold that does not fire before the renewal point (an alert fires
 * once at most that many days are left); at least 1.
 */
export function largestQuietThreshold(lifetime: number): number {
  return Math.max(1, Math.ceil(renewalDaysLeft(lifetime)) - 1);
}

/** True when a threshold fires before the renewal at a third of the lifetime left. */
export function firesBeforeRenewal(thresholdDays: number, lifetime: number): boolean {
  return thresholdDays >= renewalDaysLeft(lifetime);
}

/** `2026-12-07` */
export const isoDate = (d: Date) => d.toISOString().slice(0, 10);
