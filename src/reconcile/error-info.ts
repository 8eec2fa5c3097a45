import { isNetworkCalcError } from '../client/errors';
import { ENV } from '../schema/environment';
import { ConfigError } from './synth';
import type { Scope } from './types';

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

type CredentialVariables = Pick<Scope, 'tokenEnv' | 'clientIdEnv' | 'clientSecretEnv'>;
const DEFAULT_VARIABLES: CredentialVariables = {
  tokenEnv: ENV.token,
  clientIdEnv: ENV.clientId,
  clientSecretEnv: ENV.clientSecret,
};

/**
 * The client's advice ("check NETWORKCALC_TOKEN") names the default variables; an account
 * that reads others (`tokenEnv` …) is told its own.
 */
export function adviseVariables(info: ErrorInfo, scopes: readonly CredentialVariables[]): ErrorInfo {
  let message = info.message;
  for (const key of ['tokenEnv', 'clientIdEnv', 'clientSecretEnv'] as const) {
    const own = [...new Set(scopes.map((s) => s[key]))].join(' or ');
    if (own && own !== DEFAULT_VARIABLES[key])
      message = message.replace(new RegExp(`\\b${DEFAULT_VARIABLES[key]}\\b`, 'g'), own);
  }
  return message === info.message ? info : { ...info, message };
}
