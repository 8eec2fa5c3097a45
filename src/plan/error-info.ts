import { isNetworkCalcError } from '../client/errors';
import { ConfigError } from '../contract/config-error';

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

/** The error as one reads it: its code once, then the message. */
export function errorText(e: Pick<ErrorInfo, 'code' | 'message'>): string {
  return new RegExp(`\\b${e.code}\\b`).test(e.message) ? e.message : `${e.code}: ${e.message}`;
}

/**
 * The error of one change or trigger, after a line that already names it: from the code on,
 * without the client's `createAlert (alert "a") failed: ` lead.
 */
export function errorReason(e: ErrorInfo): string {
  const lead = `failed: ${e.code}`;
  const at = e.operation && e.message.startsWith(e.operation) ? e.message.indexOf(lead) : -1;
  return at >= 0 ? e.message.slice(at + 'failed: '.length) : errorText(e);
}
