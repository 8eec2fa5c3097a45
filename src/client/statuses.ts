/**
 * The one table of HTTP statuses the interface does not pair with a code of its own: what each
 * most likely means (a wrong base URL, a token too large, a proxy in front of the service),
 * which code the error gets, whether another attempt may help and whether the server may have
 * acted on the request. The transport reads every non-2xx answer through `readingFor`.
 *
 * The interface answers errors with HTTP 400 or 401 and a code in the body's `status`; a code
 * there still decides where `bodyDecides` says so (a 503 saying SYSTEM_ERROR is the service's
 * own answer). Where it does not (redirects, 404, 405, 408, 413, 414, 431), the status decides
 * whatever the body says: an unknown route may answer `{"status": "NOT_FOUND"}`, and reading
 * that as "no such alert" would drop an alert from Terraform state or count a delete as done.
 */
import { DEFAULT_BASE_URL, redactUrl } from '../accounts/base-url';
import { adviceFor, isServiceCode, type ClientVariables, type NetworkCalcErrorCode } from './errors';
import type { Json } from '../support/json';

/** What the transport knows of one answer and the request it answers; nothing secret. */
export interface StatusContext {
  status: number;
  method: string;
  /** The base URL as configured (normalized), and the request's path without its query. */
  baseUrl: string;
  path: string;
  variables: ClientVariables;
  /** The Location header, as sent. */
  location: string | undefined;
  /** True when the answer carried a usable Retry-After. */
  retryAfter: boolean;
  /** The variable the bearer token came from, e.g. `NETWORKCALC_TOKEN`; undefined for an issued one. */
  tokenVariable: string | undefined;
  /** Bytes of the bearer token sent; 0 when none was. */
  tokenBytes: number;
  /** Bytes of the request's header block as this client builds it (undici adds a few more). */
  headerBytes: number;
  bodyBytes: number;
}

export interface StatusReading {
  /** The error's code when the status decides. */
  code: NetworkCalcErrorCode;
  /** Worth another attempt for a request that may be repeated (the modes are in transport.ts). */
  retryable: boolean;
  /** The server may have acted on the request: a create answered so is OUTCOME_UNKNOWN. */
  mayHaveActed: boolean;
  /** A code of the interface in the body wins over this reading. */
  bodyDecides: boolean;
  /** One sentence: the likely cause and what to check. */
  cause: (c: StatusContext) => string;
}

/** 1536 → "1.5 KiB": sizes in messages. */
export function formatBytes(n: number): string {
  const units = ['bytes', 'KiB', 'MiB', 'GiB', 'TiB'];
  let value = n;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return unit === 0 ? `${n} bytes` : `${Number(value.toFixed(1))} ${units[unit]}`;
}

/**
 * A token longer than this is named as the likely cause of a "too large" answer. Access tokens
 * (JWTs included) are well under 2 KiB; proxies refuse header blocks from 4 or 8 KiB on.
 */
export const LARGE_TOKEN_BYTES = 4096;

/**
 * The name the base URL came from, without the value some callers append to it (the provider
 * passes "base_url (https://…)"): these sentences show the value themselves.
 */
function baseVar(c: StatusContext): string {
  return c.variables.baseUrl.replace(/\s*\(.*\)$/, '');
}

/** "check NETWORKCALC_BASE_URL (now …)", and the fix when its path repeats the API's own `/api`. */
function checkBaseUrl(c: StatusContext): string {
  const v = baseVar(c);
  const url = new URL(c.baseUrl);
  const doubled = /\/api(\/.*)?$/.exec(url.pathname);
  if (doubled) {
    const fixed = `${url.origin}${url.pathname.slice(0, doubled.index)}`;
    return `${v} is ${c.baseUrl}, and this client adds /api/... itself, so the path is doubled; set ${v} to ${fixed}`;
  }
  return `check ${v} (now ${c.baseUrl}): it must be the API's root, such as ${DEFAULT_BASE_URL}`;
}

function requestUrl(c: StatusContext): string {
  return `${c.method} ${c.baseUrl}${c.path}`;
}

function whoseToken(c: StatusContext): string {
  return c.tokenVariable === undefined
    ? `${c.variables.clientId ?? 'the client id'} and ${c.variables.clientSecret ?? 'the client secret'} are NetworkCalc client credentials`
    : `${c.tokenVariable} holds a NetworkCalc access token`;
}

/** The sizes a "too large" answer is about, the token's first; never the token itself. */
function sizes(c: StatusContext): string {
  const parts = [`about ${formatBytes(c.headerBytes)} of request headers in all`];
  if (c.bodyBytes > 0) parts.push(`a body of ${formatBytes(c.bodyBytes)}`);
  if (c.tokenBytes > 0) {
    const token =
      c.tokenVariable === undefined ? 'the access token issued for this client' : `the token in ${c.tokenVariable}`;
    parts.unshift(`${token} is ${formatBytes(c.tokenBytes)} (${c.tokenBytes} bytes)`);
  }
  return parts.join(', ');
}

