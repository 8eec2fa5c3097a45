/**
 * examples/drift-ci/workflow.yml run as GitHub runs it (test/helpers/workflow-runner.ts: jobs by
 * `needs`, `if:`, matrices, outputs, GITHUB_OUTPUT, job summaries, artifacts between jobs, every
 * `run:` step with bash) for pull_request, push and schedule, its `ncalc` the built one (dist/),
 * against the emulator and the local GitHub API (every request checked against GitHub's
 * OpenAPI description). The whole lifecycle: a pull request's comment on drift, edited once the
 * branch is in sync; drift after apply on a push to main; a scheduled run opening one issue for
 * an account changed in the console and the next closing it. The `adopt` job (git push, gh) is
 * not run here; that its condition holds on schedule is asserted.
 */
import { appendFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { NetworkCalcClient } from '../../src/client';
import { useEmulator } from '../helpers/emulator';
import { startGitHubServer, type GitHubServer } from '../helpers/github-server';
import { runWorkflow, type JobRun } from '../helpers/workflow-runner';
import { requireBuild } from '../helpers/build';
import { FixtureApp, ROOT, alert, cliEnv, stack } from '../cli/support';

const WORKFLOW = path.join(ROOT, 'examples', 'drift-ci', 'workflow.yml');
const CLI = requireBuild('dist/cli/main.js');
const emulator = useEmulator({ deleteForm: 'body' });
let app: FixtureApp;
let github: GitHubServer;
let home: string;
beforeAll(async () => {
  app = new FixtureApp({
    main: stack({ provider: {}, alerts: { A: alert({ name: 'www.example.com A record', target_id: 1 }) } }),
  });
  // As an app made with this package's constructs does: it records where each is declared (here none).
  appendFileSync(
    path.join(app.dir, 'synth.js'),
    'if (process.env.NCALC_SOURCE_LOCATIONS_FILE) fs.writeFileSync(process.env.NCALC_SOURCE_LOCATIONS_FILE, \'{"locations":[]}\');\n',
  );
  writeFileSync(path.join(app.dir, 'package.json'), JSON.stringify({ name: 'alerts-app', private: true }));
  home = mkdtempSync(path.join(tmpdir(), 'ncalc-runner-home-'));
  github = await startGitHubServer();
});
afterAll(async () => {
  app.remove();
  rmSync(home, { recursive: true, force: true });
  await github.close();
});

/** `npm ci` of the user's repository: ncalc from this package (its build). */
function install(workspace: string): void {
  mkdirSync(path.join(workspace, 'node_modules', '.bin'), { recursive: true });
  const bin = path.join(workspace, 'node_modules', '.bin', 'ncalc');
  writeFileSync(bin, `#!/bin/sh\nexec "${process.execPath}" "${CLI}" "$@"\n`, { mode: 0o755 });
}

function run(event: string, payload: Record<string, unknown>, ref: string): Promise<Record<string, JobRun>> {
  return runWorkflow(WORKFLOW, {
    event,
    payload,
    ref,
    repository: app.dir,
    secrets: { NETWORKCALC_TOKEN: 'demo-token' },
    // The runner's machine: the one stand-in is the service's address (the emulator's).
    runnerEnv: cliEnv({
      HOME: home,
      npm_config_cache: path.join(home, 'npm'),
      NETWORKCALC_BASE_URL: emulator().url,
    }) as Record<string, string>,
    github: {
      apiUrl: github.url,
      serverUrl: 'https://github.example',
      repository: 'octo/alerts',
      token: github.options.token,
      runId: String(Date.now()),
    },
    install,
    only: ['synth', 'drift', 'apply', 'comment', 'issues', 'fleet-report'],
  });
}

const results = (jobs: Record<string, JobRun>) =>
  Object.fromEntries(Object.entries(jobs).map(([name, j]) => [name, j.result]));
const failedSteps = (jobs: Record<string, JobRun>) =>
  Object.values(jobs).flatMap((j) =>
    j.legs.flatMap((l) => l.steps.filter((s) => s.outcome === 'failure').map((s) => `${s.name}\n${s.output}`)),
  );

it('pull_request, push, schedule: the comment and issue lifecycle, drift after apply', async () => {
  const pr = github.openPullRequest();
  // A pull request from a branch of the repository itself (not a fork), as GitHub describes it.
  const prPayload = (action: string) => ({
    action,
    number: pr,
    pull_request: { number: pr, head: { repo: { full_name: 'octo/alerts' } } },
  });
  const prComments = () => github.issues[pr - 1]!.comments;

  // 1. A pull request adds an alert: the drift is what applying after the merge would change.
  let jobs = await run('pull_request', prPayload('opened'), `refs/pull/${pr}/merge`);
  expect(failedSteps(jobs)).toEqual([]);
  expect(results(jobs)).toEqual({
    synth: 'success',
    apply: 'skipped',
    drift: 'success',
    adopt: 'skipped',
    comment: 'success',
    issues: 'skipped',
    'fleet-report': 'success',
  });
  // The fan-in job joined the shards' documents into one page.
  expect(jobs['fleet-report']!.legs[0]!.steps.find((st) => st.name === 'ncalc report --merge')!.outcome).toBe(
    'success',
  );
  expect(prComments().length).toBe(1);
  expect(prComments()[0]!.body).toMatch(/^<!-- ncalc-drift comment shard=\d\/3 -->\n## NetworkCalc alert drift/);
  expect(prComments()[0]!.body).toContain('www.example.com A record');
  expect(jobs.drift!.legs.map((l) => l.summary).join('')).toContain('## NetworkCalc alert drift');

  // 2. Merged: apply, then drift after it (in sync), and no issue.
  jobs = await run('push', { ref: 'refs/heads/main' }, 'refs/heads/main');
  expect(failedSteps(jobs)).toEqual([]);
  expect(results(jobs)).toMatchObject({
    synth: 'success',
    apply: 'success',
    drift: 'success',
    issues: 'success',
    comment: 'skipped',
    'fleet-report': 'success',
  });
  expect(github.openDriftIssues()).toEqual([]);

  // 3. The pull request again: its comment now says it is in sync (edited, not a second one).
  jobs = await run('pull_request', prPayload('synchronize'), `refs/pull/${pr}/merge`);
  expect(failedSteps(jobs)).toEqual([]);
  expect(prComments().length).toBe(1);
  expect(prComments()[0]!.body).toContain('**In sync**');

  // 4. Someone edits the alert in the console: the scheduled run fails and opens one issue.
  const [live] = await new NetworkCalcClient({ baseUrl: emulator().url, token: 'demo-token' }).listAlerts();
  await emulator().control.patchAlert('demo', live!.id, { filter_value: '192.0.2.99' });
  jobs = await run('schedule', { schedule: '17 6 * * *' }, 'refs/heads/main');
  expect(results(jobs)).toEqual({
    synth: 'success',
    apply: 'skipped',
    drift: 'failure',
    adopt: 'not run',
    comment: 'skipped',
    issues: 'success',
    'fleet-report': 'success',
  });
  expect(failedSteps(jobs).map((s) => s.split('\n')[0])).toEqual(['Result']);
  expect(github.openDriftIssues().map((i) => i.title)).toEqual(['NetworkCalc alert drift: main']);
  expect(github.openDriftIssues()[0]!.body).toContain('192.0.2.99');

  // 5. Put back (apply on the next push): drift after apply closes the issue with a comment.
  jobs = await run('push', { ref: 'refs/heads/main' }, 'refs/heads/main');
  expect(failedSteps(jobs)).toEqual([]);
  expect(github.openDriftIssues()).toEqual([]);
  expect(github.issues.find((i) => !i.pull)!.comments.map((c) => c.body)).toEqual([
    expect.stringContaining('In sync again'),
  ]);
  expect(github.violations).toEqual([]);
}, 600_000);
