import type { AlertSpec, CanonicalAlert, LiveAlert, TargetDetails } from './alert';
import { ALERT_TYPES, MATRIX, TARGET_TYPES, filterValueKind, isAlertType } from './matrix';
import { AlertValidationError, type AlertProblem } from './problems';
import { validateAlert } from './validate';
import { isObject } from '../support/json';

/** What the model reads an alert from: a parsed JSON object, or an alert typed as one. */
export type AlertInput = Readonly<Record<string, unknown>> | Readonly<Partial<AlertSpec>>;

/** Collapse runs of white space and trim. */
function squash(value: string): string {
  return value.replace(/\s+/g, ' ').trim();
}

function matchIgnoringCase(value: string, allowed: readonly string[]): string | undefined {
  if (allowed.includes(value)) return value; // the common case, without new strings
  const folded = squash(value).toLowerCase();
  return allowed.find((a) => a.toLowerCase() === folded);
}

/**
 * The canonical form of an alert body, so that the same intent never shows up as a
 * difference: names and values trimmed; type, subtype, filter and target type matched to
 * their documented spelling regardless of case and spacing; numbers given as numeric strings
 * become numbers (target_id) and day counts become plain decimal strings ("021" → "21");
 * an absent subtype is `null`; an absent value of a filter that takes none is "".
 * Values it cannot recognise are passed through unchanged for `validateAlert` to report.
 */
export function canonicalizeAlert(input: AlertInput): Record<string, unknown> {
  const out: Record<string, unknown> = {};

  out.name = typeof input.name === 'string' ? input.name.trim() : input.name;

  let type = input.type;
  if (typeof type === 'string') type = matchIgnoringCase(type, ALERT_TYPES) ?? type.trim();
  out.type = type;

  let subtype = input.subtype;
  if (subtype === undefined || subtype === null || (typeof subtype === 'string' && subtype.trim() === '')) {
    subtype = null;
  } else if (typeof subtype === 'string') {
    subtype = subtype.trim().toUpperCase();
  }
  out.subtype = subtype;

  let filter = input.filter;
  if (typeof filter === 'string') {
    const allowed = isAlertType(type) ? MATRIX[type].filters : [];
    filter = matchIgnoringCase(filter, allowed) ?? squash(filter).toLowerCase();
  }
  out.filter = filter;

  let value = input.filter_value;
  if (typeof value === 'number' && Number.isFinite(value)) value = String(value);
  if (value === undefined || value === null) value = '';
  if (typeof value === 'string') {
    value = value.trim();
    // Leading zeros dropped as text: going through a number would round long digit strings.
    if (typeof filter === 'string' && filterValueKind(filter) === 'days' && /^[0-9]+$/.test(value as string)) {
      value = (value as string).replace(/^0+(?=[0-9])/, '');
    }
  }
  out.filter_value = value;

  let targetType = input.target_type;
  if (typeof targetType === 'string') targetType = matchIgnoringCase(targetType, TARGET_TYPES) ?? targetType.trim();
  out.target_type = targetType;

  let targetId = input.target_id;
  if (typeof targetId === 'string' && /^\s*[0-9]+\s*$/.test(targetId)) targetId = Number(targetId);
  out.target_id = targetId;

  return out;
}

/** The one place the brand is given: to the output of `canonicalizeAlert`. */
const branded = (canonical: Record<string, unknown>) => canonical as unknown as CanonicalAlert;

/**
 * The canonical form of an alert whose parts are known to be valid (the service's, a policy's
 * check on a listed host), branded without validating it again. User input goes through
 * `parseAlert` instead.
 */
export function canonicalAlert(input: AlertInput): CanonicalAlert {
  return branded(canonicalizeAlert(input));
}

export type ParseResult = { ok: true; alert: CanonicalAlert } | { ok: false; problems: AlertProblem[] };

/** Canonicalize, then validate: the one entry point for alerts written by users. */
export function parseAlert(input: AlertInput): ParseResult {
  const canonical = canonicalizeAlert(input);
  const problems = validateAlert(canonical);
  if (problems.length) return { ok: false, problems };
  return { ok: true, alert: branded(canonical) };
}

