/**
 * The rules of an account's configuration (the `networkcalc` provider block), defined once
 * for every front door: the Terraform provider at configure, `ncalc` reading cdk.tf.json, the
 * NetworkcalcAccount construct at synth and `ncalc export`. Where the doors used to disagree,
 * Terraform's rules won (docs/architecture.md, "One home for account rules"): a block one door
 * accepts, the others accept too.
 */
import { baseUrlProblem, redactUrl } from './base-url';
import { ENV } from './environment';
import { jsonKind } from '../support/describe';
import type { Problem } from '../model/problems';

export const OWNERSHIP_MODES = ['exclusive', 'prefix', 'additive'] as const;
export type OwnershipMode = (typeof OWNERSHIP_MODES)[number];
/** The ownership of a block that gives none: the account holds exactly the declared alerts. */
export const DEFAULT_OWNERSHIP: OwnershipMode = 'exclusive';

/** `max_retries`: attempts per request, the first included. */
export const MAX_RETRIES = { min: 1, max: 20 } as const;
/** `timeout_seconds`: more than `above` and at most `max`. */
export const TIMEOUT_SECONDS = { above: 0, max: 3600 } as const;
/** What a block that sets neither gets: the client's own defaults, defined here for every door. */
export const DEFAULT_MAX_RETRIES = 5;
export const DEFAULT_TIMEOUT_SECONDS = 30;

/** The attributes that name a credential: a block that gives any of them reads no default. */
export const CREDENTIAL_FIELDS = [
  'token',
  'client_id',
  'client_secret',
  'token_env',
  'client_id_env',
  'client_secret_env',
] as const satisfies readonly ProviderField[];

const ENV_VARIABLE_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
/** Terraform's rule for a provider alias (an identifier; `-` allowed after the first character). */
const ALIAS = /^[A-Za-z_][A-Za-z0-9_-]*$/;

/** True for the name of an environment variable: letters, digits and `_`, not starting with a digit. */
export function isEnvVariableName(name: unknown): name is string {
  return typeof name === 'string' && ENV_VARIABLE_NAME.test(name);
}

/** The attributes of the provider block these rules read, by their Terraform names. */
export type ProviderField =
  | 'alias'
  | 'base_url'
  | 'token'
  | 'client_id'
  | 'client_secret'
  | 'token_env'
  | 'client_id_env'
  | 'client_secret_env'
  | 'ownership'
  | 'ownership_prefix'
  | 'max_retries'
  | 'timeout_seconds';

/** A provider block as the doors use it: defaults applied, every value checked. */
export interface ProviderBlock {
  alias: string | null;
  /** As written (trimmed); normalizeBaseUrl gives the account's one spelling. */
  baseUrl: string | null;
  /** Literal credentials: Terraform reads them; `ncalc` refuses them (secrets in the JSON). */
  token: string | null;
  clientId: string | null;
  clientSecret: string | null;
  /**
   * The variables the block reads its credentials from; null where it names none. A block that
   * names no credential at all (no variable name, no literal) reads the NETWORKCALC_* defaults
   * (`defaultCredentials`); a block that names any reads only what it names, so a variable
   * meant for another account is never read on its behalf.
   */
  tokenEnv: string | null;
  clientIdEnv: string | null;
  clientSecretEnv: string | null;
  /** True when the block names no credential, so the NETWORKCALC_* variables are its own. */
  defaultCredentials: boolean;
  ownership: OwnershipMode;
  /** The ownership prefix; null unless ownership is "prefix". */
  prefix: string | null;
  maxRetries: number | null;
  timeoutSeconds: number | null;
}

/**
 * A problem of a provider block: `field` is the Terraform attribute, the message names it as the
 * door calls it, `value` is undefined when it must not be shown (it may be a secret).
 */
export type BlockProblem = Problem & { field: ProviderField };

export interface ParseOptions {
  /** How the door names an attribute in messages, e.g. `maxRetries` for the construct. Default: the Terraform name. */
  label?: (field: ProviderField) => string;
  /**
   * Values not known yet (a Terraform unknown, a cdktf token): not checked, and kept as given
   * in the config so the door can pass them through or refuse them.
   */
  isUnknown?: (value: unknown) => boolean;
}

/** Reads the attributes of one provider block, collecting their problems in the order read. */
class BlockReader {
  readonly problems: BlockProblem[] = [];
  readonly label: (field: ProviderField) => string;
  readonly unknown: (value: unknown) => boolean;

