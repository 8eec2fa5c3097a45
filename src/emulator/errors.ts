/**
 * The one table of status codes the emulator answers with, and their HTTP status.
 * Interface 7.1 / 7.2 plus the Authorization and Domains codes of the vendor documentation.
 * Codes the interface does not name (RATE_LIMITED, SYSTEM_ERROR) only come from faults.
 */
export const ERROR_TABLE = {
  // Reports (7.1)
  INVALID_REQUEST: 401,
  INVALID_GRANT: 401,
  NOT_GENERATED: 400,
  // Alerts (7.2); NOT_FOUND is 400 here, only an unknown path is 404
  MISSING_HEADER: 400,
  NOT_AUTHORIZED: 401,
  MISSING_VALUES: 400,
  INVALID_BODY: 400,
  NOT_CREATED: 400,
  NOT_UPDATED: 400,
  NOT_DELETED: 400,
  NOT_FOUND: 400,
  // Authorization API
  MISSING_CREDENTIALS: 401,
  CREDENTIALS_NOT_FOUND: 401,
  INVALID_CREDENTIALS: 401,
  REVOKED_CREDENTIALS: 401,
  INVALID_GRANT_TYPE: 401,
  // Domains API
  NOT_SAVED: 400,
  // Faults only
  RATE_LIMITED: 429,
  SYSTEM_ERROR: 500,
} as const;

export type ErrorCode = keyof typeof ERROR_TABLE;

export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && Object.prototype.hasOwnProperty.call(ERROR_TABLE, value);
}

/** An answer of the interface that is not OK. `detail` is sent only on the update shape. */
export class ApiError extends Error {
  readonly code: ErrorCode;
  readonly httpStatus: number;
  readonly detail?: string;
  constructor(code: ErrorCode, detail?: string) {
    super(detail ? `${code}: ${detail}` : code);
    this.name = 'ApiError';
    this.code = code;
    this.httpStatus = ERROR_TABLE[code];
    this.detail = detail;
  }
}

/** Route groups decide how generic failures (unparseable body, too large) are named. */
export type RouteGroup = 'auth' | 'reports' | 'alerts' | 'domains' | 'download';

/** The code a group answers for a body it cannot read at all. */
export const BAD_BODY_CODE: Record<RouteGroup, ErrorCode> = {
  auth: 'MISSING_CREDENTIALS',
  reports: 'NOT_GENERATED',
  alerts: 'INVALID_BODY',
  domains: 'NOT_SAVED',
  download: 'NOT_FOUND',
};
