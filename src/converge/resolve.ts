/**
 * Taking an alert from a list when its id is not known: same name and canonical spec, not
 * claimed by anyone else, the newest when several qualify. Used by creates that must learn
 * their id and by resources whose create never learned it. An alert of that name with other
 * settings is never taken: it may belong to someone else, and whoever took it could later
 * change or delete it.
 */
import { diffAlert, type CanonicalAlert, type LiveAlert } from '../model';
import type { AccountAlerts, Listing } from './account-alerts';

/** Names identify alerts within an account and compare as `ncalc` compares them: case-insensitively. */
export const alertNameKey = (name: string): string => name.trim().toLowerCase();
export const sameAlertName = (a: string, b: string): boolean => alertNameKey(a) === alertNameKey(b);

export function takeMatching(
  listing: Listing,
  alerts: AccountAlerts,
  spec: CanonicalAlert,
  isCandidate: (alert: LiveAlert) => boolean = () => true,
): LiveAlert | undefined {
  let found: LiveAlert | undefined;
  for (const a of listing.alerts) {
    if (a.name !== spec.name || alerts.claimed.has(a.id) || (found && a.id < found.id)) continue;
    if (isCandidate(a) && diffAlert(spec, a).length === 0) found = a;
  }
  if (found) alerts.claimed.add(found.id);
  return found;
}
