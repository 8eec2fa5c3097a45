/**
 * `ncalc github`: the drift reports of real `ncalc drift --report-dir` runs against the
 * emulator, posted to a local GitHub API that checks every request against GitHub's OpenAPI
 * description, enforces the body limit and answers secondary rate limits with `retry-after`.
 * The whole lifecycle of issues (schedule) and of the pull request comment, overlapping runs,
 * rate limits, bodies over the limit, and each failure (no token, 403, 404, the network
 * going away half-way) as one sentence with exit 1 and the drift result still printed.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { PassThrough } from 'node:stream';
import { githubCommand } from '../../src/cli/github-command';
import type { ApiOptions } from '../../src/github/api';
import { IN_SYNC_COMMENT } from '../../src/github/post';
import { shardOfKey } from '../../src/plan/shard';
import { accountKey, scopeKey } from '../../src/plan/accounts';
import { useEmulator } from '../helpers/emulator';
import { startGitHubServer, type GitHubServer } from '../helpers/github-server';
import { FixtureApp, alert, cliEnv, fleet, ncalc } from '../cli/support';

const names = ['acct1', 'acct2', 'acct3'];
const accounts = fleet(names);
// At its strictest where this suite touches it: one DELETE form, as the real service.
const emulator = useEmulator({ seed: accounts.seed, deleteForm: 'body' });
let app: FixtureApp;
let github: GitHubServer | null = null;
beforeAll(() => {
  app = new FixtureApp(
    accounts.stacks((name, domainId) => ({
      A: alert({ name: `${name} mail exchanger`, target_id: domainId, filter_value: '192.0.2.1' }),
    })),
  );
});
afterAll(() => app.remove());
afterEach(async () => {
  await github?.close();
  github = null;
});

const ncalcEnv = () => cliEnv({ NETWORKCALC_BASE_URL: emulator().url, ...accounts.tokens() });
const drift = async (dir: string, ...more: string[]) => {
  const r = await ncalc(['drift', '--report-dir', dir, ...more], { cwd: app.dir, env: ncalcEnv() });
  expect([r.code, r.stderr]).toEqual([expect.any(Number), '']);
  return r.code;
};
/**
 * Drift reports of two shards that both hold accounts, in `shard1` and `shard2`. An account's
 * shard is a hash of its key (base URL, stack and provider), and the base URL holds the
 * emulator's port, new in every run: the first shard count that splits the accounts is found
 * from the keys, then each report is checked to hold what the hash says.
 */
const driftTwoShards = async (): Promise<[string, string]> => {
  const reports = (dir: string) =>
    (JSON.parse(readFileSync(path.join(app.dir, dir, 'index.json'), 'utf8')) as { reports: { base_url: string }[] })
      .reports;
  await drift('all');
  const baseUrl = reports('all')[0]!.base_url;
  for (let n = 2; n <= 12; n++) {
    const shardOf = new Map(names.map((s) => [s, shardOfKey(accountKey(baseUrl, [scopeKey(s, 'networkcalc')]), n)]));
    const used = [...new Set(shardOf.values())].sort((a, b) => a - b);
    if (used.length < 2) continue;
    const shards: [string, string] = [`${used[0]}/${n}`, `${used[1]}/${n}`];
    for (const [dir, i] of [
      ['shard1', used[0]],
      ['shard2', used[1]],
    ] as const) {
      await drift(dir, '--shard', `${i}/${n}`);
      expect(reports(dir).length).toBe(names.filter((s) => shardOf.get(s) === i).length);
    }
    return shards;
  }
  throw new Error('no shard count up to 12 splits the accounts');
};
const applyStacks = async (...stacks: string[]) => {
  const r = await ncalc(['apply', '--auto-approve', ...stacks.flatMap((s) => ['--stack', s])], {
    cwd: app.dir,
    env: ncalcEnv(),
  });
  expect(r.code).toBe(0);
};