/** `what` is too large (`reason`: the status's name): the sizes, and the likely cause. */
function tooLarge(c: StatusContext, what: string, reason: string): string {
  const head = `${what} too large for the server or a proxy in front of it (${reason}): ${sizes(c)}`;
  if (c.tokenVariable !== undefined && c.tokenBytes > LARGE_TOKEN_BYTES) {
    return `${head}; access tokens are far shorter, so check that ${c.tokenVariable} holds the token itself (not a file, a JSON answer or several tokens)`;
  }
  return `${head}; this client's requests are small, so check the size limits of any proxy between this machine and the service`;
}

/**
 * Where a redirect points, shown without user info or query (either may carry a secret), and
 * the base URL that would have reached the same place, when the target ends with the path
 * this client asked for.
 */
function redirectTarget(c: StatusContext): { shown: string; sameOrigin: boolean; base: string | undefined } {
  let target: URL;
  try {
    target = new URL(c.location ?? '', `${c.baseUrl}${c.path}`);
  } catch {
    return { shown: JSON.stringify(redactUrl(c.location ?? '')), sameOrigin: false, base: undefined };
  }
  const shown = `${target.origin}${target.pathname}${target.search ? '?…' : ''}`;
  const sameOrigin = target.origin === new URL(c.baseUrl).origin;
  const base = target.pathname.endsWith(c.path)
    ? `${target.origin}${target.pathname.slice(0, target.pathname.length - c.path.length)}`
    : undefined;
  return { shown, sameOrigin, base };
}

/**
 * Redirects are never followed: a write sent again to another address is not what was asked
 * for, and to another origin it would carry the token there. The fix is one variable.
 */
const REDIRECT: StatusReading = {
  code: 'UNEXPECTED_RESPONSE',
  retryable: false,
  // A 303 after a POST means "done, look there": for a create, only a list can tell.
  mayHaveActed: true,
  bodyDecides: false,
  cause: (c) => {
    const v = baseVar(c);
    if (!c.location) return `a redirect without a Location; this client follows none: ${checkBaseUrl(c)}`;
    const t = redirectTarget(c);
    const where = t.sameOrigin
      ? `${v} redirects to ${t.shown}`
      : `${v} redirects to another origin, ${t.shown}; nothing was sent there (this client follows no redirect, so the token stays here)`;
    const fix = t.base
      ? `set ${v} to ${t.base}`
      : `set ${v} to the address the API answers at, such as ${DEFAULT_BASE_URL}`;
    return `${where}; ${fix}${t.sameOrigin ? ' (redirects are not followed)' : ' if that is the NetworkCalc API'}`;
  },
};

/** Any other 4xx: not an answer the interface gives. */
const OTHER_4XX: StatusReading = {
  code: 'UNEXPECTED_RESPONSE',
  retryable: false,
  mayHaveActed: false,
  bodyDecides: true,
  cause: (c) =>
    `the NetworkCalc API does not answer with this status (its errors are 400 or 401 with a code), so something else answered: ${checkBaseUrl(c)}, and any proxy in between`,
};

/** Any other 5xx: a server error without a code; not retried, since its meaning is unknown. */
const OTHER_5XX: StatusReading = {
  code: 'SERVER_ERROR',
  retryable: false,
  mayHaveActed: true,
  bodyDecides: true,
  cause: () => adviceFor('SERVER_ERROR'),
};

const server5xx = (cause: StatusReading['cause']): StatusReading => ({
  code: 'SERVER_ERROR',
  retryable: true,
  mayHaveActed: true,
  bodyDecides: true,
  cause,
});

