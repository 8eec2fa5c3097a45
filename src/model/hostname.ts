/**
 * What a domain or subdomain name is, in one place: the constructs, `ncalc` and the
 * emulator all decide with these two functions.
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
  return (typeof name === 'string' ? name.trim().toLowerCase().replace(/\.$/, '') : name) as T;
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