/** `ncalc github` in-process with the environment of a job of `event`. */
async function post(dirs: string[], env: Record<string, string>, flags: string[] = [], api: ApiOptions = {}) {
  let stdout = '';
  let stderr = '';
  const code = await githubCommand(
    {
      stdout: { write: (s: string) => (stdout += s) },
      stderr: { write: (s: string) => (stderr += s) },
      stdin: new PassThrough(),
      env,
      cwd: app.dir,
    },
    dirs,
    { dryRun: flags.includes('--dry-run') },
    { timeScale: 0.001, ...api },
  );
  return { code, stdout, stderr };
}

const writes = (g: GitHubServer) => g.log.filter((l) => l.method !== 'GET' && l.status < 300);

describe('schedule: one issue per account', () => {
  it('opens one on drift, leaves it while nothing changed, closes it with a comment once in sync', async () => {
    github = await startGitHubServer();
    expect(await drift('reports')).toBe(2);
    const first = await post(['reports'], github.env('schedule'));
    expect([first.code, first.stderr]).toEqual([0, '']);
    expect(first.stdout).toContain('Drift: 3 accounts, 3 drifted, 0 not checked, 0 in sync');
    expect(github.openDriftIssues().map((i) => i.title)).toEqual(names.map((n) => `NetworkCalc alert drift: ${n}`));
    for (const i of github.openDriftIssues()) expect(i.body).toMatch(/^<!-- ncalc-drift account=[0-9a-f]{16} -->\n/);
    expect(github.labels).toEqual(new Set(['networkcalc-drift']));

    // The same drift again: nothing is written.
    const before = writes(github).length;
    const again = await post(['reports'], github.env('schedule'));
    expect(again.stdout).toContain('0 issues opened, 0 edited, 0 closed, 3 unchanged');
    expect(writes(github).length).toBe(before);

    await applyStacks('acct1');
    expect(await drift('reports')).toBe(2);
    const third = await post(['reports'], github.env('push'));
    expect(third.code).toBe(0);
    expect(third.stdout).toContain('acct1: in sync, issue #1 closed');
    const closed = github.issues.find((i) => i.number === 1)!;
    expect([closed.state, closed.comments.map((c) => c.body)]).toEqual(['closed', [IN_SYNC_COMMENT]]);
    expect(github.openDriftIssues().map((i) => i.number)).toEqual([2, 3]);

    // Drift again on acct1: a new issue (the closed one stays closed).
    const r = await ncalc(['destroy', '--auto-approve', '--stack', 'acct1'], { cwd: app.dir, env: ncalcEnv() });
    expect(r.code).toBe(0);
    await drift('reports');
    await post(['reports'], github.env('schedule'));
    expect(github.openDriftIssues().map((i) => i.number)).toEqual([2, 3, 4]);
    expect(github.violations).toEqual([]);
  });

  it('two runs at once leave one issue per account', async () => {
    github = await startGitHubServer();
    await drift('reports');
    const [a, b] = await Promise.all([
      post(['reports'], github.env('schedule')),
      post(['reports'], github.env('schedule')),
    ]);
    expect([a.code, b.code]).toEqual([0, 0]);
    expect(github.openDriftIssues().length).toBe(3);
    expect(new Set(github.openDriftIssues().map((i) => i.body.split('\n')[0])).size).toBe(3);
    for (const i of github.issues.filter((x) => x.state === 'closed'))
      expect(i.comments[0]!.body).toMatch(/^Duplicate of #\d+ \(two runs overlapped\)/);
    expect(github.violations).toEqual([]);
  });

  it('waits out secondary rate limits (retry-after) and opens every issue', async () => {
    github = await startGitHubServer({ perMinute: 2, timeScale: 0.01 });
    await drift('reports');
    const r = await post(['reports'], github.env('schedule'), [], { timeScale: 0.01 });
    expect([r.code, r.stderr]).toEqual([0, '']);
    expect(github.openDriftIssues().length).toBe(3);
    expect(github.log.filter((l) => l.status === 403).length).toBeGreaterThan(0);
    expect(github.violations).toEqual([]);
  });

  it('waits for x-ratelimit-reset after a primary rate limit, then goes on', async () => {
    github = await startGitHubServer({ primaryLimited: 2 });
    await drift('reports');
    const waits: string[] = [];
    const r = await post(['reports'], github.env('schedule'), [], { onWait: (s, kind) => waits.push(`${kind} ${s}`) });
    expect([r.code, r.stderr]).toEqual([0, '']);
    expect(waits.length).toBe(2);
    for (const w of waits) expect(w).toMatch(/^primary [1-4]$/);
    expect(github.openDriftIssues().length).toBe(3);
  });
});

describe('pull_request: one comment per shard', () => {
  it('is created on drift, edited in place, and says so once the branch is in sync', async () => {
    github = await startGitHubServer();
    const pr = github.openPullRequest();
    const events = mkdtempSync(path.join(tmpdir(), 'ncalc-event-'));
    try {
      const eventFile = path.join(events, 'event.json');
      writeFileSync(eventFile, JSON.stringify({ action: 'synchronize', number: pr, pull_request: { number: pr } }));
      const env = github.env('pull_request', { GITHUB_EVENT_PATH: eventFile });
      const [a, b] = await driftTwoShards();
      const first = await post(['shard1', 'shard2'], env);
      expect([first.code, first.stderr]).toEqual([0, '']);
      const bodies = () => github!.issues[pr - 1]!.comments.map((c) => c.body.split('\n')[0]);
      expect(bodies()).toEqual([`<!-- ncalc-drift comment shard=${a} -->`, `<!-- ncalc-drift comment shard=${b} -->`]);
      await post(['shard1', 'shard2'], env);
      expect(github.issues[pr - 1]!.comments.length).toBe(2);

      await applyStacks(...names);
      await drift('shard1', '--shard', a);
      await drift('shard2', '--shard', b);
      const synced = await post(['shard1', 'shard2'], env);
      expect(synced.stdout).toContain(`comment of shard ${a}: updated (in sync again)`);
      for (const c of github.issues[pr - 1]!.comments) expect(c.body).toContain('**In sync**');
      expect(github.issues[pr - 1]!.comments.length).toBe(2);
      expect(github.openDriftIssues()).toEqual([]);
      expect(github.violations).toEqual([]);
    } finally {
      rmSync(events, { recursive: true, force: true });
    }
  });
});

describe('limits', () => {
  it('cuts a body over 65,536 characters and points to the report artifact', async () => {
    github = await startGitHubServer();
    await drift('reports');
    const dir = path.join(app.dir, 'reports');
    const index = JSON.parse(readFileSync(path.join(dir, 'index.json'), 'utf8'));
    const file = path.join(dir, index.reports[0].file);
    writeFileSync(file, readFileSync(file, 'utf8') + '| row |\n'.repeat(20_000));
    const r = await post(['reports'], github.env('schedule'));
    expect([r.code, r.stderr]).toEqual([0, '']);
    const body = github.openDriftIssues()[0]!.body;
    expect(body.length).toBeLessThanOrEqual(65_536);
    expect(body).toMatch(
      /whole report is in the report artifact of https:\/\/github\.example\/octo\/alerts\/actions\/runs\/4242/,
    );
    expect(github.violations).toEqual([]);
  });
});

describe('failures: one sentence, exit 1, the drift result printed, nothing posted twice', () => {
  const result = 'Drift: 3 accounts, 3 drifted, 0 not checked, 0 in sync';

  it('no GITHUB_TOKEN', async () => {
    github = await startGitHubServer();
    await drift('reports');
    const { GITHUB_TOKEN: _none, ...env } = github.env('schedule');
    const r = await post(['reports'], env);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain(result);
    expect(r.stderr).toMatch(
      /^Error: \$GITHUB_TOKEN is not set: give the step `env: GITHUB_TOKEN: \$\{\{ github\.token \}\}`.*; nothing was posted\n$/,
    );
    expect(github.log).toEqual([]);
  });

  it('a token without the permission (403)', async () => {
    github = await startGitHubServer({ readOnly: true });
    await drift('reports');
    const r = await post(['reports'], github.env('schedule'));
    expect(r.code).toBe(1);
    expect(r.stdout).toContain(result);
    expect(r.stderr).toMatch(
      /^Error: GitHub refused making sure the label exists in octo\/alerts \(403 Resource not accessible by integration\): the token lacks the permission; give the job `permissions: issues: write`/,
    );
    expect(r.stderr.split('\n').length).toBe(2);
  });

  it('a repository that does not exist (404)', async () => {
    github = await startGitHubServer();
    await drift('reports');
    const r = await post(['reports'], { ...github.env('schedule'), GITHUB_REPOSITORY: 'octo/gone' });
    expect(r.code).toBe(1);
    expect(r.stdout).toContain(result);
    expect(r.stderr).toMatch(
      /^Error: GitHub at http:\/\/127\.0\.0\.1:\d+ has no repository octo\/gone, or the token cannot see it \(404 while making sure the label exists\)/,
    );
  });

  it('the network failing half-way: exit 1, and the next run opens only the rest', async () => {
    // The label (2 requests), the list, one issue: then no answer at all.
    github = await startGitHubServer({ dropAfter: 4 });
    await drift('reports');
    const r = await post(['reports'], github.env('schedule'));
    expect(r.code).toBe(1);
    expect(r.stdout).toContain(result);
    expect(r.stderr).toMatch(
      /^Error: GitHub at http:\/\/127\.0\.0\.1:\d+ could not be reached while opening an issue \(.+\), also when asked again; the next run carries on \(1 issue opened, .*; 2 accounts not handled yet\)\n$/,
    );
    expect(github.openDriftIssues().length).toBe(1);
    github.options.dropAfter = undefined;
    const next = await post(['reports'], github.env('schedule'));
    expect(next.code).toBe(0);
    expect(next.stdout).toContain('2 issues opened, 0 edited, 0 closed, 1 unchanged');
    expect(github.openDriftIssues().length).toBe(3);
  });
});

describe('--dry-run', () => {
  it('prints what would be posted and posts nothing, with no token at all', async () => {
    await drift('reports');
    const r = await post(['reports'], { GITHUB_REPOSITORY: 'octo/alerts', GITHUB_EVENT_NAME: 'schedule' }, [
      '--dry-run',
    ]);
    expect([r.code, r.stderr]).toEqual([0, '']);
    expect(r.stdout).toContain('would open an issue "NetworkCalc alert drift: acct1" (');
    expect(r.stdout).toContain('Dry run, nothing posted: 3 issues opened');
  });

  it('a directory that is not a report directory: one sentence', async () => {
    const missing = path.join(app.dir, 'nothing-here');
    mkdirSync(missing, { recursive: true });
    const r = await post([missing], { GITHUB_EVENT_NAME: 'schedule' });
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      `Error: ${missing} holds no readable index.json (ENOENT); give the directory ncalc drift --report-dir wrote\n`,
    );
  });
});

describe('the command line', () => {
  it('ncalc github --help names the environment, the permissions and the exit codes', async () => {
    const r = await ncalc(['github', '--help'], { cwd: app.dir, env: cliEnv({}) });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Usage: ncalc github [options] <report-dir...>');
    for (const word of ['GITHUB_TOKEN', 'GITHUB_API_URL', 'pull-requests: write', 'issues: write', '--dry-run'])
      expect(r.stdout).toContain(word);
    expect(r.stdout).toMatch(/Exit codes:\n {2}0 {2}GitHub holds the result/);
  });

  it('ncalc github through the program: exit 1 without a token, the drift result printed', async () => {
    await drift('reports');
    const r = await ncalc(['github', 'reports'], {
      cwd: app.dir,
      env: cliEnv({ GITHUB_REPOSITORY: 'octo/alerts', GITHUB_EVENT_NAME: 'schedule' }),
    });
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('Drift: 3 accounts, 3 drifted');
    expect(r.stderr).toMatch(/^Error: \$GITHUB_TOKEN is not set/);
  });
});
