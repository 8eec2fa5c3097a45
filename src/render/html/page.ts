/**
 * `ncalc report --html`: one self-contained HTML file. The report document is embedded as JSON
 * in a `<script type="application/json">` and the page's own script draws everything from it;
 * the stylesheet and the script are inline, and the page's Content-Security-Policy lets it
 * fetch nothing at all (no server, no CDN, no network when it is opened).
 */
import { createHash } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { PAGE_SCRIPT } from './page-script';
import { PAGE_STYLE } from './page-style';

/**
 * Above this size the document is embedded gzip-compressed (base64), which the page unpacks
 * with the browser's DecompressionStream: a fleet of 1,000 accounts × 100 alerts is tens of
 * megabytes of JSON and about a tenth of that compressed.
 */
export const INLINE_JSON_LIMIT = 1_000_000;

/**
 * JSON that can stand inside a `<script>` element: `<`, `>` and `&` as `\u003c`-style escapes
 * (still the same JSON), so no name can end the element (`</script>`) or open a comment
 * (`<!--`) that would change where it ends; U+2028 and U+2029 escaped too.
 */
export function scriptSafeJson(value: unknown): string {
  return JSON.stringify(value).replace(
    /[<>&\u2028\u2029]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

/** Text for HTML element content or a quoted attribute. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

/** A `<script type="application/json">` holding `value`, gzip-compressed (base64) when large. */
function dataElement(id: string, value: unknown): string {
  const json = scriptSafeJson(value);
  if (json.length <= INLINE_JSON_LIMIT) return `<script type="application/json" id="${id}">${json}</script>`;
  const packed = gzipSync(json, { level: 6 }).toString('base64');
  return `<script type="application/json" id="${id}" data-encoding="gzip-base64">${packed}</script>`;
}

const sha256 = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;

/** The page of a report document (`reportDocument`). `title`: the page's title. */
export function reportHtml(doc: Record<string, unknown>, title = 'NetworkCalc alerts report'): string {
  // The verdicts of every account apart: the page reads them when an account is opened, so the
  // first view of a large fleet parses only the rest.
  const accounts = doc.accounts as Array<Record<string, unknown>>;
  const index = { ...doc, accounts: accounts.map(({ preview: _, ...a }) => a) };
  const previews = accounts.map((a) => a.preview ?? null);
  const csp = [
    "default-src 'none'",
    `script-src ${sha256(PAGE_SCRIPT)}`,
    `style-src ${sha256(PAGE_STYLE)}`,
    "img-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
  ].join('; ');
  const generated = typeof doc.generated_at === 'string' ? doc.generated_at.replace(/\.\d+Z$/, 'Z') : '';
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${escapeHtml(csp)}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="ncalc report">
<title>${escapeHtml(title)}</title>
<style>${PAGE_STYLE}</style>
</head>
<body>
<a class="skip" href="#accounts">Skip to the accounts</a>
<header>
<h1>${escapeHtml(title)}</h1>
<p class="meta">Made by <code>ncalc report</code> at ${escapeHtml(generated)}: the plan of every account, drift, what fires now, certificates and coverage.</p>
<p class="meta" id="joined"></p>
</header>
<main>
<section aria-labelledby="summary-title">
<h2 id="summary-title">Summary</h2>
<ul class="band" id="summary" aria-label="Each figure shows its accounts in the table"></ul>
<p id="summary-line"></p>
</section>
<section aria-labelledby="accounts-title">
<h2 id="accounts" tabindex="-1"><span id="accounts-title">Accounts</span> <span class="muted" id="accounts-count"></span></h2>
<div class="controls">
<label for="filter">Filter by name, base URL or stack<input id="filter" type="search" autocomplete="off"></label>
<label for="status-filter">Show<select id="status-filter">
<option value="all">all</option><option value="attention">need attention</option><option value="failed">failed</option><option value="drift">drift</option><option value="in_sync">in sync</option><option value="firing">firing now</option><option value="expiring_14">expiring within 14 days</option><option value="expiring_30">expiring within 30 days</option><option value="coverage_gaps">coverage gaps</option>
</select></label>
<label for="page-size">Rows per page<select id="page-size"></select></label>
<button type="button" id="order-attention">Order by what needs attention</button>
</div>
<div class="scroll"><table id="accounts-table">
<caption class="skip">Accounts; sort by a column with its header button</caption>
<thead><tr id="accounts-head"></tr></thead>
<tbody id="accounts-body"></tbody>
</table></div>
<nav class="pager" aria-label="Pages of accounts">
<button type="button" id="prev">Previous page</button>
<span id="page-info" aria-live="polite"></span>
<button type="button" id="next">Next page</button>
</nav>
</section>
<section aria-labelledby="timeline-heading">
<h2 id="timeline-heading">Certificate expiry</h2>
<div class="controls"><label for="timeline-account">Hosts watched by<select id="timeline-account"></select></label></div>
<p class="legend"><span class="l-life">days until expiry</span><span class="l-soon">expires within 14 days</span><span class="l-renewal">renewal (a third of the lifetime left)</span><span class="l-fires">an expiry alert that fires now, at its threshold</span><span class="l-quiet">an expiry alert still quiet: it fires from this day</span><span class="l-today">today</span></p>
<div id="timeline"></div>
</section>
<section class="details" id="details" aria-live="polite" hidden></section>
</main>
<footer>Self-contained: this file loads nothing from the network. Secrets are never written into it.</footer>
${dataElement('ncalc-report-data', index)}
${dataElement('ncalc-report-previews', previews)}
<script>${PAGE_SCRIPT}</script>
</body>
</html>
`;
}
