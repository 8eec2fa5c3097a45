/**
 * `ncalc` against a small HTTP server that answers the way a broken or hostile service might:
 * a 2xx page that is not JSON, duplicate ids in a list, an endless body, and credentials an
 * HTTP header cannot carry. Each case asserts the exit code, the message and the requests made.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { alert, cliEnv, FixtureApp, ncalc, stack } from './support';

jest.setTimeout(60_000);

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

const liveAlert = (id: number, name: string) => ({
  id,
  user_id: 1,
  name,
  is_active: true,
  current_status: 'healthy',
  type: 'DNS Record',
  subtype: 'A',
  filter: 'equals',
  filter_value: '192.0.2.1',
  action: 'email',
  last_triggered_at: null,
  target_domain: { id: 1, domain: 'example.com' },
});

describe('ncalc against a misbehaving server', () => {
  let server: Server;
  let url: string;
  let handler: Handler;
  let seen: string[];
  let app: FixtureApp;

  beforeAll(async () => {
    server = createServer((req, res) => {
      seen.push(`${req.method} ${req.url}`);
      req.resume();
      req.on('end', () => handler(req, res));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  beforeEach(() => {
    seen = [];
    app = new FixtureApp({ main: stack({ provider: {}, alerts: { a: alert({ name: 'new alert' }) } }) });
  });
  afterEach(() => app.remove());
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  const json = (res: ServerResponse, body: unknown, status = 200) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };
  const env = (token = 'good-token') => cliEnv({ NETWORKCALC_BASE_URL: url, NETWORKCALC_TOKEN: token });
  const writes = () => seen.filter((s) => !s.startsWith('GET '));

  test('GIVEN a create answered 200 with an HTML page THEN it is never counted as created: listed and sent again, three sends in all, then a failure (exit 1)', async () => {
    handler = (req, res) => {
      if (req.method === 'GET') return json(res, { status: 'OK', alerts: [] });
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<html><body>Maintenance</body></html>');
    };
    const r = await ncalc(['apply', '--auto-approve'], { cwd: app.dir, env: env() });
    expect(r.code).toBe(1);
    expect(r.stdout).not.toMatch(/Apply complete/);
    expect(r.stdout).toMatch(/nothing was created/);
    expect(writes()).toEqual(['POST /api/alerts/', 'POST /api/alerts/', 'POST /api/alerts/']);
  });

  test('GIVEN a list with two alerts sharing one id THEN the account fails before any write', async () => {
    handler = (_req, res) => json(res, { status: 'OK', alerts: [liveAlert(5, 'managed'), liveAlert(5, 'stranger')] });
    const r = await ncalc(['apply', '--auto-approve'], { cwd: app.dir, env: env() });
    expect(r.code).toBe(1);
    expect(`${r.stdout}${r.stderr}`).toMatch(/UNEXPECTED_RESPONSE/);
    expect(`${r.stdout}${r.stderr}`).toMatch(/\b5\b/);
    expect(writes()).toEqual([]);
  });

  test('GIVEN a list whose body never ends THEN a size error naming the limit, not a connection error, and memory stays bounded', async () => {
    handler = (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      const chunk = Buffer.alloc(1024 * 1024, 0x20);
      let sent = 0;
      const pump = () => {
        while (sent < 2048 && res.write(chunk)) sent++;
        if (sent < 2048) res.once('drain', pump);
        else res.end();
      };
      res.write('{"status":"OK","alerts":[');
      pump();
    };
    const before = process.memoryUsage().rss;
    const r = await ncalc(['plan'], { cwd: app.dir, env: env() });
    const grown = process.memoryUsage().rss - before;
    expect(r.code).toBe(1);
    const out = `${r.stdout}${r.stderr}`;
    expect(out).toMatch(/RESPONSE_TOO_LARGE|beyond the limit/);
    expect(out).not.toMatch(/NETWORKCALC_BASE_URL/);
    expect(grown).toBeLessThan(400 * 1024 * 1024);
    expect(seen.filter((s) => s.startsWith('GET /api/alerts')).length).toBe(1);
  });

  test('GIVEN NETWORKCALC_BASE_URL ending in /api (the path doubled) THEN the 404 names the base URL to set, not a form the client does not understand', async () => {
    handler = (_req, res) => json(res, { status: 'ROUTE_NOT_FOUND' }, 404);
    const r = await ncalc(['plan'], {
      cwd: app.dir,
      env: cliEnv({ NETWORKCALC_BASE_URL: `${url}/api`, NETWORKCALC_TOKEN: 'good-token' }),
    });
    expect(r.code).toBe(1);
    const out = `${r.stdout}${r.stderr}`;
    expect(out).toContain(`no such route: GET ${url}/api/api/alerts/ does not exist`);
    expect(out).toContain(`set NETWORKCALC_BASE_URL to ${url}`);
    expect(out).not.toMatch(/does not understand/);
    expect(out).not.toMatch(/\n\s+at .*\(.*\.[jt]s:\d+:\d+\)/);
    expect(seen).toEqual(['GET /api/api/alerts/']);
  });

  test("GIVEN a token of 100 KB THEN the server's 431 is explained by the token's size, never its value", async () => {
    handler = (_req, res) => json(res, { status: 'OK', alerts: [] });
    const token = `big-${'5e6f7a8b'.repeat(12_500)}`.slice(0, 100_000);
    const r = await ncalc(['plan'], { cwd: app.dir, env: env(token) });
    expect(r.code).toBe(1);
    const out = `${r.stdout}${r.stderr}`;
    expect(out).toContain('HTTP 431');
    expect(out).toContain('the token in NETWORKCALC_TOKEN is 97.7 KiB (100000 bytes)');
    expect(out).toContain('check that NETWORKCALC_TOKEN holds the token itself');
    expect(out).not.toContain(token.slice(0, 40));
    expect(out).not.toMatch(/does not understand/);
    // node refused the header block before any handler ran.
    expect(seen).toEqual([]);
  });

  test('GIVEN a token with a line break THEN a configuration error naming the variable, never its value, and no request', async () => {
    handler = (_req, res) => json(res, { status: 'OK', alerts: [] });
    const r = await ncalc(['plan'], { cwd: app.dir, env: env('abc\r\nX-Injected: 1') });
    expect(r.code).toBe(1);
    const out = `${r.stdout}${r.stderr}`;
    expect(out).toContain('NETWORKCALC_TOKEN');
    expect(out).not.toContain('X-Injected');
    expect(out).not.toMatch(/\n\s+at .*\(.*\.[jt]s:\d+:\d+\)/);
    expect(seen).toEqual([]);
  });
});
