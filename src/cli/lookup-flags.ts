/**
 * The lookup flags (--resolver, --lookup-timeout, --lookup-concurrency) and the TLS port
 * variable, into the `Lookups` a preview and the certificate reads of
 * "before renewal fails" policy checks share (`Loaded.lookups`).
 */
import {
  DEFAULT_CONCURRENCY,
  DEFAULT_LOOKUP_TIMEOUT_MS,
  Lookups,
  MAX_CONCURRENCY,
  TLS_PORT_ENV,
  resolverProblem,
} from '../preview';
import { UsageError } from './usage';

/** The lookup flags, parsed and checked by `lookupOptions` (options.ts) before the action runs. */
export interface LookupFlags {
  resolver?: string;
  lookupTimeout?: number;
  lookupConcurrency?: number;
}

/** A whole number from 1 to `max`, or the sentence saying so. */
function whole(value: string, flag: string, max: number): number | string {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1 || n > max)
    return `${flag} must be a whole number from 1 to ${max}, got ${JSON.stringify(value)}`;
  return n;
}

function wholeFlag(value: string, flag: string, max: number): number {
  const n = whole(value, flag, max);
  if (typeof n === 'string') throw new UsageError([n]);
  return n;
}

export const lookupTimeoutFlag = (value: string): number => wholeFlag(value, '--lookup-timeout', 60_000);
export const lookupConcurrencyFlag = (value: string): number =>
  wholeFlag(value, '--lookup-concurrency', MAX_CONCURRENCY);

export function resolverFlag(value: string): string {
  const problem = resolverProblem(value);
  if (problem) throw new UsageError([problem]);
  return value;
}

/** The run's lookups from its parsed flags; a UsageError when the TLS port variable is not a port. */
export function lookupsFromFlags(flags: LookupFlags, env: NodeJS.ProcessEnv): Lookups {
  const port = env[TLS_PORT_ENV];
  const tlsPort = port === undefined || port === '' ? undefined : whole(port, TLS_PORT_ENV, 65535);
  if (typeof tlsPort === 'string') throw new UsageError([tlsPort]);
  return new Lookups({
    resolver: flags.resolver,
    timeoutMs: flags.lookupTimeout ?? DEFAULT_LOOKUP_TIMEOUT_MS,
    concurrency: flags.lookupConcurrency ?? DEFAULT_CONCURRENCY,
    tlsPort,
  });
}