  constructor(
    readonly raw: Readonly<Record<string, unknown>>,
    options: ParseOptions,
  ) {
    this.label = options.label ?? ((f: ProviderField) => f);
    this.unknown = options.isUnknown ?? (() => false);
  }

  problem(field: ProviderField, message: string, value?: unknown): void {
    this.problems.push({ field, message, ...(value !== undefined ? { value } : {}) });
  }

  /** A set string, trimmed; null when absent or blank; a problem (and null) when not a string. */
  text(field: ProviderField, secret = false): string | null {
    const v = this.raw[field];
    if (v === undefined || v === null) return null;
    if (this.unknown(v)) return v as string;
    if (typeof v !== 'string') {
      this.problem(field, `${this.label(field)} is ${jsonKind(v)}; expected a string`, secret ? undefined : v);
      return null;
    }
    return v.trim() === '' ? null : v;
  }

  /** True when the attribute is given (not absent, null or blank). */
  given(field: ProviderField): boolean {
    const v = this.raw[field];
    return !(v === undefined || v === null || (typeof v === 'string' && v.trim() === ''));
  }

  /**
   * A variable name, null when not given; never echoed, since a secret pasted here must not
   * reach a log. An invalid name reads as not given (the problem stops the run anyway).
   */
  variable(field: ProviderField): string | null {
    const v = this.raw[field];
    if (!this.given(field)) return null;
    if (this.unknown(v)) return v as string;
    if (isEnvVariableName(v)) return v;
    this.problem(
      field,
      `${this.label(field)} is not a valid environment variable name; give the NAME of the variable (letters, digits and _, not starting with a digit), never the secret itself`,
    );
    return null;
  }

