import type { AlertSpec } from './alert';
import { SPEC_FIELDS, type SpecField } from './fields';
import { canonicalizeAlert } from './canonical';

export interface FieldChange {
  field: SpecField;
  before: unknown;
  after: unknown;
}

/**
 * Field-level differences between a desired and a live alert, compared in canonical form.
 * Read-only server fields are not looked at, so they can never produce a change.
 */
export function diffAlert(desired: AlertSpec, live: AlertSpec): FieldChange[] {
  const a = canonicalizeAlert(desired as unknown as Record<string, unknown>);
  const b = canonicalizeAlert(live as unknown as Record<string, unknown>);
  const changes: FieldChange[] = [];
  for (const field of SPEC_FIELDS) {
    if (a[field] !== b[field]) changes.push({ field, before: b[field], after: a[field] });
  }
  return changes;
}

/**
 * The body of a create or PATCH request. PATCH sends the whole desired body, not only the
 * changed fields: the interface does not say which fields an edit may omit, and a full body
 * is correct either way. `subtype` is always present, `null` for types that take none, so
 * that an edit from a DNS Record to another type clears the old subtype on a server that
 * merges the fields it is sent.
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
