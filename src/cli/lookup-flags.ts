/**
 * The lookup flags (--resolver, --lookup-timeout, --lookup-concurrency) and the TLS port
 * variable, parsed once per run into the `Lookups` a preview and the certificate reads of
 * "before renewal fails" policy checks share (`Loaded.lookups`).
 */
import { DEFAULT_CONCURRENCY, DEFAULT_LOOKUP_TIMEOUT_MS, Lookups, TLS_PORT_ENV, resolverProblem } from '../preview';
import { UsageError } from './usage';

/** The lookup flags as given on the command line. */
export interface LookupFlags {
  resolver?: string;
  lookupTimeout?: string;
  lookupConcurrency?: string;
}

/** The run's lookups from its flags; a UsageError listing every problem with them (before any call). */
export function lookupsFromFlags(flags: LookupFlags, env: NodeJS.ProcessEnv): Lookups {
  const problems: string[] = [];
  const whole = (value: string | undefined, flag: string, fallback: number, max: number) => {
    if (value === undefined) return fallback;
    const n = Number(value);
    if (!Number.isInteger(n) || n < 1 || n > max) {
      problems.push(`${flag} must be a whole number from 1 to ${max}, got ${JSON.stringify(value)}`);
      return fallback;
    }
    return n;
  };
  const timeoutMs = whole(flags.lookupTimeout, '--lookup-timeout', DEFAULT_LOOKUP_TIMEOUT_MS, 60_000);
  const concurrency = whole(flags.lookupConcurrency, '--lookup-concurrency', DEFAULT_CONCURRENCY, 256);
  if (flags.resolver !== undefined) {
    const problem = resolverProblem(flags.resolver);
    if (problem) problems.push(problem);
  }
  const port = env[TLS_PORT_ENV];
  const tlsPort = port === undefined || port === '' ? undefined : whole(port, TLS_PORT_ENV, 443, 65535);
  if (problems.length) throw new UsageError(problems);
  return new Lookups({ resolver: flags.resolver, timeoutMs, concurrency, tlsPort });
}