  /** A number (Terraform also converts a numeric string) within the rule; null when unset. */
  number(field: ProviderField, ok: (n: number) => boolean, allowed: string): number | null {
    const v = this.raw[field];
    if (v === undefined || v === null || (typeof v === 'string' && v.trim() === '')) return null;
    if (this.unknown(v)) return v as number;
    const n =
      typeof v === 'number'
        ? v
        : typeof v === 'string' && /^\s*[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?\s*$/i.test(v)
          ? Number(v)
          : NaN;
    if (Number.isFinite(n) && ok(n)) return n;
    this.problem(field, `${this.label(field)} ${JSON.stringify(v) ?? String(v)} is not valid; give ${allowed}`, v);
    return null;
  }
}

function readAlias(r: BlockReader): string | null {
  const { label, unknown } = r;
  const alias = r.text('alias');
  if (alias !== null && !unknown(alias) && !ALIAS.test(alias)) {
    r.problem(
      'alias',
      `${label('alias')} ${JSON.stringify(alias)} is not valid; use letters, digits, _ and -, starting with a letter or _`,
      alias,
    );
  }
  return alias;
}

function readBaseUrl(r: BlockReader): string | null {
  let baseUrl = r.text('base_url');
  if (baseUrl !== null && !r.unknown(baseUrl)) {
    baseUrl = baseUrl.trim();
    const urlProblem = baseUrlProblem(baseUrl, r.label('base_url'));
    if (urlProblem) r.problem('base_url', urlProblem, redactUrl(baseUrl));
  }
  return baseUrl;
}

/** The ownership mode and its prefix, which goes only with "prefix" (kept when the mode is unknown). */
function readOwnership(r: BlockReader): Pick<ProviderBlock, 'ownership' | 'prefix'> {
  const { raw, label, unknown } = r;
  let ownership: OwnershipMode = DEFAULT_OWNERSHIP;
  const mode = raw.ownership;
  if (mode !== undefined && mode !== null && !(typeof mode === 'string' && mode.trim() === '')) {
    if (unknown(mode) || (OWNERSHIP_MODES as readonly unknown[]).includes(mode)) ownership = mode as OwnershipMode;
    else
      r.problem(
        'ownership',
        `${label('ownership')} ${JSON.stringify(mode) ?? String(mode)} is not valid; use one of ${OWNERSHIP_MODES.join(', ')}`,
        mode,
      );
  }
  const prefix = r.text('ownership_prefix');
  if (ownership === 'prefix' && prefix === null) {
    r.problem(
      'ownership_prefix',
      `${label('ownership')} "prefix" needs a non-empty ${label('ownership_prefix')}`,
      raw.ownership_prefix ?? null,
    );
  }
  if (ownership !== 'prefix' && prefix !== null && !unknown(mode)) {
    r.problem(
      'ownership_prefix',
      `${label('ownership_prefix')} ${JSON.stringify(prefix)} is only used with ${label('ownership')} "prefix"; set ${label('ownership')} to "prefix" or remove it`,
      prefix,
    );
  }
  return { ownership, prefix: ownership === 'prefix' || unknown(mode) ? prefix : null };
}

type BlockCredentials = Pick<
  ProviderBlock,
  'token' | 'clientId' | 'clientSecret' | 'tokenEnv' | 'clientIdEnv' | 'clientSecretEnv' | 'defaultCredentials'
>;

/** Literal credentials and the variables they are read from; both halves of a client pair, or neither. */
function readCredentials(r: BlockReader): BlockCredentials {
  const label = r.label;
  const token = r.text('token', true);
  const clientId = r.text('client_id');
  const clientSecret = r.text('client_secret', true);
  // Credentials belong to the block that names them: the defaults apply only to a block that
  // names none (docs/architecture.md, "Credentials bound to their account").
  const defaultCredentials = CREDENTIAL_FIELDS.every((f) => !r.given(f));
  const tokenEnv = defaultCredentials ? ENV.token : r.variable('token_env');
  const clientIdEnv = defaultCredentials ? ENV.clientId : r.variable('client_id_env');
  const clientSecretEnv = defaultCredentials ? ENV.clientSecret : r.variable('client_secret_env');
  const idNamed = r.given('client_id') || r.given('client_id_env');
  const secretNamed = r.given('client_secret') || r.given('client_secret_env');
  const pairFields: readonly ProviderField[] = ['client_id', 'client_id_env', 'client_secret', 'client_secret_env'];
  if (idNamed !== secretNamed && !r.problems.some((p) => pairFields.includes(p.field))) {
    const half = idNamed ? 'client_id' : 'client_secret';
    const has: ProviderField = r.given(`${half}_env`) ? `${half}_env` : half;
    const lacks: ProviderField = idNamed ? 'client_secret_env' : 'client_id_env';
    r.problem(
      lacks,
      `${label(has)} is set but ${label(lacks)} is not; a block that names a credential reads only what it names (never ${idNamed ? ENV.clientSecret : ENV.clientId}), so name both halves of the client credentials, or neither`,
    );
  }
  return { token, clientId, clientSecret, tokenEnv, clientIdEnv, clientSecretEnv, defaultCredentials };
}

/** Attempts per request and the timeout of one, each within its rule. */
function readLimits(r: BlockReader): Pick<ProviderBlock, 'maxRetries' | 'timeoutSeconds'> {
  return {
    maxRetries: r.number(
      'max_retries',
      (n) => Number.isInteger(n) && n >= MAX_RETRIES.min && n <= MAX_RETRIES.max,
      `a whole number from ${MAX_RETRIES.min} to ${MAX_RETRIES.max} (attempts per request, the first included)`,
    ),
    timeoutSeconds: r.number(
      'timeout_seconds',
      (n) => n > TIMEOUT_SECONDS.above && n <= TIMEOUT_SECONDS.max,
      `a number of seconds more than ${TIMEOUT_SECONDS.above} and at most ${TIMEOUT_SECONDS.max}`,
    ),
  };
}

/**
 * Reads a provider block (Terraform attribute names; `alias` as written in JSON) into its
 * config and every problem at once. Absent, null and blank values mean "not set" as in
 * Terraform: the default applies. Attributes the rules do not know are left to the door.
 */
export function parseProviderBlock(
  raw: Readonly<Record<string, unknown>>,
  options: ParseOptions = {},
): { config: ProviderBlock; problems: BlockProblem[] } {
  const r = new BlockReader(raw, options);
  // Read in this order, so that problems come in the order of the block's attributes.
  const alias = readAlias(r);
  const baseUrl = readBaseUrl(r);
  const ownership = readOwnership(r);
  const credentials = readCredentials(r);
  const config: ProviderBlock = { alias, baseUrl, ...credentials, ...ownership, ...readLimits(r) };
  return { config, problems: r.problems };
}

/** What `claims` needs of a scope: its ownership, and for "prefix" the prefix. */
export interface OwnershipScope {
  readonly ownership: OwnershipMode;
  readonly prefix?: string | null;
}

const NONE: ReadonlySet<string> = new Set();

/**
 * Whether a scope claims the alert of this name: "exclusive" claims every name, "prefix" the
 * names starting with its prefix, "additive" only the names it declares (`declared`).
 */
export function claims(scope: OwnershipScope, name: string, declared: ReadonlySet<string> = NONE): boolean {
  switch (scope.ownership) {
    case 'exclusive':
      return true;
    case 'prefix':
      return name.startsWith(scope.prefix ?? '');
    case 'additive':
      return declared.has(name);
  }
}
