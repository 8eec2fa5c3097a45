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
  const url = parsedUrl(trimmed);
  if (url && !url.secret && (url.protocol === 'http:' || url.protocol === 'https:')) return `${url.origin}${url.path}`;
  return trimmed.replace(/\/+$/, '');
}

/** A URL's origin and its path without a trailing slash, or null when it does not parse. */
export function splitBaseUrl(url: string): { origin: string; path: string } | null {
  const parts = parsedUrl(url);
  return parts && { origin: parts.origin, path: parts.path };
}

/** The parts of a URL these checks read; `secret`: it carries user info, a query or a fragment. */
interface UrlParts {
  readonly protocol: string;
  readonly origin: string;
  /** The path without a trailing slash. */
  readonly path: string;
  readonly secret: boolean;
}

/**
 * URLs parsed so far, by spelling: a fleet's accounts share a few base URLs, and each account's
 * is checked and normalized several times (a URL parse each, about 3 % of the CPU of a plan of 10,000 accounts).
 * Bounded: emptied when it reaches its size.
 */
const PARSED = new Map<string, UrlParts | null>();
const PARSED_LIMIT = 1024;

function parsedUrl(url: string): UrlParts | null {
  const known = PARSED.get(url);
  if (known !== undefined) return known;
  let parts: UrlParts | null = null;
  try {
    const u = new URL(url);
    parts = {
      protocol: u.protocol,
      origin: u.origin,
      path: u.pathname.replace(/\/+$/, ''),
      secret: !!(u.username || u.password || u.search || u.hash),
    };
  } catch {
    // null: not a URL
  }
  if (PARSED.size >= PARSED_LIMIT) PARSED.clear();
  PARSED.set(url, parts);
  return parts;
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
  const parsed = parsedUrl(url);
  if (!parsed || (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')) {
    return `base URL ${JSON.stringify(redactUrl(url))} (from ${source}) is not an http(s) URL such as ${DEFAULT_BASE_URL}; fix ${source}`;
  }
  if (parsed.secret) {
    return `base URL ${JSON.stringify(redactUrl(url))} (from ${source}) carries user info, a query or a fragment; give only scheme, host and an optional path, and the credentials through the token or client variables`;
  }
  return null;
}
