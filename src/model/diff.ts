import type { AlertSpec, CanonicalAlert } from './alert';
import { SPEC_FIELDS, type SpecField } from './fields';

export interface FieldChange {
  field: SpecField;
  before: unknown;
  after: unknown;
}

/**
 * Field-level differences between a desired and a live alert. Both are canonical already
 * (`parseAlert`, `readLiveAlert`), so values compare as they are. Read-only server fields are
 * not looked at, so they can never produce a change.
 */
export function diffAlert(desired: CanonicalAlert, live: CanonicalAlert): FieldChange[] {
  const changes: FieldChange[] = [];
  for (const field of SPEC_FIELDS) {
    if (desired[field] !== live[field]) changes.push({ field, before: live[field], after: desired[field] });
  }
  return changes;
}

/**
 * The body of a create or PATCH request. PATCH sends the whole desired body, not only the
 * changed fields: the interface does not say which fields an edit may omit, and a full body
 * is correct either way. `subtype` is always present, `null` for types that take none, so
 * that an edit from a DNS Record to another type clears the old subtype on a server that
 * merges the fields it is sent. It sends the alert as given: the reconciler and the provider
 * only write the `CanonicalAlert` of `parseAlert` (their APIs' types say so), while the public
 * client also sends what a caller built by hand (an invalid body, to see the service's answer).
 */
export function requestBody(alert: AlertSpec): Record<string, unknown> {
  return {
    name: alert.name,
    type: alert.type,
    subtype: alert.subtype,
    filter: alert.filter,
    filter_value: alert.filter_value,
    target_type: alert.target_type,
    target_id: alert.target_id,
  };
}
