/**
 * The report page's script, run by the browser from the file itself (no network: the page's
 * Content-Security-Policy allows nothing to be fetched). It reads the embedded report document
 * and draws the summary band, the accounts table (sorted, filtered, paged), the certificate
 * timeline (SVG) and one account's details at a time (`#account-<n>`). Every value of the
 * document is put in the page as text (textContent, createTextNode), never parsed as HTML.
 */
export const PAGE_SCRIPT = String.raw`
'use strict';
performance.mark('ncalc-start');
const SVGNS = 'http://www.w3.org/2000/svg';
const PAGE_SIZES = [25, 50, 100, 250];
const TIMELINE_ROWS = 30;
const STATUS_WORDS = { in_sync: 'in sync', drift: 'drift', failed: 'failed' };
const STATE_WORDS = { fires: 'fires now', quiet: 'quiet', unknown: 'cannot evaluate' };
const DRIFT_SHORT = { new: 'new target', missing: 'missing', edited: 'edited', renamed: 'renamed', unmanaged: 'unmanaged', duplicate: 'duplicate' };

function h(tag, attrs, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k === 'class') el.className = v;
    else if (k === 'onclick') el.addEventListener('click', v);
    else el.setAttribute(k, v === true ? '' : String(v));
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    el.appendChild(typeof c === 'object' ? c : document.createTextNode(String(c)));
  }
  return el;
}
function s(tag, attrs, text) {
  const el = document.createElementNS(SVGNS, tag);
  for (const [k, v] of Object.entries(attrs || {})) el.setAttribute(k, String(v));
  if (text !== undefined) el.textContent = String(text);
  return el;
}
const value = (v) => (v === null || v === undefined ? '(none)' : typeof v === 'string' ? JSON.stringify(v) : String(v));
const plural = (n, word, many) => n + ' ' + (n === 1 ? word : many || word + 's');
const badge = (cls, text) => h('span', { class: 'badge s-' + cls }, text);

async function readData(id) {
  const el = document.getElementById(id);
  if (el.getAttribute('data-encoding') !== 'gzip-base64') return JSON.parse(el.textContent);
  const bin = atob(el.textContent.trim());
  const bytes = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
  const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream('gzip'));
  return JSON.parse(await new Response(stream).text());
}

function driftOf(a) {
  const counts = {};
  for (const c of a.changes) counts[c.drift] = (counts[c.drift] || 0) + 1;
  return Object.keys(counts).map((k) => counts[k] + ' ' + DRIFT_SHORT[k]).join(', ');
}

// ---- summary band ----
function summary(doc) {
  const t = doc.summary;
  const items = [
    ['accounts', 'accounts', t.accounts, ''],
    ['in_sync', 'in sync', t.in_sync, 'ok'],
    ['drift', 'drifted', t.drift, t.drift ? 'warn' : 'ok'],
    ['failed', 'failed', t.failed, t.failed ? 'bad' : 'ok'],
    ['firing', 'alerts firing now', t.firing, t.firing ? 'bad' : 'ok'],
  ];
  if (t.certificates) {
    items.push(['expiring_14', 'certificates expiring within 14 days', t.certificates.expiring_14, t.certificates.expiring_14 ? 'bad' : 'ok']);
    items.push(['expiring_30', 'certificates expiring within 30 days', t.certificates.expiring_30, t.certificates.expiring_30 ? 'warn' : 'ok']);
  }
  items.push(['coverage_gaps', 'coverage gaps', t.coverage_gaps, t.coverage_gaps ? 'warn' : 'ok']);
  const band = document.getElementById('summary');
  band.replaceChildren(...items.map(([key, label, n, cls]) =>
    h('li', { class: cls, 'data-summary': key }, h('span', { class: 'n' }, n), label)));
  const p = t.preview;
  const line = document.getElementById('summary-line');
  line.textContent =
    'Planned: ' + t.create + ' to create, ' + t.update + ' to update, ' + t.delete + ' to delete, ' + t.unchanged + ' unchanged. ' +
    (p ? 'Preview of ' + plural(p.alerts, 'alert') + ': ' + p.fires + ' fire now, ' + p.quiet + ' quiet, ' + p.unknown + ' cannot be evaluated.'
       : 'No preview (--no-preview): nothing was looked up.');
}

// ---- accounts table ----
const COLUMNS = [
  { key: 'label', label: 'Account', get: (a) => a.label.toLowerCase() },
  { key: 'status', label: 'Status', get: (a) => ({ failed: 0, drift: 1, in_sync: 2 })[a.status] },
  { key: 'changes', label: 'Changes', num: true, get: (a) => a.summary.create + a.summary.update + a.summary.delete },
  { key: 'drift', label: 'Drift', get: (a) => a.changes.length },
  { key: 'firing', label: 'Firing', num: true, get: (a) => a.summary.firing },
  { key: 'gaps', label: 'Gaps', num: true, get: (a) => a.summary.coverage_gaps },
];
const state = { sort: 'status', dir: 1, filter: '', status: 'all', page: 0, size: 50 };

function rowsOf(doc) {
  const q = state.filter.trim().toLowerCase();
  const rows = [];
  doc.accounts.forEach((a, i) => {
    if (state.status !== 'all' && a.status !== state.status) return;
    if (q && !(a.label.toLowerCase().includes(q) || a.base_url.toLowerCase().includes(q) || a.stacks.some((x) => x.toLowerCase().includes(q)))) return;
    rows.push(i);
  });
  const col = COLUMNS.find((c) => c.key === state.sort);
  const dir = state.dir;
  rows.sort((x, y) => {
    const a = col.get(doc.accounts[x]);
    const b = col.get(doc.accounts[y]);
    return (a < b ? -dir : a > b ? dir : 0) || x - y;
  });
  return rows;
}

function tableHead(doc) {
  const tr = document.getElementById('accounts-head');
  tr.replaceChildren(...COLUMNS.map((c) => {
    const sorted = state.sort === c.key ? (state.dir === 1 ? 'ascending' : 'descending') : 'none';
    return h('th', { scope: 'col', class: c.num ? 'num' : null, 'aria-sort': sorted },
      h('button', { type: 'button', 'data-sort': c.key, onclick: () => {
        if (state.sort === c.key) state.dir = -state.dir; else { state.sort = c.key; state.dir = c.num || c.key === 'drift' ? -1 : 1; }
        state.page = 0;
        table(doc);
        document.querySelector('th button[data-sort="' + c.key + '"]').focus();
      } }, c.label));
  }));
}

function table(doc) {
  tableHead(doc);
  const rows = rowsOf(doc);
  const pages = Math.max(1, Math.ceil(rows.length / state.size));
  state.page = Math.min(state.page, pages - 1);
  const shown = rows.slice(state.page * state.size, (state.page + 1) * state.size);
  document.getElementById('accounts-body').replaceChildren(...shown.map((i) => {
    const a = doc.accounts[i];
    const t = a.summary;
    return h('tr', { 'data-account': i, 'data-status': a.status },
      h('td', {}, h('a', { href: '#account-' + i }, a.label), h('div', { class: 'muted mono' }, a.base_url)),
      h('td', {}, badge(a.status, STATUS_WORDS[a.status]), a.error ? h('div', { class: 'error' }, a.error) : null),
      h('td', { class: 'num' }, '+' + t.create + ' ~' + t.update + ' −' + t.delete),
      h('td', {}, driftOf(a) || '—'),
      h('td', { class: 'num' }, t.firing),
      h('td', { class: 'num' }, t.coverage_gaps));
  }));
  const count = document.getElementById('accounts-count');
  count.textContent = rows.length === doc.accounts.length
    ? plural(rows.length, 'account')
    : rows.length + ' of ' + plural(doc.accounts.length, 'account') + ' match';
  document.getElementById('page-info').textContent = 'Page ' + (state.page + 1) + ' of ' + pages;
  document.getElementById('prev').disabled = state.page === 0;
  document.getElementById('next').disabled = state.page >= pages - 1;
}

function controls(doc) {
  const size = document.getElementById('page-size');
  size.replaceChildren(...PAGE_SIZES.map((n) => h('option', { value: n, selected: n === state.size }, n)));
  document.getElementById('filter').addEventListener('input', (e) => { state.filter = e.target.value; state.page = 0; table(doc); });
  document.getElementById('status-filter').addEventListener('change', (e) => { state.status = e.target.value; state.page = 0; table(doc); });
  size.addEventListener('change', (e) => { state.size = Number(e.target.value); state.page = 0; table(doc); });
  document.getElementById('prev').addEventListener('click', () => { state.page--; table(doc); });
  document.getElementById('next').addEventListener('click', () => { state.page++; table(doc); });
}

// ---- certificate timeline ----
function timeline(doc, limit) {
  const box = document.getElementById('timeline');
  const certs = doc.certificates;
  if (!certs) { box.replaceChildren(h('p', {}, 'No certificates were read: the report was made with --no-preview.')); return; }
  if (!certs.length) { box.replaceChildren(h('p', {}, 'No certificate alert was evaluated.')); return; }
  const shown = certs.slice(0, limit);
  const marks = (c) => [c.days_left, c.renewal_in_days, ...c.alerts.filter((a) => a.threshold !== null).map((a) => c.days_left - a.threshold)];
  let lo = Math.min(0, ...shown.map((c) => Math.min(...marks(c))));
  let hi = Math.max(14, ...shown.map((c) => Math.max(...marks(c))));
  lo = Math.floor(lo / 7) * 7; hi = Math.ceil(hi / 7) * 7;
  const labelW = 240, plotW = 680, rowH = 26, top = 28, bottom = 34;
  const width = labelW + plotW + 20, height = top + shown.length * rowH + bottom;
  const x = (d) => labelW + ((d - lo) / (hi - lo)) * plotW;
  const svg = s('svg', { viewBox: '0 0 ' + width + ' ' + height, width: '100%', role: 'img', 'aria-labelledby': 'timeline-title timeline-desc', 'data-lo': lo, 'data-hi': hi });
  svg.appendChild(s('title', { id: 'timeline-title' }, 'Certificate expiry timeline'));
  svg.appendChild(s('desc', { id: 'timeline-desc' },
    'Days from now on the horizontal axis, one host per row: the bar ends at the certificate\'s expiry, the green line is its renewal at a third of its lifetime left, each diamond the day an expiry alert starts to fire.'));
  const step = hi - lo > 180 ? 30 : hi - lo > 60 ? 14 : 7;
  const axis = s('g', { class: 'axis' });
  for (let d = Math.ceil(lo / step) * step; d <= hi; d += step) {
    axis.appendChild(s('line', { class: 'grid', x1: x(d), x2: x(d), y1: top - 6, y2: height - bottom + 4 }));
    axis.appendChild(s('text', { x: x(d), y: height - bottom + 18, 'text-anchor': 'middle' }, d === 0 ? 'today' : (d > 0 ? '+' : '') + d + ' d'));
  }
  svg.appendChild(axis);
  shown.forEach((c, row) => {
    const y = top + row * rowH;
    const g = s('g', { class: 'cert', 'data-host': c.host, 'data-days-left': c.days_left, 'data-renewal': c.renewal_in_days, 'data-not-after': c.not_after });
    const label = s('text', { x: labelW - 8, y: y + 16, 'text-anchor': 'end' }, c.host.length > 34 ? c.host.slice(0, 33) + '…' : c.host);
    label.appendChild(s('title', {}, c.host + ': expires ' + c.not_after.slice(0, 10) + ' (' + c.days_left + ' days)'));
    g.appendChild(label);
    const x0 = x(Math.min(0, c.days_left)), x1 = x(Math.max(0, c.days_left));
    g.appendChild(s('rect', { class: 'life' + (c.days_left <= 14 ? ' soon' : ''), x: x0, y: y + 6, width: Math.max(1, x1 - x0), height: rowH - 12, 'data-day': c.days_left }));
    g.appendChild(s('line', { class: 'renewal', x1: x(c.renewal_in_days), x2: x(c.renewal_in_days), y1: y + 2, y2: y + rowH - 2, 'data-day': c.renewal_in_days }));
    for (const a of c.alerts) {
      if (a.threshold === null) continue;
      const d = Math.round((c.days_left - a.threshold) * 100) / 100;
      const cx = x(d), cy = y + rowH / 2;
      const m = s('path', { class: 'threshold' + (a.state === 'fires' ? '' : ' quiet'), d: 'M' + cx + ' ' + (cy - 6) + 'l6 6l-6 6l-6 -6z',
        'data-threshold': a.threshold, 'data-day': d, 'data-account': doc.accounts[a.account].label, 'data-alert': a.name });
      m.appendChild(s('title', {}, doc.accounts[a.account].label + ' / ' + a.name + ': threshold ' + a.threshold + ' days, ' + (d <= 0 ? 'fires now' : 'fires in ' + d + ' days')));
      g.appendChild(m);
    }
    svg.appendChild(g);
  });
  svg.appendChild(s('line', { class: 'today', x1: x(0), x2: x(0), y1: top - 10, y2: height - bottom + 4 }));
  const more = certs.length > shown.length
    ? h('button', { type: 'button', class: 'noprint', onclick: () => timeline(doc, limit + TIMELINE_ROWS) },
        'Show ' + Math.min(TIMELINE_ROWS, certs.length - shown.length) + ' more (' + shown.length + ' of ' + certs.length + ' hosts shown)')
    : null;
  box.replaceChildren(...[h('div', { class: 'scroll' }, svg), more].filter(Boolean));
}

// ---- one account ----
function section(title, ...content) { return [h('h3', {}, title), ...content]; }
function simpleTable(head, rows) {
  return h('div', { class: 'scroll' }, h('table', {}, h('thead', {}, h('tr', {}, head.map((x) => h('th', { scope: 'col' }, x)))), h('tbody', {}, rows)));
}

// The verdicts are read when the first account is opened.
let previewData = null;
const previews = () => previewData || (previewData = readData('ncalc-report-previews'));

async function details(doc, i) {
  const box = document.getElementById('details');
  const a = doc.accounts[i];
  if (!a) { box.hidden = true; box.replaceChildren(); return; }
  const preview = (await previews())[i];
  // Another account was asked for while the verdicts were read: that one is drawn instead.
  if (location.hash !== '#account-' + i) return;
  const out = [
    h('h2', { id: 'account-title', tabindex: '-1' }, 'Account ', h('span', { class: 'mono' }, a.label), ' ', badge(a.status, STATUS_WORDS[a.status])),
    h('p', { class: 'meta' }, h('span', { class: 'mono' }, a.base_url), ' · ' + a.identity + ' · stacks: ' + a.stacks.join(', ')),
    h('p', { class: 'noprint' }, h('a', { href: '#accounts' }, 'Back to the accounts')),
  ];
  if (a.error) out.push(h('p', { class: 'error' }, a.error));
  for (const w of a.warnings) out.push(h('p', { class: 'warning' }, '! ' + w));
  out.push(...section('Planned changes and drift (' + a.changes.length + ')',
    a.changes.length
      ? simpleTable(['Action', 'Alert', 'Id', 'Drift', 'Fields'], a.changes.map((c) => h('tr', { 'data-change': c.action },
          h('td', {}, c.action), h('td', { class: 'mono' }, c.name), h('td', {}, c.id === null ? '—' : c.id), h('td', {}, c.explain),
          h('td', {}, c.fields.map((f) => h('div', { class: 'mono' }, f.field + ': ' + value(f.before) + ' → ' + value(f.after)))))))
      : h('p', {}, a.status === 'failed' ? 'Not planned: the account could not be read.' : 'None: the live alerts match the code (' + a.summary.unchanged + ' unchanged).')));
  if (a.triggered.length)
    out.push(...section('Triggered now, says the service (' + a.triggered.length + ')',
      h('ul', {}, a.triggered.map((t) => h('li', {}, h('span', { class: 'mono' }, t.name), ' (id ' + t.id + ')' + (t.last_triggered_at ? ', last triggered ' + t.last_triggered_at : ''))))));
  if (preview === null) out.push(...section('Preview', h('p', {}, doc.preview ? 'Not evaluated: the account could not be planned.' : 'Not evaluated (--no-preview).')));
  else
    out.push(...section('Preview: each alert evaluated now (' + preview.length + ')',
      preview.length
        ? simpleTable(['Now', 'Alert', 'Plan', 'Target', 'Observed'], preview.map((p) => h('tr', { 'data-state': p.state },
            h('td', {}, badge(p.state, STATE_WORDS[p.state])), h('td', { class: 'mono' }, p.name), h('td', {}, p.plan),
            h('td', { class: 'mono' }, p.host || '—'),
            h('td', {}, p.state === 'unknown' ? p.reason : p.observed, p.warning ? h('div', { class: 'warning' }, '! ' + p.warning) : null))))
        : h('p', {}, 'No alert to evaluate.')));
  out.push(...section('Coverage gaps (' + a.coverage_gaps.length + ')',
    a.coverage_gaps.length
      ? simpleTable(['Target', 'Check', 'Policy'], a.coverage_gaps.map((g) => h('tr', {},
          h('td', {}, g.target_type + ' ', h('span', { class: 'mono' }, g.target)), h('td', {}, g.check), h('td', { class: 'mono' }, g.policy + ' (' + g.mode + ')'))))
      : h('p', {}, 'None.')));
  box.replaceChildren(...out);
  box.hidden = false;
}

async function route(doc, focus) {
  const m = /^#account-(\d+)$/.exec(location.hash);
  await details(doc, m ? Number(m[1]) : -1);
  if (m && focus) {
    const title = document.getElementById('account-title');
    if (title) { title.focus(); title.scrollIntoView(); }
  }
}

readData('ncalc-report-data').then(async (doc) => {
  summary(doc);
  controls(doc);
  table(doc);
  timeline(doc, TIMELINE_ROWS);
  await route(doc, false);
  window.addEventListener('hashchange', () => route(doc, true));
  // When the page is drawn, for the benchmark (bench/report-html.ts).
  performance.mark('ncalc-ready');
  document.body.setAttribute('data-ready', 'true');
}, (e) => {
  document.getElementById('summary-line').textContent = 'The report could not be read: ' + e.message;
  document.body.setAttribute('data-ready', 'error');
});
`;
