// Imports nothing of the emulator on purpose: `ncalc` reads DELETE_FORMS while registering its
// commands, without loading the emulator (fastify) itself.
import { isObject } from '../support/json';

/**
 * Where a DELETE of an alert carries its id: `/api/alerts/{id}`, `/api/alerts/?alert_id={id}`,
 * or a JSON body `{"alert_id": id}`. In this order when every form is accepted.
 */
export const DELETE_FORMS = ['path', 'query', 'body'] as const;
export type DeleteForm = (typeof DELETE_FORMS)[number];

/** Settings that can change while the emulator runs (POST /_emulator/settings). */
export interface EmulatorSettings {
  /**
   * The one form a DELETE of an alert may use, as the real service reads `alert_id` from one
   * undocumented place; a DELETE in another form answers 400 MISSING_VALUES. null: every form.
   */
  deleteForm: DeleteForm | null;
  /** Seed of the generator behind fault rates; setting it restarts the sequence. null: Math.random. */
  randomSeed: number | null;
}

export class SettingsError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SettingsError';
  }
}

export function isDeleteForm(value: unknown): value is DeleteForm {
  return typeof value === 'string' && (DELETE_FORMS as readonly string[]).includes(value);
}

/** Checks a deleteForm value; `where` names it in the message (an option, a flag, a field). */
export function checkDeleteForm(value: unknown, where: string): DeleteForm | null {
  if (value === null || isDeleteForm(value)) return value;
  throw new SettingsError(
    `${where} must be one of ${DELETE_FORMS.join(', ')}, or null for every form (got ${JSON.stringify(value) ?? 'nothing'})`,
  );
}

export function checkRandomSeed(value: unknown, where: string): number | null {
  if (value === null || (typeof value === 'number' && Number.isSafeInteger(value))) return value;
  throw new SettingsError(
    `${where} must be a whole number, or null for an unseeded generator (got ${JSON.stringify(value) ?? 'nothing'})`,
  );
}

/** Checks a partial update of the settings; messages name the field. */
export function parseSettingsUpdate(input: unknown): Partial<EmulatorSettings> {
  if (!isObject(input)) throw new SettingsError('settings must be a JSON object');
  const body = input as Record<string, unknown>;
  const known = ['deleteForm', 'randomSeed'];
  for (const k of Object.keys(body))
    if (!known.includes(k)) throw new SettingsError(`${k} is not a setting (known: ${known.join(', ')})`);
  const out: Partial<EmulatorSettings> = {};
  if ('deleteForm' in body) out.deleteForm = checkDeleteForm(body.deleteForm, 'deleteForm');
  if ('randomSeed' in body) out.randomSeed = checkRandomSeed(body.randomSeed, 'randomSeed');
  return out;
}
