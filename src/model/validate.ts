import { ALERT_TYPES, MATRIX, TARGET_TYPES, filterValueKind, isAlertType } from './matrix';
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

/**
 * Checks an alert body against the interface (2.4, 4.6) exactly as given: no case folding,
 * no trimming. Returns every problem found, so a user sees them all at once; an empty list
 * means the body is valid. Callers that accept user input canonicalize first
 * (`canonicalizeAlert`); the emulator validates request bodies as they arrive.
 */
export function validateAlert(input: Readonly<Record<string, unknown>>): AlertProblem[] {
  const problems: AlertProblem[] = [];
  const add = (p: AlertProblem) => problems.push(p);

  const {
    name,
    type,
    subtype,
    filter,
    filter_value: filterValue,
    target_type: targetType,
    target_id: targetId,
  } = input;

  if (isBlank(name)) {
    add({ field: 'name', value: name, kind: 'missing', message: 'name is missing; give the alert a non-empty name' });
  } else if (typeof name !== 'string') {
    add({
      field: 'name',
      value: name,
      kind: 'invalid',
      message: `name ${formatValue(name)} is not valid; give a string`,
    });
  } else {
    const problem = alertNameProblem(name);
    if (problem) add({ field: 'name', value: name, kind: 'invalid', message: problem });
  }

  let typeKnown = false;
  if (isBlank(type)) {
    add({
      field: 'type',
      value: type,
      kind: 'missing',
      allowed: ALERT_TYPES,
      message: `type is missing; allowed: ${list(ALERT_TYPES)}`,
    });
  } else if (!isAlertType(type)) {
    add({
      field: 'type',
      value: type,
      kind: 'invalid',
      allowed: ALERT_TYPES,
      message: `type ${formatValue(type)} is not valid; allowed: ${list(ALERT_TYPES)}`,
    });
  } else {
    typeKnown = true;
  }

  if (typeKnown) {
    const t = type as keyof typeof MATRIX;
    const rule = MATRIX[t];
    if (rule.subtypes.length > 0) {
      if (isBlank(subtype)) {
        add({
          field: 'subtype',
          value: subtype,
          kind: 'missing',
          allowed: rule.subtypes,
          message: `subtype is missing for type "${t}"; allowed: ${list(rule.subtypes)}`,
        });
      } else if (typeof subtype !== 'string' || !rule.subtypes.includes(subtype)) {
        add({
          field: 'subtype',
          value: subtype,
          kind: 'invalid',
          allowed: rule.subtypes,
          message: `subtype ${formatValue(subtype)} is not valid for type "${t}"; allowed: ${list(rule.subtypes)}`,
        });
      }
    } else if (!isBlank(subtype)) {
      add({
        field: 'subtype',
        value: subtype,
        kind: 'invalid',
        allowed: [],
        message: `subtype ${formatValue(subtype)} is not valid for type "${t}"; it takes no subtype (leave it empty)`,
      });
    }

    let filterKnown = false;
    if (isBlank(filter)) {
      add({
        field: 'filter',
        value: filter,
        kind: 'missing',
        allowed: rule.filters,
        message: `filter is missing for type "${t}"; allowed: ${list(rule.filters)}`,
      });
    } else if (typeof filter !== 'string' || !rule.filters.includes(filter)) {
      add({
        field: 'filter',
        value: filter,
        kind: 'invalid',
        allowed: rule.filters,
        message: `filter ${formatValue(filter)} is not valid for type "${t}"; allowed: ${list(rule.filters)}`,
      });
    } else {
      filterKnown = true;
    }

    if (filterKnown) {
      const f = filter as string;
      switch (filterValueKind(f)) {
        case 'none':
          if (!isBlank(filterValue)) {
            add({
              field: 'filter_value',
              value: filterValue,
              kind: 'invalid',
              message: `filter_value ${formatValue(filterValue)} is not valid for filter "${f}"; it takes no value (leave it empty)`,
            });
          }
          break;
        case 'days': {
          const text = typeof filterValue === 'number' ? String(filterValue) : filterValue;
          if (isBlank(text)) {
            add({
              field: 'filter_value',
              value: filterValue,
              kind: 'missing',
              message: `filter_value is missing for filter "${f}"; give a positive whole number of days`,
            });
          } else if (typeof text !== 'string' || !WHOLE_NUMBER.test(text) || Number(text) < 1) {
            add({
              field: 'filter_value',
              value: filterValue,
              kind: 'invalid',
              message: `filter_value ${formatValue(filterValue)} is not valid for filter "${f}"; give a positive whole number of days`,
            });
          } else if (Number(text) > MAX_EXPIRY_DAYS) {
            // Compared as a number only to say "too large": the digits given are what is shown.
            add({
              field: 'filter_value',
              value: filterValue,
              kind: 'invalid',
              message: `filter_value ${formatValue(filterValue)} is too large for filter "${f}"; give a whole number of days from 1 to ${MAX_EXPIRY_DAYS} (ten years)`,
            });
          }
          break;
        }
        case 'text':
          if (isBlank(filterValue)) {
            add({
              field: 'filter_value',
              value: filterValue,
              kind: 'missing',
              message: `filter_value is missing for filter "${f}"; give the value to compare`,
            });
          } else if (typeof filterValue !== 'string') {
            add({
              field: 'filter_value',
              value: filterValue,
              kind: 'invalid',
              message: `filter_value ${formatValue(filterValue)} is not valid for filter "${f}"; give a string`,
            });
          }
          break;
      }
    }
  }

  if (isBlank(targetType)) {
    add({
      field: 'target_type',
      value: targetType,
      kind: 'missing',
      allowed: TARGET_TYPES,
      message: `target_type is missing; allowed: ${list(TARGET_TYPES)}`,
    });
  } else if (typeof targetType !== 'string' || !(TARGET_TYPES as readonly string[]).includes(targetType)) {
    add({
      field: 'target_type',
      value: targetType,
      kind: 'invalid',
      allowed: TARGET_TYPES,
      message: `target_type ${formatValue(targetType)} is not valid; allowed: ${list(TARGET_TYPES)}`,
    });
  }

  if (isBlank(targetId)) {
    add({
      field: 'target_id',
      value: targetId,
      kind: 'missing',
      message: 'target_id is missing; give the id of the target domain or subdomain',
    });
  } else if (typeof targetId !== 'number' || !Number.isSafeInteger(targetId) || targetId < 1) {
    add({
      field: 'target_id',
      value: targetId,
      kind: 'invalid',
      message: `target_id ${formatValue(targetId)} is not valid; give the positive whole-number id of the domain or subdomain`,
    });
  }

  return problems;
}
