/**
 * The report page's script, run by the browser from the file itself (no network: the page's
 * Content-Security-Policy allows nothing to be fetched). It reads the embedded report document
 * and draws the summary band, the accounts table (sorted, filtered, paged), the certificate
 * timeline (SVG) and one account's details at a time (`#account-<n>`). Every value of the
 * document is put in the page as text (textContent, createTextNode), never parsed as HTML, and
 * every name placed inline is isolated (<bdi>) so that its direction cannot reorder the page's.
 * The summary cards filter the table; its default order puts what needs attention first.
 */
export const PAGE_SCRIPT = String.raw`
'use strict';
performance.mark('ncalc-start');
const SVGNS = 'http://www.w3.org/2000/svg';
const PAGE_SIZES = [25, 50, 100, 250];
const TIMELINE_ROWS = 50;
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
// A name from the app or the service, isolated so that its own direction (U+202E…) never
// reorders the page's words around it: <bdi> in HTML, FSI…PDI in plain text (SVG titles).
const bdi = (text, cls) => h('bdi', { class: cls || null }, text);
const iso = (text) => '\u2068' + text + '\u2069';
const NOT_EVALUATED = 'not evaluated';
const muted = (text) => h('span', { class: 'muted' }, text);
const days = (d) => (d < 0 ? 'expired ' + Math.abs(d) + ' d ago' : d + ' d left');

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
const byKind = (kinds) => Object.keys(kinds || {}).sort().map((k) => kinds[k] + ' ' + k).join(' · ');
const failed = (a) => a.status === 'failed';
const soonest = (a) => (a.summary.soonest_expiry ? a.summary.soonest_expiry.days_left : null);
const within = (a, d) => soonest(a) !== null && soonest(a) <= d;

// What each summary card, and the "Show" select, keeps in the table.
const SHOW = {
  all: () => true,
  attention: (a) => failed(a) || a.status === 'drift' || a.summary.firing > 0 || within(a, 30) || a.summary.coverage_gaps > 0,
  failed,
  drift: (a) => a.status === 'drift',
  in_sync: (a) => a.status === 'in_sync',
  firing: (a) => a.summary.firing > 0,
  expiring_14: (a) => within(a, 14),
  expiring_30: (a) => within(a, 30),
  coverage_gaps: (a) => a.summary.coverage_gaps > 0,
};

// ---- summary band ----
function summaryItems(doc) {
  const t = doc.summary;
  const attention = doc.accounts.filter(SHOW.attention).length;
  const items = [
    ['all', 'accounts', t.accounts, ''],
    ['attention', 'need attention', attention, attention ? 'warn' : 'ok'],
    ['in_sync', 'in sync', t.in_sync, 'ok'],
    ['drift', 'drifted', t.drift, t.drift ? 'warn' : 'ok'],
    ['failed', 'failed', t.failed, t.failed ? 'bad' : 'ok'],
    ['firing', 'alerts firing now', t.firing, t.firing ? 'bad' : 'ok', byKind(t.firing_by_kind), t.firing_not_evaluated],
  ];
  if (t.certificates) {
    const c = t.certificates;
    items.push(['expiring_14', 'certificates expiring within 14 days', c.expiring_14, c.expiring_14 ? 'bad' : 'ok', '', c.not_evaluated]);
    items.push(['expiring_30', 'certificates expiring within 30 days', c.expiring_30, c.expiring_30 ? 'warn' : 'ok', '', c.not_evaluated]);
  }
  items.push(['coverage_gaps', 'coverage gaps', t.coverage_gaps, t.coverage_gaps ? 'warn' : 'ok']);
  return items;
}

function summary(doc) {
  const t = doc.summary;
  const band = document.getElementById('summary');
  band.replaceChildren(...summaryItems(doc).map(([key, label, n, cls, detail, notEvaluated]) => {
    // A figure none of whose alerts was evaluated is unknown, never a green 0.
    const unknown = n === null || n === undefined;
    const more = [detail, notEvaluated ? notEvaluated + ' not evaluated' : ''].filter(Boolean).join('; ');
    return h('li', { class: unknown ? 'unknown' : cls, 'data-summary': key },
      h('button', { type: 'button', 'data-show': key, 'aria-pressed': String(state.show === key), 'aria-controls': 'accounts-table',
        onclick: () => show(doc, state.show === key && key !== 'all' ? 'all' : key) },
        h('span', { class: 'n' }, unknown ? 'unknown' : n), label, more ? h('span', { class: 'more' }, more) : null));
  }));
  const p = t.preview;
  const left = p && p.accounts_not_evaluated
    ? ' The alerts of ' + plural(p.accounts_not_evaluated, 'failed account') + ' were not evaluated and are not counted.' : '';
  document.getElementById('summary-line').textContent =
    'Planned: ' + t.create + ' to create, ' + t.update + ' to update, ' + t.delete + ' to delete, ' + t.unchanged + ' unchanged' +
    (t.failed ? ' (' + plural(t.failed, 'account') + ' not planned)' : '') + '. ' +
    (p ? 'Preview of ' + plural(p.alerts, 'alert') + ': ' + p.fires + ' fire now, ' + p.quiet + ' quiet, ' + p.unknown + ' cannot be evaluated.' + left
       : 'No preview (--no-preview): nothing was looked up.');
}

function show(doc, key) {
  state.show = key;
  state.page = 0;
  document.getElementById('status-filter').value = key;
  for (const b of document.querySelectorAll('#summary button')) b.setAttribute('aria-pressed', String(b.getAttribute('data-show') === key));
  table(doc);
}

// ---- accounts table ----
// The order that needs attention first: failed, then drift, firing, soonest expiry, coverage gaps.
function attentionOrder(a, b) {
  const t = a.summary, u = b.summary;
  const ea = soonest(a), eb = soonest(b);
  return (a.status === 'drift' ? 0 : 1) - (b.status === 'drift' ? 0 : 1) ||
    (u.firing || 0) - (t.firing || 0) ||
    (ea === null ? Infinity : ea) - (eb === null ? Infinity : eb) ||
    (u.coverage_gaps || 0) - (t.coverage_gaps || 0);
}
const COLUMNS = [
  { key: 'label', label: 'Account', get: (a) => a.label.toLowerCase() },
  { key: 'status', label: 'Status', get: (a) => ({ failed: 0, drift: 1, in_sync: 2 })[a.status] },
  { key: 'changes', label: 'Changes', num: true, get: (a) => a.summary.create + a.summary.update + a.summary.delete },
  { key: 'drift', label: 'Drift', get: (a) => a.changes.length },
  { key: 'firing', label: 'Firing', num: true, get: (a) => a.summary.firing },
  { key: 'expiry', label: 'Soonest expiry', num: true, get: (a) => (soonest(a) === null ? Infinity : -soonest(a)) },
  { key: 'gaps', label: 'Gaps', num: true, get: (a) => a.summary.coverage_gaps },
];
const state = { sort: 'attention', dir: 1, filter: '', show: 'all', page: 0, size: 50 };

function rowsOf(doc) {
  const q = state.filter.trim().toLowerCase();
  const keep = SHOW[state.show] || SHOW.all;
  const rows = [];
  doc.accounts.forEach((a, i) => {
    if (!keep(a)) return;
    if (q && !(a.label.toLowerCase().includes(q) || a.base_url.toLowerCase().includes(q) || a.stacks.some((x) => x.toLowerCase().includes(q)))) return;
    rows.push(i);
  });
  const col = COLUMNS.find((c) => c.key === state.sort);
  const dir = state.dir;
  const accounts = doc.accounts;
  rows.sort((x, y) => {
    const a = accounts[x], b = accounts[y];
    // Failed accounts have no figures: they come first in every order, never among the healthy.
    const f = (failed(a) ? 0 : 1) - (failed(b) ? 0 : 1);
    if (f || failed(a)) return f || (a.label < b.label ? -1 : a.label > b.label ? 1 : x - y);
    if (!col) return attentionOrder(a, b) || x - y;
    const va = col.get(a), vb = col.get(b);
    return (va < vb ? -dir : va > vb ? dir : 0) || x - y;
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
  document.getElementById('order-attention').disabled = state.sort === 'attention';
}

function row(a, i) {
  const t = a.summary;
  const head = [
    h('td', {}, h('a', { href: '#account-' + i }, bdi(a.label)), h('div', { class: 'muted mono url', title: a.base_url }, a.base_url)),
    h('td', {}, badge(a.status, STATUS_WORDS[a.status]), a.error ? h('div', { class: 'error' }, a.error) : null),
  ];
  if (failed(a))
    return h('tr', { 'data-account': i, 'data-status': a.status }, ...head,
      h('td', { colspan: 5, class: 'not-evaluated' }, muted('Not evaluated: nothing of this account could be planned, previewed or checked for coverage.')));
  const e = t.soonest_expiry;
  return h('tr', { 'data-account': i, 'data-status': a.status }, ...head,
    h('td', { class: 'num' }, '+' + t.create + ' ~' + t.update + ' −' + t.delete),
    h('td', {}, driftOf(a) || '—'),
    h('td', { class: 'num' }, String(t.firing), t.firing ? h('div', { class: 'muted kinds' }, byKind(t.firing_by_kind)) : null),
    h('td', { class: 'num', 'data-days-left': e ? e.days_left : null }, e ? days(e.days_left) : '—', e ? h('div', { class: 'muted' }, bdi(e.host)) : null),
    h('td', { class: 'num' }, t.coverage_gaps));
}

function table(doc) {
  tableHead(doc);
  const rows = rowsOf(doc);
  const pages = Math.max(1, Math.ceil(rows.length / state.size));
  state.page = Math.min(state.page, pages - 1);
  const shown = rows.slice(state.page * state.size, (state.page + 1) * state.size);
  document.getElementById('accounts-body').replaceChildren(...shown.map((i) => row(doc.accounts[i], i)));
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
  document.getElementById('status-filter').addEventListener('change', (e) => show(doc, e.target.value));
  size.addEventListener('change', (e) => { state.size = Number(e.target.value); state.page = 0; table(doc); });
  document.getElementById('prev').addEventListener('click', () => { state.page--; table(doc); });
  document.getElementById('next').addEventListener('click', () => { state.page++; table(doc); });
  document.getElementById('order-attention').addEventListener('click', () => { state.sort = 'attention'; state.dir = 1; state.page = 0; table(doc); });
}

// ---- certificate timeline ----
// Every host, TIMELINE_ROWS at a time, of every account or of the one chosen; each row names
// the accounts whose alerts watch it and writes the days left beside its bar.
const timelineState = { account: 'all', limit: TIMELINE_ROWS };

function timelineControls(doc) {
  const select = document.getElementById('timeline-account');
  const watching = new Set();
  for (const c of doc.certificates || []) for (const a of c.alerts) watching.add(a.account);
  const order = [...watching].sort((x, y) => (doc.accounts[x].label < doc.accounts[y].label ? -1 : 1));
  select.replaceChildren(h('option', { value: 'all' }, 'every account (' + watching.size + ')'),
    ...order.map((i) => h('option', { value: i }, doc.accounts[i].label)));
  select.addEventListener('change', (e) => { timelineState.account = e.target.value; timelineState.limit = TIMELINE_ROWS; timeline(doc); });
}

function timelineRows(doc) {
  const certs = doc.certificates;
  if (timelineState.account === 'all') return certs;
  const i = Number(timelineState.account);
  return certs.filter((c) => c.alerts.some((a) => a.account === i)).map((c) => ({ ...c, alerts: c.alerts.filter((a) => a.account === i) }));
}

function owners(doc, c) {
  const labels = [...new Set(c.alerts.map((a) => doc.accounts[a.account].label))];
  return labels.length > 2 ? labels.slice(0, 2).join(', ') + ' +' + (labels.length - 2) : labels.join(', ');
}

function timeline(doc) {
  const box = document.getElementById('timeline');
  const certs = doc.certificates;
  if (!certs) { box.replaceChildren(h('p', {}, 'No certificates were read: the report was made with --no-preview.')); return; }
  const notEvaluated = doc.summary.certificates ? doc.summary.certificates.not_evaluated : 0;
  if (!certs.length) { box.replaceChildren(h('p', {}, notEvaluated ? 'Unknown: none of the ' + plural(notEvaluated, 'certificate alert') + ' could be evaluated.' : 'No certificate alert was evaluated.')); return; }
  const all = timelineRows(doc);
  const shown = all.slice(0, timelineState.limit);
  const marks = (c) => [c.days_left, c.renewal_in_days, ...c.alerts.filter((a) => a.threshold !== null).map((a) => c.days_left - a.threshold)];
  let lo = Math.min(0, ...shown.map((c) => Math.min(...marks(c))));
  let hi = Math.max(14, ...shown.map((c) => Math.max(...marks(c))));
  lo = Math.floor(lo / 7) * 7; hi = Math.ceil(hi / 7) * 7;
  const labelW = 300, plotW = 620, daysW = 110, rowH = 30, top = 28, bottom = 34;
  const width = labelW + plotW + daysW, height = top + shown.length * rowH + bottom;
  const x = (d) => labelW + ((d - lo) / (hi - lo)) * plotW;
  const svg = s('svg', { viewBox: '0 0 ' + width + ' ' + height, width: '100%', role: 'img', 'aria-labelledby': 'timeline-title timeline-desc', 'data-lo': lo, 'data-hi': hi });
  svg.appendChild(s('title', { id: 'timeline-title' }, 'Certificate expiry timeline'));
  svg.appendChild(s('desc', { id: 'timeline-desc' },
    'Days from now on the horizontal axis, one host per row with the accounts watching it and its days left: the bar ends at the certificate\'s expiry, the green line is its renewal at a third of its lifetime left, a filled diamond an expiry alert that fires now, a hollow one an alert still quiet, at the day it starts to fire.'));
  const step = hi - lo > 180 ? 30 : hi - lo > 60 ? 14 : 7;
  const axis = s('g', { class: 'axis' });
  for (let d = Math.ceil(lo / step) * step; d <= hi; d += step) {
    axis.appendChild(s('line', { class: 'grid', x1: x(d), x2: x(d), y1: top - 6, y2: height - bottom + 4 }));
    axis.appendChild(s('text', { x: x(d), y: height - bottom + 18, 'text-anchor': 'middle' }, d === 0 ? 'today' : (d > 0 ? '+' : '') + d + ' d'));
  }
  svg.appendChild(axis);
  shown.forEach((c, row) => svg.appendChild(timelineRow(doc, c, top + row * rowH, rowH, x, labelW, width)));
  svg.appendChild(s('line', { class: 'today', x1: x(0), x2: x(0), y1: top - 10, y2: height - bottom + 4 }));
  const rest = all.length - shown.length;
  const more = rest > 0
    ? h('p', { class: 'noprint' },
        h('button', { type: 'button', 'data-more': 'next', onclick: () => { timelineState.limit += TIMELINE_ROWS; timeline(doc); } }, 'Show ' + Math.min(TIMELINE_ROWS, rest) + ' more'), ' ',
        h('button', { type: 'button', 'data-more': 'all', onclick: () => { timelineState.limit = all.length; timeline(doc); } }, 'Show all ' + all.length + ' hosts'))
    : null;
  const count = h('p', { id: 'timeline-count', class: 'muted' }, shown.length + ' of ' + plural(all.length, 'host') + ' shown' +
    (notEvaluated ? '; ' + plural(notEvaluated, 'certificate alert') + ' could not be evaluated' : ''));
  box.replaceChildren(...[count, h('div', { class: 'scroll' }, svg), more].filter(Boolean));
}

function timelineRow(doc, c, y, rowH, x, labelW, width) {
  const g = s('g', { class: 'cert', 'data-host': c.host, 'data-days-left': c.days_left, 'data-renewal': c.renewal_in_days, 'data-not-after': c.not_after });
  const host = c.host.length > 40 ? c.host.slice(0, 39) + '…' : c.host;
  const label = s('text', { x: labelW - 8, y: y + 13, 'text-anchor': 'end', class: 'iso' }, host);
  label.appendChild(s('title', {}, iso(c.host) + ': expires ' + c.not_after.slice(0, 10) + ' (' + days(c.days_left) + ')'));
  g.appendChild(label);
  g.appendChild(s('text', { x: labelW - 8, y: y + 26, 'text-anchor': 'end', class: 'owner iso' }, owners(doc, c)));
  const x0 = x(Math.min(0, c.days_left)), x1 = x(Math.max(0, c.days_left));
  g.appendChild(s('rect', { class: 'life' + (c.days_left <= 14 ? ' soon' : ''), x: x0, y: y + 8, width: Math.max(1, x1 - x0), height: rowH - 16, 'data-day': c.days_left }));
  g.appendChild(s('line', { class: 'renewal', x1: x(c.renewal_in_days), x2: x(c.renewal_in_days), y1: y + 3, y2: y + rowH - 3, 'data-day': c.renewal_in_days }));
  for (const a of c.alerts) {
    if (a.threshold === null) continue;
    const d = Math.round((c.days_left - a.threshold) * 100) / 100;
    const cx = x(d), cy = y + rowH / 2;
    const account = doc.accounts[a.account].label;
    const m = s('path', { class: 'threshold' + (a.state === 'fires' ? '' : ' quiet'), d: 'M' + cx + ' ' + (cy - 6) + 'l6 6l-6 6l-6 -6z',
      'data-threshold': a.threshold, 'data-day': d, 'data-account': account, 'data-alert': a.name });
    m.appendChild(s('title', {}, iso(account) + ' / ' + iso(a.name) + ': threshold ' + a.threshold + ' days, ' + (d <= 0 ? 'fires now' : 'fires in ' + d + ' days')));
    g.appendChild(m);
  }
  g.appendChild(s('text', { x: width - 4, y: y + 19, 'text-anchor': 'end', class: 'days' + (c.days_left <= 14 ? ' soon' : '') }, days(c.days_left)));
  return g;
}

// ---- one account ----
function section(title, ...content) { return [h('h3', {}, title), ...content]; }
function simpleTable(head, rows) {
  return h('div', { class: 'scroll' }, h('table', {}, h('thead', {}, h('tr', {}, head.map((x) => h('th', { scope: 'col' }, x)))), h('tbody', {}, rows)));
}

// The verdicts are read when the first account is opened.
let previewData = null;
const previews = () => previewData || (previewData = readData('ncalc-report-previews'));

function changesSection(a) {
  if (a.changes === null)
    return section('Planned changes and drift: ' + NOT_EVALUATED, h('p', {}, 'Not planned: the account could not be read, so nothing is known of its drift.'));
  return section('Planned changes and drift (' + a.changes.length + ')',
    a.changes.length
      ? simpleTable(['Action', 'Alert', 'Id', 'Drift', 'Fields'], a.changes.map((c) => h('tr', { 'data-change': c.action, 'data-drift': c.drift },
          h('td', {}, c.action), h('td', { class: 'mono' }, bdi(c.name)), h('td', {}, c.id === null ? '—' : c.id), h('td', {}, c.explain),
          h('td', {}, c.fields.map((f) => h('div', { class: 'mono' }, f.field + ': ', bdi(value(f.before)), ' → ', bdi(value(f.after))))))))
      : h('p', {}, 'None: the live alerts match the code (' + a.summary.unchanged + ' unchanged).'));
}

function previewSection(doc, a, preview) {
  if (preview === null)
    return section('Preview: ' + NOT_EVALUATED, h('p', {}, !doc.preview ? 'Not evaluated (--no-preview).' : 'Not evaluated: the account could not be planned, so none of its alerts was evaluated.'));
  return section('Preview: each alert evaluated now (' + preview.length + ')',
    preview.length
      ? simpleTable(['Now', 'Alert', 'Plan', 'Target', 'Observed'], preview.map((p) => h('tr', { 'data-state': p.state },
          h('td', {}, badge(p.state, STATE_WORDS[p.state])), h('td', { class: 'mono' }, bdi(p.name)), h('td', {}, p.plan),
          h('td', { class: 'mono' }, p.host ? bdi(p.host) : '—'),
          h('td', {}, p.state === 'unknown' ? p.reason : p.observed, p.warning ? h('div', { class: 'warning' }, '! ' + p.warning) : null))))
      : h('p', {}, 'No alert to evaluate.'));
}

function gapsSection(a) {
  if (a.coverage_gaps === null)
    return section('Coverage gaps: ' + NOT_EVALUATED, h('p', {}, 'Not checked: the account could not be planned.'));
  return section('Coverage gaps (' + a.coverage_gaps.length + ')',
    a.coverage_gaps.length
      ? simpleTable(['Target', 'Check', 'Policy'], a.coverage_gaps.map((g) => h('tr', {},
          h('td', {}, g.target_type + ' ', h('span', { class: 'mono' }, bdi(g.target))), h('td', {}, g.check), h('td', { class: 'mono' }, g.policy + ' (' + g.mode + ')'))))
      : h('p', {}, 'None.'));
}

async function details(doc, i) {
  const box = document.getElementById('details');
  const a = doc.accounts[i];
  if (!a) { box.hidden = true; box.replaceChildren(); return; }
  const preview = (await previews())[i];
  // Another account was asked for while the verdicts were read: that one is drawn instead.
  if (location.hash !== '#account-' + i) return;
  const e = a.summary.soonest_expiry;
  const out = [
    h('h2', { id: 'account-title', tabindex: '-1' }, 'Account ', bdi(a.label, 'mono'), ' ', badge(a.status, STATUS_WORDS[a.status])),
    h('p', { class: 'meta' }, h('span', { class: 'mono url' }, a.base_url), ' · ' + a.identity + ' · stacks: ', ...a.stacks.flatMap((x, k) => [k ? ', ' : '', bdi(x)])),
    h('p', { class: 'noprint' }, h('a', { href: '#accounts' }, 'Back to the accounts')),
  ];
  if (a.error) out.push(h('p', { class: 'error' }, a.error));
  if (!failed(a))
    out.push(h('p', { class: 'facts' }, 'Firing now: ' + a.summary.firing + (a.summary.firing ? ' (' + byKind(a.summary.firing_by_kind) + ')' : '') +
      ' · soonest certificate expiry: ', e ? [bdi(e.host), ', ' + days(e.days_left)] : 'none read'));
  for (const w of a.warnings) out.push(h('p', { class: 'warning' }, '! ' + w));
  out.push(...changesSection(a));
  if (a.triggered.length)
    out.push(...section('Triggered now, says the service (' + a.triggered.length + ')',
      h('ul', {}, a.triggered.map((t) => h('li', {}, bdi(t.name, 'mono'), ' (id ' + t.id + ')' + (t.last_triggered_at ? ', last triggered ' + t.last_triggered_at : ''))))));
  out.push(...previewSection(doc, a, preview));
  out.push(...gapsSection(a));
  box.replaceChildren(...out);
  box.hidden = false;
}

// A page joined from the shards of a run (ncalc report --merge) says so under its title.
function joined(doc) {
  const m = doc.merged;
  if (!m) return;
  document.getElementById('joined').textContent = 'One page for the fleet, joined from ' + plural(m.shards, 'shard') + ' of one run' +
    (m.commit ? ' (commit ' + m.commit.slice(0, 12) + ')' : '') + '.';
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
  joined(doc);
  summary(doc);
  controls(doc);
  table(doc);
  timelineControls(doc);
  timeline(doc);
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
