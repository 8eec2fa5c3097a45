/**
 * The report page's stylesheet. Every colour pair of text on its background has a contrast of
 * at least 4.5:1 (WCAG AA for normal text), every mark of the timeline at least 3:1 against the
 * page; states are told by words and shapes too (a filled diamond fires, a hollow one is quiet),
 * never by colour alone. The print rules drop the controls and keep what is on screen.
 */
export const PAGE_STYLE = `
:root {
  --fg: #1a1a1a; --muted: #4a4a4a; --bg: #ffffff; --panel: #f4f5f7; --line: #c4c8cf;
  --link: #0645ad; --focus: #1a4fd6;
  --ok: #17602a; --ok-bg: #e3f4e7; --warn: #7a4a00; --warn-bg: #fff1d6; --bad: #a4161a; --bad-bg: #fde7e7;
  /* Timeline bars: at least 3:1 against the page (WCAG 1.4.11, graphics), and apart from each other. */
  --bar: #3f6fb5; --bar-soon: #c2410c;
}
* { box-sizing: border-box; }
body { margin: 0; font: 15px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--fg); background: var(--bg); }
header, main, footer { max-width: 1200px; margin: 0 auto; padding: 0 16px; }
header { padding-top: 16px; }
h1 { font-size: 1.5rem; margin: 0 0 4px; }
h2 { font-size: 1.2rem; margin: 28px 0 8px; }
h3 { font-size: 1.05rem; margin: 20px 0 6px; }
p.meta, .muted { color: var(--muted); }
a { color: var(--link); }
a:focus-visible, button:focus-visible, input:focus-visible, select:focus-visible, [tabindex]:focus-visible {
  outline: 3px solid var(--focus); outline-offset: 2px;
}
.skip { position: absolute; left: -9999px; }
.skip:focus { left: 16px; top: 8px; background: var(--bg); padding: 4px 8px; z-index: 2; }
.band { display: grid; grid-template-columns: repeat(auto-fit, minmax(130px, 1fr)); gap: 8px; margin: 16px 0; padding: 0; list-style: none; }
.band li { display: flex; }
.band button { all: unset; box-sizing: border-box; width: 100%; cursor: pointer; background: var(--panel); border: 1px solid var(--line); border-radius: 6px; padding: 8px 10px; }
.band button[aria-pressed="true"] { border: 2px solid var(--focus); background: var(--bg); }
.band button:focus-visible { outline: 3px solid var(--focus); outline-offset: 2px; }
.band .n { display: block; font-size: 1.6rem; font-weight: 700; }
.band .more { display: block; font-size: .8rem; color: var(--muted); }
.band .ok .n { color: var(--ok); } .band .warn .n { color: var(--warn); } .band .bad .n { color: var(--bad); } .band .unknown .n { color: var(--muted); }
bdi, .iso { unicode-bidi: isolate; }
.url { overflow-wrap: normal; white-space: nowrap; }
td .url { max-width: 28ch; overflow: hidden; text-overflow: ellipsis; }
.controls { display: flex; flex-wrap: wrap; gap: 12px; align-items: end; margin: 8px 0; }
.controls label { display: flex; flex-direction: column; font-size: .85rem; color: var(--muted); }
input, select, button { font: inherit; color: var(--fg); }
input, select { border: 1px solid #767676; border-radius: 4px; padding: 4px 6px; background: var(--bg); }
button { border: 1px solid #767676; border-radius: 4px; padding: 4px 10px; background: var(--panel); cursor: pointer; }
button[disabled] { color: #6b6b6b; cursor: default; }
table { border-collapse: collapse; width: 100%; }
th, td { text-align: left; padding: 5px 8px; border-bottom: 1px solid var(--line); vertical-align: top; }
th { background: var(--panel); font-weight: 600; }
th button { all: unset; cursor: pointer; font-weight: 600; display: inline-flex; gap: 4px; }
th button:focus-visible { outline: 3px solid var(--focus); outline-offset: 2px; }
th[aria-sort="ascending"] button::after { content: "▲"; }
th[aria-sort="descending"] button::after { content: "▼"; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
.badge { display: inline-block; padding: 0 6px; border-radius: 4px; font-size: .85rem; font-weight: 600; white-space: nowrap; }
.s-in_sync, .s-quiet { color: var(--ok); background: var(--ok-bg); }
.s-drift, .s-unknown { color: var(--warn); background: var(--warn-bg); }
.s-failed, .s-fires { color: var(--bad); background: var(--bad-bg); }
.pager { display: flex; gap: 8px; align-items: center; margin: 8px 0; }
code, .mono { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: .9em; overflow-wrap: anywhere; }
.details { border-top: 2px solid var(--line); margin-top: 24px; }
.warning { color: var(--warn); }
.error { color: var(--bad); }
svg text { font: 12px system-ui, sans-serif; fill: var(--fg); }
svg .axis line, svg .grid { stroke: var(--line); }
svg .today { stroke: var(--fg); stroke-width: 2; }
svg .life { fill: var(--bar); }
svg .life.soon { fill: var(--bar-soon); }
svg .renewal { stroke: var(--ok); stroke-width: 3; }
svg .threshold { fill: var(--bad); stroke: var(--fg); stroke-width: 1; }
svg .threshold.quiet { fill: var(--bg); stroke: var(--fg); stroke-width: 2; }
svg text.owner { fill: var(--muted); font-size: 11px; }
svg text.days { font-variant-numeric: tabular-nums; } svg text.days.soon { fill: var(--bad); font-weight: 700; }
.legend { display: flex; flex-wrap: wrap; gap: 16px; font-size: .9rem; margin: 4px 0; }
.legend span::before { content: ""; display: inline-block; width: 12px; height: 12px; margin-right: 4px; vertical-align: -1px; }
.legend .l-life::before { background: var(--bar); } .legend .l-soon::before { background: var(--bar-soon); }
.legend .l-renewal::before { background: var(--ok); width: 3px; }
.legend .l-fires::before { background: var(--bad); border: 1px solid var(--fg); transform: rotate(45deg); width: 9px; height: 9px; }
.legend .l-quiet::before { background: var(--bg); border: 2px solid var(--fg); transform: rotate(45deg); width: 7px; height: 7px; }
.legend .l-today::before { background: var(--fg); width: 2px; }
.scroll { overflow-x: auto; }
footer { margin: 32px auto 24px; font-size: .85rem; color: var(--muted); }
@media print {
  body { font-size: 11pt; }
  .controls, .pager, .skip, .noprint { display: none !important; }
  a { color: inherit; text-decoration: none; }
  tr, li, svg { break-inside: avoid; }
  .details { break-before: page; }
}
`;
