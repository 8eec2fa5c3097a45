export { NetworkCalcClient, DEFAULT_BASE_URL, DEFAULT_TIMEOUT_MS, ENV, DELETE_FORMS, deleteAlertRequest, isFormNotUnderstood } from './client';
export type { DeleteForm } from './client';
export {
  NetworkCalcError,
  isNetworkCalcError,
  isNotFound,
  isRetryableCode,
  adviceFor,
  SERVICE_CODES,
  CLIENT_CODES,
} from './errors';
export type { NetworkCalcErrorCode, ServiceCode, ClientCode, NetworkCalcErrorInit } from './errors';
export { DEFAULT_RETRY_POLICY, resolveRetryPolicy, backoffDelayMs, parseRetryAfter, isRetryableStatus, classifyNetworkError } from './retry';
export type { RetryPolicy, NetworkFailure } from './retry';
export { renewalMarginSeconds } from './auth';
export { responseCode } from './transport';
export type { RetryMode } from './transport';
export type { ClientOptions, ReportResult, Domain, Subdomain } from './types';
