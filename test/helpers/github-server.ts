/**
 * A local GitHub REST API for the tests of `ncalc github`, on 127.0.0.1 and a free port: every
 * request is checked against GitHub's OpenAPI description (github-openapi.ts) and refused
 * with 400 when it is not as described (the problems are kept for the test to assert none);
 * bodies over 65,536 characters get GitHub's 422; content-creating requests (POST, PATCH,
 * PUT, DELETE) over `perMinute` a minute or `perHour` an hour get GitHub's secondary rate
 * limit 403 with `retry-after`. `timeScale` runs its clock faster (0.001: an hour in 3.6 s).
 * The issues, comments and labels of one repository live in memory.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { OpenApiChecker } from './github-openapi';

export interface FakeIssue {
  number: number;
  title: string;
  body: string;
  state: 'open' | 'closed';
  labels: string[];
  comments: FakeComment[];
  /** A pull request (the issues API lists and comments on them too). */
  pull?: boolean;
}
export interface FakeComment {
  id: number;
  body: string;
}
export interface Logged {
  method: string;
  path: string;
  operationId: string;
  status: number;
  /** Milliseconds since the server started (scaled clock: divide by timeScale for real time). */
  at: number;
}

export interface GitHubServerOptions {
  owner?: string;
  repo?: string;
  token?: string;
  perMinute?: number;
  perHour?: number;
  timeScale?: number;
  /** The token may read only (writes get GitHub's 403 "Resource not accessible by integration"). */
  readOnly?: boolean;
  /** After this many requests every connection is closed without an answer. */
  dropAfter?: number;
  /** The first N requests get the primary rate limit's 403 (x-ratelimit-remaining 0, reset in 2 s). */
  primaryLimited?: number;
}

let checker: OpenApiChecker | null = null;
const BODY_LIMIT = 65_536;
const SECONDARY =
  'You have exceeded a secondary rate limit and have been temporarily blocked from content creation. Please retry your request again later.';

