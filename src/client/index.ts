export {
  NetworkCalcClient,
  DEFAULT_BASE_URL,
  DEFAULT_TIMEOUT_MS,
  DEFAULT_MAX_RESPONSE_BYTES,
  ENV,
  DELETE_FORMS,
  deleteAlertRequest,
  isFormNotUnderstood,
} from './client';
export type { DeleteForm } from './client';
export {
  NetworkCalcError,
  isNetworkCalcError,
  isNotFound,
  isRetryableCode,
  adviceFor,
  SERVICE_CODES,
  CLIENT_CODES,
  DEFAULT_VARIABLES,
} from './errors';
export type { NetworkCalcErrorCode, ServiceCode, ClientCode, NetworkCalcErrorInit, ClientVariables } from './errors';
export {
  DEFAULT_RETRY_POLICY,
  resolveRetryPolicy,
  backoffDelayMs,
  retryAfterDelayMs,
  parseRetryAfter,
  isRetryableStatus,
  classifyNetworkError,
} from './retry';
export type { RetryPolicy, NetworkFailure } from './retry';
export { renewalMarginSeconds } from './v1_9/auth';
export { responseCode } from './transport';
export type { RetryMode } from './transport';
export type { ClientOptions, ReportResult, Domain, Subdomain } from './types';
