/**
 * The client's one error type. Callers match on `code`, never on the message or the HTTP
 * status: the service reports "not found" as HTTP 400 with code NOT_FOUND, so the status
 * alone says little.
 */
import { ENV } from '../accounts/environment';
import type { ServiceCode } from './v1_9/codes';

export { SERVICE_CODES, isServiceCode, type ServiceCode } from './v1_9/codes';

/** Codes the client assigns itself when the body carries none, or nothing arrived. */
export const CLIENT_CODES = [
  'RATE_LIMITED',
  'SERVER_ERROR',
  'TIMEOUT',
  'CONNECTION_ERROR',
  'OUTCOME_UNKNOWN',
  'RETRIES_EXHAUSTED',
  'CONFIG_ERROR',
  'UNEXPECTED_RESPONSE',
  'RESPONSE_TOO_LARGE',
] as const;

export type ClientCode = (typeof CLIENT_CODES)[number];
export type NetworkCalcErrorCode = ServiceCode | ClientCode;

/** Codes worth another attempt later; OUTCOME_UNKNOWN is not one (re-list first). */
const RETRYABLE_CODES: ReadonlySet<NetworkCalcErrorCode> = new Set<NetworkCalcErrorCode>([
  'RATE_LIMITED',
  'SERVER_ERROR',
  'SYSTEM_ERROR',
  'TIMEOUT',
  'CONNECTION_ERROR',
  'RETRIES_EXHAUSTED',
]);

export function isRetryableCode(code: NetworkCalcErrorCode): boolean {
  return RETRYABLE_CODES.has(code);
}

/** Brand shared by every copy of this module, so the check works across duplicate installs. */
const BRAND = Symbol.for('cdktf-provider-networkcalc.NetworkCalcError');

export interface NetworkCalcErrorInit {
  operation: string;
  code: NetworkCalcErrorCode;
  message: string;
  httpStatus?: number;
  detail?: string;
  retryable?: boolean;
  /** Attempts made before this error, when more than one. */
  attempts?: number;
  cause?: unknown;
}

export class NetworkCalcError extends Error {
  /** Client method that failed, e.g. `createAlert`. */
  readonly operation: string;
  /** HTTP status of the last response; undefined when no response arrived. */
  readonly httpStatus: number | undefined;
  readonly code: NetworkCalcErrorCode;
  /** True when the same call may succeed if made again later. */
  readonly retryable: boolean;
  /** The server's own error text, when it sent one. */
  readonly detail: string | undefined;
  readonly attempts: number | undefined;

  constructor(init: NetworkCalcErrorInit) {
    super(init.message, init.cause === undefined ? undefined : { cause: init.cause });
    this.name = 'NetworkCalcError';
    this.operation = init.operation;
    this.httpStatus = init.httpStatus;
    this.code = init.code;
    this.retryable = init.retryable ?? isRetryableCode(init.code);
    this.detail = init.detail;
    this.attempts = init.attempts;
    Object.defineProperty(this, BRAND, { value: true, enumerable: false });
  }

  static override [Symbol.hasInstance](value: unknown): boolean {
    return isNetworkCalcError(value);
  }

  /** Plain data for logs and `--json` output; contains nothing secret. */
  toJSON(): Record<string, unknown> {
    return {
      name: this.name,
      message: this.message,
      operation: this.operation,
      code: this.code,
      httpStatus: this.httpStatus,
      retryable: this.retryable,
      detail: this.detail,
      attempts: this.attempts,
    };
  }
}

export function isNetworkCalcError(value: unknown): value is NetworkCalcError {
  return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[BRAND] === true;
}

/** True for an error meaning "this alert (or domain) does not exist". */
export function isNotFound(value: unknown): boolean {
  return isNetworkCalcError(value) && value.code === 'NOT_FOUND';
}

/**
 * The names of the variables a client was configured from, so that advice names what the
 * user actually set (an account may read PROD_TOKEN instead of NETWORKCALC_TOKEN). null: the
 * configuration names no such variable, and advice never suggests one (a default variable
 * may hold another account's credentials).
 */
export interface ClientVariables {
  token: string | null;
  clientId: string | null;
  clientSecret: string | null;
  baseUrl: string;
}

