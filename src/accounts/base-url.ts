/**
 * The base URL of an account, checked and normalized in one place for the constructs, the
 * reconciler and the export command, so that one account is recognised however its URL
 * is spelled and a URL that would leak a secret is refused everywhere alike.
 */

export const DEFAULT_BASE_URL = 'https://networkcalc.com';

/**
 * One spelling per account: host in lower case, default port dropped, no trailing slash.
 * A URL that cannot be parsed, or that carries user info, a query or a fragment, is only
 * trimmed (baseUrlProblem rejects it).
 */
export function normalizeBaseUrl(raw: string): string {
  const trimmed = raw.trim();
  try {
    const url = new URL(trimmed);
    const plain = !url.username && !url.password && !url.search && !url.hash;
    if (plain && (url.protocol === 'http:' || url.protocol === 'https:'))
      return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
  } catch {
    // reported by baseUrlProblem
  }
  return trimmed.replace(/\/+$/, '');
}

/** The URL with any user info, query and fragment masked, so that it can be shown. */
export function redactUrl(url: string): string {
  return url.replace(/^([^:/?#]*:\/\/)[^/?#]*@/, '$1***@').replace(/([?#]).*$/, '$1***');
}

/**
 * What is wrong with a base URL, or null. It must be http(s) and carry nothing secret: user
 * info or a query would be printed wherever the account is shown, and written into the
 * synthesized JSON by the constructs.
 */
export function baseUrlProblem(url: string, source: string): string | null {
  let parsed: URL | null = null;
  try {
    parsed = new URL(url);
  } catch {
    // reported below
  }
  if (!parsed || (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')) {
    return `base URL ${JSON.stringify(redactUrl(url))} (from ${source}) is not an http(s) URL such as ${DEFAULT_BASE_URL}; fix ${source}`;
  }
  if (parsed.username || parsed.password || parsed.search || parsed.hash) {
    return `base URL ${JSON.stringify(redactUrl(url))} (from ${source}) carries user info, a query or a fragment; give only scheme, host and an optional path, and the credentials through the token or client variables`;
  }
  return null;
}
