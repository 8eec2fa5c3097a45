import { isNetworkCalcError } from '../client/errors';
import { ConfigError } from './synth';

/**
 * An error as the reconciler reports it (text and `--json`). `retryable`: the same call may
 * succeed if made again later (a timeout, a 5xx), as opposed to a failure that needs a fix.
 */
export interface ErrorInfo {
  code: string;
  message: string;
  operation?: string;
  httpStatus?: number;
  retryable: boolean;
}

export function toErrorInfo(e: unknown): ErrorInfo {
  if (isNetworkCalcError(e)) {
    const info: ErrorInfo = { code: e.code, message: e.message, operation: e.operation, retryable: e.retryable };
    if (e.httpStatus !== undefined) info.httpStatus = e.httpStatus;
    return info;
  }
  if (e instanceof ConfigError) return { code: 'CONFIG_ERROR', message: e.message, retryable: false };
  return { code: 'UNEXPECTED', message: e instanceof Error ? e.message : String(e), retryable: false };
}
