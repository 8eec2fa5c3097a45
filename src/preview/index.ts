export * from './dns-text';
export * from './evaluate';
export * from './lookups';
export * from './preview';
export * from '../model/renewal';
export * from './spf';
export * from './tls';
import { lifetimeDays } from '../model/renewal';
import { DEFAULT_CONCURRENCY, DEFAULT_LOOKUP_TIMEOUT_MS, Lookups, asciiHost, resolverProblem } from './lookups';

/** The lookup flags of `preview` and `plan --preview`, as given on the command line. */
export interface PreviewFlags {
  resolver?: string;
  lookupTimeout?: string;
  lookupConcurrency?: string;
}

/**
 * A testing aid: `NCALC_PREVIEW_TLS_PORT` sends every TLS connection of a preview to that port
 * instead of 443 (the address still comes from DNS), so tests can serve certificates locally.
 */
export const TLS_PORT_ENV = 'NCALC_PREVIEW_TLS_PORT';

/** The run's lookups from its flags, or the problems with them (before any call). */
export function lookupsFromFlags(flags: PreviewFlags, env: NodeJS.ProcessEnv): Lookups | { problems: string[] } {
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
  if (problems.length) return { problems };
  return new Lookups({ resolver: flags.resolver, timeoutMs, concurrency, tlsPort });
}

/** What is wrong with a command's lookup flags (and the TLS port variable); empty when nothing. */
export function lookupFlagProblems(flags: PreviewFlags, env: NodeJS.ProcessEnv): string[] {
  const made = lookupsFromFlags(flags, env);
  return 'problems' in made ? made.problems : [];
}

/**
 * The lifetime of the certificate each host serves, for policy checks whose threshold is
 * "before renewal fails" (`PlanOptions.certificateLifetime`), read with `lookups` (made when
 * first needed: a plan without such a check makes no lookup).
 */
export function certificateLifetimes(
  lookups: () => Lookups | { problems: string[] },
): (host: string) => Promise<{ lifetimeDays: number } | { reason: string }> {
  let made: Lookups | { problems: string[] } | null = null;
  return async (host) => {
    made ??= lookups();
    if ('problems' in made) return { reason: made.problems.join('; ') };
    const ascii = asciiHost(host);
    if (ascii === null) return { reason: `${JSON.stringify(host)} is not a host name DNS can look up` };
    const got = await made.certificate(ascii);
    if (!got.ok) return { reason: got.reason };
    return { lifetimeDays: lifetimeDays(got.certificate.notBefore, got.certificate.notAfter) };
  };
}