export const HTTP_STATUSES: Readonly<Record<number, StatusReading>> = Object.freeze({
  301: REDIRECT,
  302: REDIRECT,
  303: REDIRECT,
  307: REDIRECT,
  308: REDIRECT,
  400: {
    ...OTHER_4XX,
    cause: (c) =>
      `the request was refused as malformed without one of the API's codes, so probably not by the NetworkCalc API: ${checkBaseUrl(c)}, and any proxy in between`,
  },
  401: {
    ...OTHER_4XX,
    cause: (c) =>
      `the request was refused without one of the API's codes, so not by the NetworkCalc API: a proxy or gateway in front of it wants credentials of its own, or ${baseVar(c)} points at another service; ${checkBaseUrl(c)}, and that ${whoseToken(c)}`,
  },
  403: {
    ...OTHER_4XX,
    cause: (c) =>
      `the request was forbidden without one of the API's codes (the API refuses a token with 401 and a code): a proxy, firewall or web application firewall in front of the service refused it, or ${baseVar(c)} points at another service; ${checkBaseUrl(c)}, and any proxy in between`,
  },
  404: {
    ...OTHER_4XX,
    bodyDecides: false,
    cause: (c) =>
      `no such route: ${requestUrl(c)} does not exist (the API reports a missing alert with HTTP 400, not 404); ${checkBaseUrl(c)}`,
  },
  405: {
    ...OTHER_4XX,
    bodyDecides: false,
    cause: (c) =>
      `${c.method} is not allowed at ${c.baseUrl}${c.path}: ${baseVar(c)} probably points at something other than the NetworkCalc API, or a proxy in front of it allows only some methods; ${checkBaseUrl(c)}`,
  },
  408: {
    code: 'TIMEOUT',
    retryable: true,
    // The server says it did not get the whole request; a create is settled by a list all the same.
    mayHaveActed: true,
    bodyDecides: false,
    cause: () =>
      'the server, or a proxy in front of it, gave up waiting for the request (Request Timeout): a slow or interrupted connection; it is retried where that is safe; if it persists, check the network and any proxy in between',
  },
  413: {
    ...OTHER_4XX,
    bodyDecides: false,
    cause: (c) => tooLarge(c, 'the request is', 'Content Too Large'),
  },
  414: {
    ...OTHER_4XX,
    bodyDecides: false,
    cause: (c) =>
      `the request URL (${c.baseUrl.length + c.path.length} characters) is longer than the server or a proxy in front of it accepts (URI Too Long); this client's paths are short, so check ${baseVar(c)} (${c.baseUrl.length} characters)`,
  },
  415: {
    ...OTHER_4XX,
    cause: (c) =>
      `the server refused the request's Content-Type, application/json (Unsupported Media Type): a proxy in front of the service may rewrite requests, or ${baseVar(c)} points at another service; ${checkBaseUrl(c)}, and any proxy in between`,
  },
  429: {
    code: 'RATE_LIMITED',
    retryable: true,
    mayHaveActed: false,
    bodyDecides: true,
    cause: (c) =>
      c.retryAfter
        ? adviceFor('RATE_LIMITED')
        : 'the service, or a proxy in front of it, is limiting requests and did not say for how long (no Retry-After); the client backed off and retried where safe: wait a minute and try again, or send fewer requests at once to this account (ncalc --account-parallelism, terraform -parallelism)',
  },
  431: {
    ...OTHER_4XX,
    bodyDecides: false,
    cause: (c) => tooLarge(c, 'the request headers are', 'Request Header Fields Too Large'),
  },
  451: {
    ...OTHER_4XX,
    cause: (c) =>
      `the service, or a network between this machine and it, refuses the request for legal reasons (Unavailable For Legal Reasons): the API is blocked from this network or country; ask your network administrator, or check ${baseVar(c)} (now ${c.baseUrl}) if you reach the API through a proxy`,
  },
  500: server5xx(
    () =>
      'the service, or a proxy in front of it, had an internal error and named no code of the API; it is retried where that is safe: try again later',
  ),
  502: server5xx(
    () =>
      'a proxy or load balancer in front of the service got no valid answer from it (Bad Gateway): the service is down or restarting, or the proxy points at the wrong place; try again later, and check the proxy if it persists',
  ),
  503: server5xx(
    () =>
      'the service, or a proxy in front of it, is unavailable (Service Unavailable): overloaded, in maintenance or without a healthy backend; try again later',
  ),
  504: server5xx(
    () =>
      "a proxy or load balancer in front of the service gave up waiting for it (Gateway Timeout): the service is slow or unreachable; try again later, and if it recurs on large accounts, raise the proxy's timeout",
  ),
});

/** The reading of any non-2xx status: its row, or the one of its class. */
export function readingFor(status: number): StatusReading {
  const row = HTTP_STATUSES[status];
  if (row) return row;
  if (status >= 300 && status < 400) return REDIRECT;
  if (status >= 500) return OTHER_5XX;
  return OTHER_4XX;
}

/** The body's `status` as an interface code, if it is one. */
export function bodyCode(body: Json): NetworkCalcErrorCode | undefined {
  const status = typeof body.status === 'string' ? body.status.trim().toUpperCase() : undefined;
  return isServiceCode(status) ? status : undefined;
}

/**
 * The reading that decides a non-2xx answer, or undefined when the body's interface code does
 * (or the answer is a 2xx).
 */
export function statusDecides(httpStatus: number, body: Json): StatusReading | undefined {
  if (httpStatus >= 200 && httpStatus < 300) return undefined;
  const reading = readingFor(httpStatus);
  return reading.bodyDecides && bodyCode(body) !== undefined ? undefined : reading;
}

/** How much of an HTML page's title or text a message shows. */
const SHOWN_HTML = 80;

/**
 * HTML, as proxies and load balancers answer, named by its title (or its first words) rather
 * than quoted as markup; undefined for anything else.
 */
export function htmlPage(text: string, contentType: string | undefined): string | undefined {
  const looksHtml = /html/i.test(contentType ?? '') || /^\s*<(!doctype html|html|head|body)\b/i.test(text);
  if (!looksHtml) return undefined;
  const title = /<title[^>]*>([^<]*)<\/title>/i.exec(text)?.[1]?.replace(/\s+/g, ' ').trim();
  if (title) return `an HTML page titled ${JSON.stringify(title.slice(0, SHOWN_HTML))}`;
  const words = text
    .replace(/<(script|style)\b[\s\S]*?<\/\1>/gi, ' ')
    .replace(/<[^>]*>/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return words ? `an HTML page: ${JSON.stringify(words.slice(0, SHOWN_HTML))}` : 'an HTML page';
}
