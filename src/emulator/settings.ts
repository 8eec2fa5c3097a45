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
  /**
   * A create of a domain or subdomain answers OK with the object but without its id, as the
   * interface does for alerts: the caller has to list to learn it. Default false.
   */
  targetCreateOmitsId: boolean;
  /**
   * A delete of a domain or subdomain that alerts target deletes those alerts with it (what
   * the real service is assumed to do) instead of answering NOT_DELETED. Default false.
   */
  targetDeleteTakesAlerts: boolean;
}

/** The boolean settings, by name. */
const FLAGS = ['targetCreateOmitsId', 'targetDeleteTakesAlerts'] as const;
type Flag = (typeof FLAGS)[number];

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

export function checkFlag(value: unknown, where: string): boolean {
  if (typeof value === 'boolean') return value;
  throw new SettingsError(`${where} must be true or false (got ${JSON.stringify(value) ?? 'nothing'})`);
}

/** Checks a partial update of the settings; messages name the field. */
export function parseSettingsUpdate(input: unknown): Partial<EmulatorSettings> {
  if (!isObject(input)) throw new SettingsError('settings must be a JSON object');
  const body = input as Record<string, unknown>;
  const known: string[] = ['deleteForm', 'randomSeed', ...FLAGS];
  for (const k of Object.keys(body))
    if (!known.includes(k)) throw new SettingsError(`${k} is not a setting (known: ${known.join(', ')})`);
  const out: Partial<EmulatorSettings> = {};
  if ('deleteForm' in body) out.deleteForm = checkDeleteForm(body.deleteForm, 'deleteForm');
  if ('randomSeed' in body) out.randomSeed = checkRandomSeed(body.randomSeed, 'randomSeed');
  for (const flag of FLAGS as readonly Flag[]) if (flag in body) out[flag] = checkFlag(body[flag], flag);
  return out;
}