/** `PROD_TOKEN or the client credentials (ID, SECRET)`: the credential variables a client names. */
export function credentialVariables(v: ClientVariables): string {
  const named: string[] = [];
  if (v.token !== null) named.push(v.token);
  if (v.clientId !== null && v.clientSecret !== null)
    named.push(`the client credentials (${v.clientId}, ${v.clientSecret})`);
  return named.join(' or ') || 'the credentials';
}

/** `ID and SECRET`, or a description when the client names no client credentials. */
function clientPair(v: ClientVariables): string {
  return v.clientId !== null && v.clientSecret !== null
    ? `${v.clientId} and ${v.clientSecret}`
    : 'the client credentials';
}

export const DEFAULT_VARIABLES: Readonly<ClientVariables> = Object.freeze({ ...ENV });

/**
 * Codes whose server explanation says more than the generic advice (which field, which
 * value): when the server sends one, the message shows it instead of the advice.
 */
export const EXPLAINED_BY_SERVER: ReadonlySet<NetworkCalcErrorCode> = new Set<NetworkCalcErrorCode>([
  'INVALID_BODY',
  'MISSING_VALUES',
]);

/** What the user should do, per code; `v` names the variables the client was configured from. */
export function adviceFor(code: NetworkCalcErrorCode, v: ClientVariables = DEFAULT_VARIABLES): string {
  switch (code) {
    case 'NOT_FOUND':
      return 'it does not exist (it may have been deleted outside this tool); list again and use a current id';
    case 'INVALID_BODY':
      return 'the server rejected a field: type, subtype and filter must be one of the documented combinations, and target_id a domain or subdomain of this account';
    case 'MISSING_VALUES':
      return 'a required field was missing from the request; give name, type, filter, filter_value, target_type and target_id';
    case 'MISSING_HEADER':
      return 'a required header was missing; this is a client bug, please report it';
    case 'INVALID_REQUEST':
      return 'the Authorization header was missing; this is a client bug, please report it';
    case 'NOT_AUTHORIZED':
      return `the token was refused; check ${credentialVariables(v)}, and that the account has a paid plan`;
    case 'INVALID_GRANT':
      return `the access token is expired or invalid; check ${credentialVariables(v)}`;
    case 'NOT_GENERATED':
      return 'the service could not generate the report; try again later';
    case 'NOT_CREATED':
      return 'the service could not save the alert; try again later';
    case 'NOT_UPDATED':
      return 'the service could not update it; try again later';
    case 'NOT_DELETED':
      return 'the service could not delete it; try again later';
    case 'NOT_SAVED':
      return 'the service could not save it (a domain may already exist under that name)';
    case 'MISSING_CREDENTIALS':
      return `the token exchange got no client id or secret; set ${clientPair(v)}`;
    case 'CREDENTIALS_NOT_FOUND':
      return `the client id is unknown to the service; check ${v.clientId ?? 'the client id'}`;
    case 'INVALID_CREDENTIALS':
      return `the client secret was refused; check ${v.clientSecret ?? 'the client secret'}`;
    case 'REVOKED_CREDENTIALS':
      return `these client credentials were revoked; create new ones and set ${clientPair(v)}`;
    case 'INVALID_GRANT_TYPE':
      return 'the token exchange used a grant type the service refuses; this is a client bug, please report it';
    case 'SYSTEM_ERROR':
      return 'the service had an internal error; try again';
    case 'RATE_LIMITED':
      return 'the service is limiting requests to this account; wait and try again, or send it fewer requests at once';
    case 'SERVER_ERROR':
      return 'the service answered with a server error; try again later';
    case 'TIMEOUT':
      return 'no answer in time; check connectivity or raise the timeout';
    case 'CONNECTION_ERROR':
      return `could not talk to the service; check ${v.baseUrl} and connectivity`;
    case 'OUTCOME_UNKNOWN':
      return 'the create may or may not have happened; list the account and adopt what it created if it is there, or send the create again if not';
    case 'RETRIES_EXHAUSTED':
      return 'gave up retrying; try again later';
    case 'CONFIG_ERROR':
      return 'fix the configuration';
    case 'UNEXPECTED_RESPONSE':
      return 'the service answered in a form this client does not understand';
    case 'RESPONSE_TOO_LARGE':
      return 'the answer is larger than this client reads; raise the maxResponseBytes option if the account really holds that much';
  }
}