export async function startGitHubServer(options: GitHubServerOptions = {}) {
  checker ??= new OpenApiChecker();
  const o = {
    owner: 'octo',
    repo: 'alerts',
    token: 'gh-test-token',
    perMinute: 80,
    perHour: 500,
    timeScale: 1,
    ...options,
  };
  const issues: FakeIssue[] = [];
  const labels = new Set<string>();
  const log: Logged[] = [];
  const violations: string[] = [];
  const writes: number[] = [];
  const sockets = new Set<Socket>();
  let nextComment = 1000;
  const started = Date.now();
  const now = () => (Date.now() - started) / o.timeScale;

  const commentIssue = (id: number) => issues.find((i) => i.comments.some((c) => c.id === id));
  const issueJson = (i: FakeIssue) => ({
    id: i.number + 5000,
    node_id: `I_${i.number}`,
    number: i.number,
    title: i.title,
    body: i.body,
    state: i.state,
    labels: i.labels.map((name) => ({ name })),
    html_url: `https://github.example/${o.owner}/${o.repo}/issues/${i.number}`,
    ...(i.pull ? { pull_request: { url: `https://github.example/${o.owner}/${o.repo}/pull/${i.number}` } } : {}),
  });
  const commentJson = (c: FakeComment) => ({ id: c.id, body: c.body, html_url: `https://github.example/c/${c.id}` });

  /** The 403 of a secondary rate limit, or null when the write may go. */
  function limited(): number | null {
    const t = now();
    const minute = writes.filter((w) => w > t - 60_000);
    const hour = writes.filter((w) => w > t - 3_600_000);
    if (minute.length >= o.perMinute) return Math.ceil((minute[0]! + 60_000 - t) / 1000);
    if (hour.length >= o.perHour) return Math.ceil((hour[0]! + 3_600_000 - t) / 1000);
    writes.push(t);
    return null;
  }

  function route(
    op: string,
    p: Record<string, string>,
    url: URL,
    body: Record<string, unknown>,
  ): [number, unknown, Record<string, string>?] {
    const issue = () => issues.find((i) => i.number === Number(p.issue_number));
    switch (op) {
      case 'issues/list-for-repo': {
        const want = url.searchParams.get('labels')?.split(',') ?? [];
        const state = url.searchParams.get('state') ?? 'open';
        const all = issues.filter(
          (i) => (state === 'all' || i.state === state) && want.every((l) => i.labels.includes(l)),
        );
        const per = Number(url.searchParams.get('per_page') ?? 30);
        const page = Number(url.searchParams.get('page') ?? 1);
        const pageOf = all.slice((page - 1) * per, page * per).map(issueJson);
        const link = new URL(url.href);
        link.searchParams.set('page', String(page + 1));
        return [200, pageOf, page * per < all.length ? { link: `<${link.href}>; rel="next"` } : {}];
      }
      case 'issues/create': {
        const made: FakeIssue = {
          number: issues.length + 1,
          title: String(body.title),
          body: String(body.body ?? ''),
          state: 'open',
          labels: ((body.labels as string[]) ?? []).map(String),
          comments: [],
        };
        for (const l of made.labels) labels.add(l);
        issues.push(made);
        return [201, issueJson(made)];
      }
      case 'issues/update': {
        const i = issue();
        if (!i) return [404, { message: 'Not Found' }];
        if (typeof body.title === 'string') i.title = body.title;
        if (typeof body.body === 'string') i.body = body.body;
        if (body.state === 'open' || body.state === 'closed') i.state = body.state;
        return [200, issueJson(i)];
      }
      case 'issues/list-comments': {
        const i = issue();
        if (!i) return [404, { message: 'Not Found' }];
        const per = Number(url.searchParams.get('per_page') ?? 30);
        const page = Number(url.searchParams.get('page') ?? 1);
        return [200, i.comments.slice((page - 1) * per, page * per).map(commentJson)];
      }
      case 'issues/create-comment': {
        const i = issue();
        if (!i) return [404, { message: 'Not Found' }];
        const c = { id: nextComment++, body: String(body.body) };
        i.comments.push(c);
        return [201, commentJson(c)];
      }
      case 'issues/update-comment': {
        const c = commentIssue(Number(p.comment_id))?.comments.find((x) => x.id === Number(p.comment_id));
        if (!c) return [404, { message: 'Not Found' }];
        c.body = String(body.body);
        return [200, commentJson(c)];
      }
      case 'issues/get-label':
        return labels.has(p.name!) ? [200, { name: p.name, color: 'd93f0b' }] : [404, { message: 'Not Found' }];
      case 'issues/create-label':
        labels.add(String(body.name));
        return [201, { name: body.name, color: body.color }];
      default:
        return [501, { message: `${op} is not served by this test server` }];
    }
  }

  function answer(req: IncomingMessage, res: ServerResponse, raw: string): void {
    const url = new URL(req.url ?? '/', `http://${req.headers.host ?? '127.0.0.1'}`);
    const method = req.method ?? 'GET';
    const send = (status: number, data: unknown, headers: Record<string, string> = {}, operationId = '') => {
      log.push({ method, path: url.pathname + url.search, operationId, status, at: now() });
      res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers });
      res.end(JSON.stringify(data));
    };
    let body: unknown;
    try {
      body = raw ? JSON.parse(raw) : undefined;
    } catch {
      return send(400, { message: 'Problems parsing JSON' });
    }
    const checked = checker!.check(method, url, body);
    if (checked.problems.length) {
      violations.push(...checked.problems.map((p) => `${method} ${url.pathname}: ${p}`));
      return send(400, { message: checked.problems.join('; ') }, {}, checked.operationId);
    }
    if (req.headers.authorization !== `token ${o.token}` && req.headers.authorization !== `Bearer ${o.token}`)
      return send(401, { message: 'Bad credentials' }, {}, checked.operationId);
    if (checked.params.owner !== o.owner || checked.params.repo !== o.repo)
      return send(404, { message: 'Not Found' }, {}, checked.operationId);
    if (o.primaryLimited && o.primaryLimited-- > 0)
      return send(
        403,
        { message: 'API rate limit exceeded for installation ID 1.' },
        { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(Math.ceil(Date.now() / 1000) + 2) },
        checked.operationId,
      );
    const writing = method !== 'GET' && method !== 'HEAD';
    if (writing && o.readOnly)
      return send(403, { message: 'Resource not accessible by integration' }, {}, checked.operationId);
    const b = (body ?? {}) as Record<string, unknown>;
    if (typeof b.body === 'string' && b.body.length > BODY_LIMIT)
      return send(
        422,
        {
          message: 'Validation Failed',
          errors: [
            {
              resource: 'Issue',
              code: 'custom',
              field: 'body',
              message: `body is too long (maximum is ${BODY_LIMIT} characters)`,
            },
          ],
        },
        {},
        checked.operationId,
      );
    if (writing) {
      const wait = limited();
      if (wait !== null)
        return send(403, { message: SECONDARY }, { 'retry-after': String(Math.max(1, wait)) }, checked.operationId);
    }
    const [status, data, headers] = route(checked.operationId, checked.params, url, b);
    send(status, data, headers, checked.operationId);
  }

  let count = 0;
  const server = createServer((req, res) => {
    let raw = '';
    req.setEncoding('utf8');
    req.on('data', (c: string) => (raw += c));
    req.on('end', () => {
      if (o.dropAfter !== undefined && ++count > o.dropAfter) return req.socket.destroy();
      answer(req, res, raw);
    });
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    options: o,
    issues,
    labels,
    log,
    violations,
    /** Opens a pull request; its number. */
    openPullRequest: (): number => {
      issues.push({
        number: issues.length + 1,
        title: 'Change alerts',
        body: '',
        state: 'open',
        labels: [],
        comments: [],
        pull: true,
      });
      return issues.length;
    },
    /** The open issues (not pull requests) with the drift label. */
    openDriftIssues: () =>
      issues.filter((i) => !i.pull && i.state === 'open' && i.labels.includes('networkcalc-drift')),
    /** The standard environment of a GitHub Actions job against this server. */
    env: (event: string, extra: Record<string, string> = {}): Record<string, string> => ({
      GITHUB_API_URL: `http://127.0.0.1:${port}`,
      GITHUB_SERVER_URL: 'https://github.example',
      GITHUB_REPOSITORY: `${o.owner}/${o.repo}`,
      GITHUB_EVENT_NAME: event,
      GITHUB_RUN_ID: '4242',
      GITHUB_TOKEN: o.token,
      ...extra,
    }),
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

export type GitHubServer = Awaited<ReturnType<typeof startGitHubServer>>;
