import { domainToASCII } from 'node:url';

/**
 * What a domain or subdomain name is, in one place: the constructs, `ncalc`, the provider
 * and the emulator all decide with these functions. The rules are those of RFC 1035 § 2.3.1
 * and RFC 1123 § 2.1 for host names: labels of letters, digits and hyphens (LDH), neither
 * starting nor ending with a hyphen, 1 to 63 characters each, 253 in all; internationalised
 * names become A-labels with the platform's IDNA (UTS #46, `url.domainToASCII`); case is
 * ignored (RFC 4343), so the canonical form is lower case.
 */

/** A DNS label: letters, digits and inner hyphens, 1 to 63 characters. */
const LABEL = '[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?';
/** At least two labels, at most 253 characters, a top-level label starting with a letter. */
const HOST_NAME = new RegExp(`^(?=.{1,253}$)(?:${LABEL}\\.)+[a-z](?:[a-z0-9-]{0,61}[a-z0-9])?$`);

/**
 * The canonical form of a host name a user wrote: trimmed, lower case (DNS names ignore case),
 * without the trailing dot of a fully qualified name. Non-strings are returned unchanged.
 */
export function normalizeHostName<T>(name: T): T {
  if (typeof name !== 'string') return name;
  const lower = name.trim().toLowerCase().replace(/\.$/, '');
  return toALabels(lower) as T;
}

/**
 * An internationalised name (any character past ASCII) as A-labels (`bücher.de` →
 * `xn--bcher-kva.de`); ASCII names as they are. A name IDNA refuses stays as written, so
 * the checks below refuse it with the user's own spelling. ASCII is left to the LDH rule on
 * purpose: the URL parser would read `1.2.3` as an IPv4 address.
 */
function toALabels(name: string): string {
  // eslint-disable-next-line no-control-regex
  if (/^[\x00-\x7f]*$/.test(name)) return name;
  return domainToASCII(name) || name;
}

/** True when two names a user wrote are the same host name (case and IDNA spelling ignored). */
export function sameHostName(a: string, b: string): boolean {
  return normalizeHostName(a) === normalizeHostName(b);
}

/**
 * The canonical form of a subdomain prefix (`www`, `my.demo` for my.demo.example.com): as
 * for host names, trimmed, lower case, A-labels, without leading or trailing dots.
 */
export function normalizePrefix<T>(prefix: T): T {
  if (typeof prefix !== 'string') return prefix;
  return toALabels(
    prefix
      .trim()
      .toLowerCase()
      .replace(/^\.+|\.+$/g, ''),
  ) as T;
}

/**
 * Why `prefix` (as a user wrote it) is not a usable prefix under `domain` (canonical), as a
 * sentence; null when `prefix.domain` is a valid host name once normalized.
 */
export function prefixProblem(prefix: unknown, domain: string): string | null {
  const p = normalizePrefix(prefix);
  if (typeof p === 'string' && p !== '' && isValidHostName(`${p}.${domain}`)) return null;
  return `subdomain prefix ${JSON.stringify(prefix ?? null)} of ${domain} is not valid; give labels of letters, digits and inner hyphens (at most 63 characters each) joined by single dots, such as www or my.demo, with the full name at most 253 characters`;
}

/**
 * True for a host name in canonical form (see `normalizeHostName`): lower-case labels of
 * letters, digits and inner hyphens, separated by single dots, at least two of them, such as
 * `example.com` or `www.example.com`. No scheme, port, path, blank, or empty label.
 */
export function isValidHostName(name: unknown): name is string {
  return typeof name === 'string' && HOST_NAME.test(name);
}

/**
 * Why `name` (as a user wrote it) is not a usable domain or subdomain name, as a sentence;
 * null when it is usable once normalized.
 */
export function hostNameProblem(what: 'domain' | 'subdomain', name: unknown): string | null {
  const example = what === 'domain' ? 'example.com' : 'www.example.com';
  if (typeof name !== 'string' || name.trim() === '') {
    return `${what} name ${JSON.stringify(name ?? null)} is not valid; give a name such as ${example}`;
  }
  if (isValidHostName(normalizeHostName(name))) return null;
  return `${what} name ${JSON.stringify(name)} is not valid; give a bare host name such as ${example} (labels of letters, digits and hyphens joined by single dots), without scheme, port or path`;
}
