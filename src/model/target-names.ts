/**
 * Names of declared targets (networkcalc_domain / networkcalc_subdomain, Domain / Subdomain):
 * how a written name is compared with the names an account lists, built on the rules of
 * hostname.ts (RFC 1035/1123 host names) with the platform's IDNA for internationalised names.
 */
import { domainToASCII } from 'node:url';
import { hostNameProblem, isValidHostName, normalizeHostName } from './hostname';

/**
 * The form a name is compared in: trimmed, lower case, without a trailing dot, and an
 * internationalised name as its A-label (the platform's IDNA); '' when IDNA refuses it.
 */
export function targetKey(name: string): string {
  return domainToASCII(normalizeHostName(name));
}

/** Why a domain name is unusable, as one sentence; null when usable. */
export function domainNameProblem(name: string): string | null {
  const key = targetKey(name);
  if (key !== '' && isValidHostName(key)) return null;
  return (
    hostNameProblem('domain', name) ??
    `domain name ${JSON.stringify(name)} is not valid: it has no IDNA form (an A-label such as xn--bcher-kva.de must decode); check its spelling`
  );
}

/** Why a subdomain prefix is unusable, as one sentence; null when usable (checked as the labels of a host name). */
export function prefixProblem(prefix: string): string | null {
  const key = targetKey(prefix);
  if (key !== '' && isValidHostName(`${key}.example.com`)) return null;
  return `subdomain prefix ${JSON.stringify(prefix)} is not valid; give the labels before the domain, such as www or my.demo (letters, digits and hyphens joined by single dots)`;
}
