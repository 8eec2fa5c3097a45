/**
 * The report page's file, without a browser (the browser tests are test/cli/report-html.e2e.test.ts):
 * the data escaped so no name can end its element, a large document embedded gzip-compressed
 * and unpacked to exactly the `--json` document, and no token in either form. The CLI runs
 * in-process against the emulator on 127.0.0.1.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { INLINE_JSON_LIMIT, reportHtml, scriptSafeJson } from '../../src/render/html/page';
import { useEmulator } from '../helpers/emulator';
import { FixtureApp, alert, cliEnv, ncalc, stack } from '../cli/support';

const TOKEN = 'html-unit-token-93be1';
const emulator = useEmulator({
  seed: {
    accounts: [
      { name: 'big', user_id: 1, tokens: [{ access_token: TOKEN }], domains: [{ id: 1, domain: 'example.com' }] },
    ],
  },
});
let dir: string;
beforeAll(() => (dir = mkdtempSync(path.join(tmpdir(), 'ncalc-html-'))));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The data elements of a page: id → their text and encoding. */
function dataElements(html: string): Map<string, { text: string; encoding: string | null }> {
  const out = new Map<string, { text: string; encoding: string | null }>();
  for (const m of html.matchAll(
    /<script type="application\/json" id="([^"]+)"(?: data-encoding="([^"]+)")?>([^]*?)<\/script>/g,
  ))
    out.set(m[1]!, { text: m[3]!, encoding: m[2] ?? null });
  return out;
}

test('GIVEN names that would end a script element or open a comment THEN the JSON holds none of <, >, & and reads back the same', () => {
  const value = { name: '</script><!-- x --><script>alert(1)</script> & \u2028 \u2029', n: [1, '<b>'] };
  const json = scriptSafeJson(value);
  expect(json).not.toMatch(/[<>&\u2028\u2029]/);
  expect(JSON.parse(json)).toEqual(value);
  const html = reportHtml({
    generated_at: '2026-11-27T00:00:00.000Z',
    accounts: [{ label: value.name, preview: null }],
  });
  expect(html.match(/<script/g)).toHaveLength(3);
  expect(html.match(/<\/script>/g)).toHaveLength(3);
  expect(html).not.toContain('<!-- x');
});

test('GIVEN a plan of 6,000 creates (over the inline limit) WHEN reported THEN the page holds it gzip-compressed, it unpacks to the --json document, and no form holds the token', async () => {
  const alerts = Object.fromEntries(
    Array.from({ length: 6000 }, (_, i) => [
      `A${i}`,
      alert({ name: `alert ${i} of a large plan`, filter_value: `192.0.2.${i % 250}` }),
    ]),
  );
  const app = new FixtureApp({ big: stack({ provider: {}, alerts }) });
  try {
    const file = path.join(dir, 'big.html');
    const r = await ncalc(['report', '--html', file, '--json', '--no-preview'], {
      cwd: app.dir,
      env: cliEnv({ NETWORKCALC_TOKEN: TOKEN, NETWORKCALC_BASE_URL: emulator().url }),
    });
    expect(r.code).toBe(0);
    const doc = JSON.parse(r.stdout) as { accounts: Array<Record<string, unknown>>; summary: Record<string, unknown> };
    expect(doc.summary).toMatchObject({ accounts: 1, drift: 1, create: 6000 });
    expect(JSON.stringify(doc).length).toBeGreaterThan(INLINE_JSON_LIMIT);
    const html = readFileSync(file, 'utf8');
    const data = dataElements(html);
    const index = data.get('ncalc-report-data')!;
    expect(index.encoding).toBe('gzip-base64');
    expect(index.text).toMatch(/^[A-Za-z0-9+/=]+$/);
    const unpacked = gunzipSync(Buffer.from(index.text, 'base64')).toString('utf8');
    const previews = data.get('ncalc-report-previews')!;
    expect(previews).toEqual({ text: '[null]', encoding: null });
    const whole = JSON.parse(unpacked) as typeof doc;
    whole.accounts[0]!.preview = null;
    expect(whole).toEqual(doc);
    for (const text of [html, unpacked, r.stdout, r.stderr]) expect(text.includes(TOKEN)).toBe(false);
    // Far smaller than the document.
    expect(html.length).toBeLessThan(JSON.stringify(doc).length / 5);
  } finally {
    app.remove();
  }
}, 60_000);
