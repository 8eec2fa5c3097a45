import { ALERT_TYPES, MATRIX, TARGET_TYPES, filterValueKind, type AlertType } from './matrix';
import { formatValue, type AlertProblem } from './problems';

/** A whole number written in decimal, no sign, no fraction. */
const WHOLE_NUMBER = /^[0-9]+$/;

/**
 * The largest `expires in (days)` value: ten years. The interface gives no bound; a
 * certificate that outlives this by far is not what such an alert is for, and a bound keeps a
 * typo (or a number beyond what JavaScript holds exactly) from being sent, rounded, as a
 * different number.
 */
export const MAX_EXPIRY_DAYS = 3650;

/** Control characters (C0, DEL, C1) and line / paragraph separators: never part of a name. */
const CONTROL = /[\p{Cc}\u2028\u2029]/u;
/**
 * A character that shows something: not a blank, a format character (U+200B, U+FEFF …) or a
 * default-ignorable. A name without one is invisible (tested, not stripped: no new string).
 */
const VISIBLE = /[^\s\p{Cf}\p{Default_Ignorable_Code_Point}]/u;

/** `U+000A` for a character, as a user can search for it. */
const codePoint = (c: string) => `U+${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;

/** Why a name (a string, not blank) cannot name an alert; null when it can. */
function alertNameProblem(name: string): string | null {
  const control = CONTROL.exec(name);
  if (control) {
    return `name ${formatValue(name)} contains the control character ${codePoint(control[0])} at position ${control.index + 1}; names are one line of printable text`;
  }
  if (!VISIBLE.test(name)) {
    return `name ${formatValue(name)} has no visible character (only blanks or invisible characters such as U+200B); give the alert a readable name`;
  }
  return null;
}

function isBlank(value: unknown): boolean {
  return value === undefined || value === null || (typeof value === 'string' && value.trim() === '');
}

function list(values: readonly string[]): string {
  return values.join(', ');
}

/** The name: present, a string, one line of visible text. */
function nameProblem(name: unknown): AlertProblem | null {
  if (isBlank(name)) {
    return { field: 'name', value: name, kind: 'missing', message: 'name is missing; give the alert a non-empty name' };
  }
  if (typeof name !== 'string') {
    return {
      field: 'name',
      value: name,
      kind: 'invalid',
      message: `name ${formatValue(name)} is not valid; give a string`,
    };
  }
  const problem = alertNameProblem(name);
  return problem ? { field: 'name', value: name, kind: 'invalid', message: problem } : null;
}

/**
 * A field that takes one of a fixed set of values (the alert types, a type's subtypes or
 * filters, the target types): present, and one of `allowed` exactly as written. `type` is the
 * alert type the set depends on, named in the message; absent for a set that is the same for
 * every type.
 */
function choiceProblem(
  field: 'type' | 'subtype' | 'filter' | 'target_type',
  value: unknown,
  allowed: readonly string[],
  type?: AlertType,
): AlertProblem | null {
  const forType = type === undefined ? '' : ` for type "${type}"`;
  if (isBlank(value)) {
    return {
      field,
      value,
      kind: 'missing',
      allowed,
      message: `${field} is missing${forType}; allowed: ${list(allowed)}`,
    };
  }
  if (typeof value !== 'string' || !allowed.includes(value)) {
    return {
      field,
      value,
      kind: 'invalid',
      allowed,
      message: `${field} ${formatValue(value)} is not valid${forType}; allowed: ${list(allowed)}`,
    };
  }
  return null;
}

/** The subtype: one of the type's subtypes, or empty for a type that takes none. */
function subtypeProblem(t: AlertType, subtype: unknown): AlertProblem | null {
  const { subtypes } = MATRIX[t];
  if (subtypes.length > 0) return choiceProblem('subtype', subtype, subtypes, t);
  if (isBlank(subtype)) return null;
  return {
    field: 'subtype',
    value: subtype,
    kind: 'invalid',
    allowed: [],
    message: `subtype ${formatValue(subtype)} is not valid for type "${t}"; it takes no subtype (leave it empty)`,
  };
}

/** A filter value counted in days: a whole number from 1 to MAX_EXPIRY_DAYS. */
function daysValueProblem(f: string, filterValue: unknown): AlertProblem | null {
  const text = typeof filterValue === 'number' ? String(filterValue) : filterValue;
  if (isBlank(text)) {
    return {
      field: 'filter_value',
      value: filterValue,
      kind: 'missing',
      message: `filter_value is missing for filter "${f}"; give a positive whole number of days`,
    };
  }
  if (typeof text !== 'string' || !WHOLE_NUMBER.test(text) || Number(text) < 1) {
    return {
      field: 'filter_value',
      value: filterValue,
      kind: 'invalid',
      message: `filter_value ${formatValue(filterValue)} is not valid for filter "${f}"; give a positive whole number of days`,
    };
  }
  if (Number(text) > MAX_EXPIRY_DAYS) {
    // Compared as a number only to say "too large": the digits given are what is shown.
    return {
      field: 'filter_value',
      value: filterValue,
      kind: 'invalid',
      message: `filter_value ${formatValue(filterValue)} is too large for filter "${f}"; give a whole number of days from 1 to ${MAX_EXPIRY_DAYS} (ten years)`,
    };
  }
  return null;
}

/** A filter value compared as text: a string, present. */
function textValueProblem(f: string, filterValue: unknown): AlertProblem | null {
  if (isBlank(filterValue)) {
    return {
      field: 'filter_value',
      value: filterValue,
      kind: 'missing',
      message: `filter_value is missing for filter "${f}"; give the value to compare`,
    };
  }
  if (typeof filterValue !== 'string') {
    return {
      field: 'filter_value',
      value: filterValue,
      kind: 'invalid',
      message: `filter_value ${formatValue(filterValue)} is not valid for filter "${f}"; give a string`,
    };
  }
  return null;
}

/** The filter value, as the (known) filter wants it: none, days or text. */
function filterValueProblem(f: string, filterValue: unknown): AlertProblem | null {
  switch (filterValueKind(f)) {
    case 'none':
      if (isBlank(filterValue)) return null;
      return {
        field: 'filter_value',
        value: filterValue,
        kind: 'invalid',
        message: `filter_value ${formatValue(filterValue)} is not valid for filter "${f}"; it takes no value (leave it empty)`,
      };
    case 'days':
      return daysValueProblem(f, filterValue);
    case 'text':
      return textValueProblem(f, filterValue);
  }
}

/** The target id: a positive whole number. */
function targetIdProblem(targetId: unknown): AlertProblem | null {
  if (isBlank(targetId)) {
    return {
      field: 'target_id',
      value: targetId,
      kind: 'missing',
      message: 'target_id is missing; give the id of the target domain or subdomain',
    };
  }
  if (typeof targetId !== 'number' || !Number.isSafeInteger(targetId) || targetId < 1) {
    return {
      field: 'target_id',
      value: targetId,
      kind: 'invalid',
      message: `target_id ${formatValue(targetId)} is not valid; give the positive whole-number id of the domain or subdomain`,
    };
  }
  return null;
}

/**
 * Checks an alert body against the interface (2.4, 4.6) exactly as given: no case folding,
 * no trimming. Returns every problem found, so a user sees them all at once; an empty list
 * means the body is valid. Callers that accept user input canonicalize first
 * (`canonicalizeAlert`); the emulator validates request bodies as they arrive.
 *
 * Fields are checked in the order of the body; subtype and filter are checked only once the
 * type is known (they depend on it), the filter value only once the filter is known.
 */
export function validateAlert(input: Readonly<Record<string, unknown>>): AlertProblem[] {
  const problems: AlertProblem[] = [];
  const add = (p: AlertProblem | null) => {
    if (p) problems.push(p);
  };

  add(nameProblem(input.name));
  const { type, filter } = input;
  const typeFault = choiceProblem('type', type, ALERT_TYPES);
  add(typeFault);
  if (!typeFault) {
    const t = type as AlertType;
    add(subtypeProblem(t, input.subtype));
    const filterFault = choiceProblem('filter', filter, MATRIX[t].filters, t);
    add(filterFault);
    if (!filterFault) add(filterValueProblem(filter as string, input.filter_value));
  }
  add(choiceProblem('target_type', input.target_type, TARGET_TYPES));
  add(targetIdProblem(input.target_id));
  return problems;
}
