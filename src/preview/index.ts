export * from './dns-text';
export * from './evaluate';
export * from './lookups';
export * from './preview';
export * from '../model/renewal';
export * from './spf';
export * from './tls';
import { lifetimeDays } from '../model/renewal';
import { asciiHost, type Lookups } from './lookups';

/**
 * The lifetime of the certificate each host serves, for policy checks whose threshold is
 * "before renewal fails" (`PlanOptions.certificateLifetime`), read with `lookups` (only when
 * asked: a plan without such a check makes no lookup).
 */
export function certificateLifetimes(
  lookups: Lookups,
): (host: string) => Promise<{ lifetimeDays: number } | { reason: string }> {
  return async (host) => {
    const ascii = asciiHost(host);
    if (ascii === null) return { reason: `${JSON.stringify(host)} is not a host name DNS can look up` };
    const got = await lookups.certificate(ascii);
    if (!got.ok) return { reason: got.reason };
    return { lifetimeDays: lifetimeDays(got.certificate.notBefore, got.certificate.notAfter) };
  };
}
