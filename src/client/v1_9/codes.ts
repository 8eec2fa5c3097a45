/**
 * The codes API v1.9 puts in a response body's `status` field. The client's own codes and the
 * one error type stay version-free in `../errors.ts`.
 */
/** Codes the service puts in a response body's `status` field (interface 7, vendor auth codes). */
export const SERVICE_CODES = [
  // Report endpoints (7.1)
  'INVALID_REQUEST',
  'INVALID_GRANT',
  'NOT_GENERATED',
  // Alert endpoints (7.2)
  'MISSING_HEADER',
  'NOT_AUTHORIZED',
  'MISSING_VALUES',
  'INVALID_BODY',
  'NOT_CREATED',
  'NOT_UPDATED',
  'NOT_DELETED',
  'NOT_FOUND',
  // Domains API
  'NOT_SAVED',
  // Token exchange
  'MISSING_CREDENTIALS',
  'CREDENTIALS_NOT_FOUND',
  'INVALID_CREDENTIALS',
  'REVOKED_CREDENTIALS',
  'INVALID_GRANT_TYPE',
  'SYSTEM_ERROR',
] as const;

export type ServiceCode = (typeof SERVICE_CODES)[number];

export function isServiceCode(value: unknown): value is ServiceCode {
  return typeof value === 'string' && (SERVICE_CODES as readonly string[]).includes(value);
}