/** Like `parseAlert`, but throws an `AlertValidationError` naming `subject`. */
export function toAlertSpec(input: AlertInput, subject?: string): CanonicalAlert {
  const result = parseAlert(input);
  if (!result.ok) throw new AlertValidationError(result.problems, subject);
  return result.alert;
}

function toId(value: unknown): number | null {
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  if (typeof value === 'string' && /^\s*-?[0-9]+\s*$/.test(value)) return Number(value);
  return null;
}

function readTarget(value: unknown): TargetDetails | null {
  if (!isObject(value)) return null;
  const raw = value;
  // Kept as parsed unless the id needs converting: an account can have 200,000 of these.
  if (typeof raw.id === 'number' && Number.isFinite(raw.id)) return raw as TargetDetails;
  const id = toId(raw.id);
  if (id === null) return null;
  return Object.assign({}, raw, { id });
}

/**
 * Reads an alert as the API returns it, tolerantly: ids as numbers or quoted strings,
 * unknown extra fields ignored, `last_triggered_at` null or absent, the target taken from
 * `target_subdomain` / `target_domain` when the body carries no `target_type` / `target_id`.
 * The spec fields come back canonicalized, so a diff against a canonical desired alert
 * compares like with like.
 */
export function readLiveAlert(raw: Readonly<Record<string, unknown>>): LiveAlert {
  const targetDomain = readTarget(raw.target_domain);
  const targetSubdomain = readTarget(raw.target_subdomain);
  // Canonical before it decides which target detail the id comes from ("Subdomain" is a subdomain).
  let targetType: unknown =
    typeof raw.target_type === 'string'
      ? (matchIgnoringCase(raw.target_type, TARGET_TYPES) ?? raw.target_type)
      : raw.target_type;
  let targetId = toId(raw.target_id);
  if (targetType === undefined || targetType === null) {
    targetType = targetSubdomain ? 'subdomain' : targetDomain ? 'domain' : null;
  }
  if (targetId === null) {
    targetId = (targetType === 'subdomain' ? targetSubdomain?.id : targetDomain?.id) ?? null;
  }
  // Only the spec fields, named one by one: spreading the whole response body per alert made
  // reading 200,000 alerts take seconds.
  const id = toId(raw.id);
  if (id === null) throw new TypeError(`alert in API response has no usable id: ${JSON.stringify(raw.id)}`);
  // One rule for an entry the interface does not describe: the whole answer is refused (as
  // for a bad id), never read as a change to write back.
  if (typeof raw.name !== 'string')
    throw new TypeError(
      `alert ${id} in API response has ${raw.name === undefined ? 'no name' : `a name that is not a string (${JSON.stringify(raw.name)})`}`,
    );
  if (targetType === null || targetId === null)
    throw new TypeError(
      `alert ${id} ${JSON.stringify(raw.name)} in API response has no target (neither target_domain nor target_subdomain, nor target_type and target_id)`,
    );
  // The server's fields added to the fresh canonical object, in place: no copy per alert.
  return Object.assign(
    canonicalAlert({
      name: raw.name,
      type: raw.type,
      subtype: raw.subtype,
      filter: raw.filter,
      filter_value: raw.filter_value,
      target_type: targetType,
      target_id: targetId,
    }),
    {
      id,
      user_id: toId(raw.user_id),
      is_active:
        raw.is_active === undefined ? true : raw.is_active === true || raw.is_active === 1 || raw.is_active === 'true',
      current_status: typeof raw.current_status === 'string' ? raw.current_status : null,
      action: typeof raw.action === 'string' ? raw.action : null,
      last_triggered_at: typeof raw.last_triggered_at === 'string' ? raw.last_triggered_at : null,
      target_domain: targetDomain,
      target_subdomain: targetSubdomain,
    },
  );
}

/** The spec part of a live alert: what a request body would carry. */
export function specOf(alert: AlertSpec): AlertSpec {
  const { name, type, subtype, filter, filter_value, target_type, target_id } = alert;
  return { name, type, subtype, filter, filter_value, target_type, target_id };
}
