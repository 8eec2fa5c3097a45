/**
 * From drift to code, end to end: a real TypeScript app, the emulator in its strict settings
 * (one DELETE form, latency), a change made behind the app's back, `ncalc drift --suggest`,
 * the edit applied (`git apply` or `--write`), and `ncalc plan` empty afterwards.
 */
import { chmodSync, readFileSync, readdirSync } from 'node:fs';
import { PassThrough } from 'node:stream';
import { githubCommand } from '../../src/cli/github-command';
import { startGitHubServer, type GitHubServer } from '../helpers/github-server';
import * as path from 'node:path';
import { NetworkCalcClient } from '../../src/client';
import { requireBuild } from '../helpers/build';
import { useEmulator } from '../helpers/emulator';
import { faultMix } from '../helpers/faults';
import { cliEnv } from '../cli/support';
import { HEADER, TsApp, ncalcIn } from './support';

jest.setTimeout(120_000);

const emulator = useEmulator();
const apps: TsApp[] = [];
afterAll(() => apps.forEach((a) => a.remove()));

beforeAll(() => requireBuild('dist/index.js'));

beforeEach(async () => {
  // As strict as the interface allows: one DELETE form, and every call takes a while.
  await emulator().control.updateSettings({ deleteForm: 'query' });
  await emulator().control.addFault({ kind: 'latency', latencyMs: 15, match: { path: '/api/' } });
});

function app(main: string, extra: Record<string, string> = {}): TsApp {
  const a = new TsApp({ 'main.ts': main, ...extra });
  apps.push(a);
  return a;
}

/** `ncalc github` (schedule) against the local GitHub API: the writes it made, and the open issues. */
async function postReports(a: TsApp, github: GitHubServer): Promise<{ calls: string[]; issues: string[] }> {
  const before = github.log.length;
  let err = '';
  const code = await githubCommand(
    {
      stdout: { write: () => true },
      stderr: { write: (t: string) => ((err += t), true) },
      stdin: new PassThrough(),
      env: github.env('schedule'),
      cwd: a.dir,
    },
    ['drift-reports'],
    {},
    { timeScale: 0.001 },
  );
  expect([code, err]).toEqual([0, '']);
  return {
    calls: github.log
      .slice(before)
      .filter((l) => l.method !== 'GET')
      .map((l) => l.operationId),
    issues: github.openDriftIssues().map((i) => i.title),
  };
}

const env = () => cliEnv({ NETWORKCALC_TOKEN: 'demo-token', NETWORKCALC_BASE_URL: emulator().url });
const { run, applied, expectEmptyPlan } = ncalcIn(env);

async function live() {
  return new NetworkCalcClient({ baseUrl: emulator().url, token: 'demo-token' }).listAlerts();
}
async function liveId(name: string): Promise<number> {
  const found = (await live()).find((a) => a.name === name);
  if (!found) throw new Error(`no live alert ${name}`);
  return found.id;
}

async function suggest(a: TsApp, ...more: string[]) {
  const r = await run(a, 'drift', '--suggest', '--json', ...more);
  const doc = JSON.parse(r.stdout);
  return {
    code: r.code,
    stderr: r.stderr,
    doc,
    suggest: doc.suggest as { suggestions: any[]; patch: string; problems: string[]; written: string[] | null },
  };
}

const TWO = `${HEADER}
// The certificate alert: three weeks' notice.
new Alert(stack, 'WwwCertificate', {
  name: 'www certificate expiry',
  target: AlertTarget.subdomain('www.example.com'),
  certificate: { expiresInDays: 21 }, // policy: 21 days
});
new Alert(stack, 'ApexMx', {
  name: "example.com MX",
  target: AlertTarget.domain('example.com'),
  dnsRecord: { record: 'MX', filter: 'contains', value: 'mail.example.com' },
});
app.synth();
`;

describe('a literal prop changed in the console', () => {
  it('is one edited literal per prop, comments and quotes kept; git apply makes the plan empty', async () => {
    const a = app(TWO);
    await applied(a);
    const c = emulator().control;
    await c.patchAlert('demo', await liveId('www certificate expiry'), { filter_value: '30' });
    await c.patchAlert('demo', await liveId('example.com MX'), { filter: 'equals', filter_value: 'mx.example.com' });

    const { code, suggest: s } = await suggest(a);
    expect(code).toBe(2);
    expect(s.problems).toEqual([]);
    expect(s.suggestions.map((x) => [x.kind, x.alert, x.file, x.line])).toEqual([
      ['changed', 'example.com MX', 'main.ts', 14],
      ['changed', 'www certificate expiry', 'main.ts', 9],
    ]);
    expect(s.patch).toContain(
      '-  certificate: { expiresInDays: 21 }, // policy: 21 days\n+  certificate: { expiresInDays: 30 }, // policy: 21 days\n',
    );
    expect(s.patch).toContain(
      "-  dnsRecord: { record: 'MX', filter: 'contains', value: 'mail.example.com' },\n+  dnsRecord: { record: 'MX', filter: 'equals', value: 'mx.example.com' },\n",
    );
    a.write('drift.patch', s.patch);
    a.git('apply', 'drift.patch');
    expect(a.read('main.ts')).toContain("// The certificate alert: three weeks' notice.");
    await expectEmptyPlan(a);
  });

  it('--write does the same, and the text output shows the diff and what to run', async () => {
    const a = app(TWO);
    await applied(a);
    await emulator().control.patchAlert('demo', await liveId('www certificate expiry'), {
      filter: 'subject',
      filter_value: 'CN=www.example.com',
    });
    const r = await run(a, 'drift', '--suggest', '--write');
    expect(r.code).toBe(2);
    expect(r.stdout).toContain("+  certificate: { subject: 'CN=www.example.com' }, // policy: 21 days");
    expect(r.stdout).toContain('Wrote main.ts.');
    await expectEmptyPlan(a);
  });
});

describe('an alert inside an L3 construct of the app', () => {
  it('is edited where the L3 declares it', async () => {
    const a = app(`import { App, TerraformStack } from 'cdktf';
import { Construct } from 'constructs';
import { Alert, AlertTarget, NetworkcalcAccount } from 'cdktf-provider-networkcalc';

class Baseline extends Construct {
  constructor(scope: Construct, id: string) {
    super(scope, id);
    new Alert(this, 'Cert', {
      name: 'baseline cert',
      target: AlertTarget.domain('example.com'),
      certificate: { expiresInDays: 14 },
    });
  }
}
const app = new App();
const stack = new TerraformStack(app, 'main');
new NetworkcalcAccount(stack, 'Account');
new Baseline(stack, 'Baseline');
app.synth();
`);
    await applied(a);
    await emulator().control.patchAlert('demo', await liveId('baseline cert'), { filter_value: '10' });
    const { suggest: s } = await suggest(a, '--write');
    expect(s.suggestions.map((x) => [x.path, x.file, x.line])).toEqual([['main/Baseline/Cert', 'main.ts', 8]]);
    expect(a.read('main.ts')).toContain('      certificate: { expiresInDays: 10 },\n');
    await expectEmptyPlan(a);
  });
});

describe('a value that is not a literal of this alert', () => {
  it('a variable: no diff, the line names it, where it is declared, and the live value', async () => {
    const a = app(`${HEADER}
const days = 21;
new Alert(stack, 'Cert', {
  name: 'cert',
  target: AlertTarget.subdomain('www.example.com'),
  certificate: { expiresInDays: days },
});
app.synth();
`);
    await applied(a);
    await emulator().control.patchAlert('demo', await liveId('cert'), { filter_value: '45' });
    const { code, suggest: s } = await suggest(a, '--write');
    expect(code).toBe(2);
    expect(s.suggestions).toHaveLength(1);
    expect(s.suggestions[0].diff).toBeNull();
    expect(s.suggestions[0].summary).toBe(
      'main/Cert: expiresInDays is not a literal (main.ts:12: days, declared at main.ts:8); set certificate: { expiresInDays: 45 } there to match the account',
    );
    expect(s.written).toEqual([]);
    // Stated reason, not an edit: the plan still shows the change.
    expect((await run(a, 'plan', '--detailed-exitcode')).code).toBe(2);
  });

  it('alerts made in a loop: no diff, the shared declaration named', async () => {
    const a = app(`${HEADER}
for (const host of ['www.example.com', 'mail.example.com']) {
  new Alert(stack, host, {
    name: \`\${host} cert\`,
    target: AlertTarget.subdomain(host),
    certificate: { expiresInDays: 21 },
  });
}
app.synth();
`);
    await applied(a);
    await emulator().control.patchAlert('demo', await liveId('www.example.com cert'), { filter_value: '30' });
    const { suggest: s } = await suggest(a);
    expect(s.suggestions[0].diff).toBeNull();
    expect(s.suggestions[0].summary).toBe(
      'main/www.example.com is one of 2 alerts declared at main.ts:9 (a loop or a helper), so its props are not its own; set certificate: { expiresInDays: 30 } for this alert there',
    );
  });

  it("an alert policy's generated alert: one line naming the policy", async () => {
    const a = app(`import { App, TerraformStack } from 'cdktf';
import { AlertPolicy, NetworkcalcAccount, PolicyMode } from 'cdktf-provider-networkcalc';
const app = new App();
const stack = new TerraformStack(app, 'main');
new NetworkcalcAccount(stack, 'Account');
new AlertPolicy(stack, 'Baseline', {
  mode: PolicyMode.GENERATE,
  checks: [{ certificate: { expiresInDays: 21 } }],
  targets: { include: ['www.example.com'] },
});
app.synth();
`);
    await applied(a);
    const name = (await live())[0].name;
    await emulator().control.patchAlert('demo', await liveId(name), { filter_value: '30' });
    const { suggest: s } = await suggest(a);
    expect(s.suggestions).toHaveLength(1);
    expect(s.suggestions[0].summary).toBe(
      "generated by the alert policy main/Baseline (main.ts:6); change the policy's check, or exclude this target from it and declare the alert",
    );
  });
});

describe('an alert live but not in the app', () => {
  it('exclusive scope: a declaration beside the account (imports added); --write, then the plan is empty', async () => {
    const a = app(`import { App, TerraformStack } from 'cdktf';
import { NetworkcalcAccount } from 'cdktf-provider-networkcalc';

const app = new App();
const stack = new TerraformStack(app, 'main');
new NetworkcalcAccount(stack, 'Account');
app.synth();
`);
    await emulator().control.createAlert('demo', {
      name: 'hand-made MX',
      type: 'DNS Record',
      subtype: 'MX',
      filter: 'contains',
      filter_value: 'mx1.example.com',
      target: 'mail.example.com',
    });
    const { suggest: s } = await suggest(a, '--write');
    expect(s.suggestions.map((x) => x.kind)).toEqual(['undeclared']);
    expect(s.written).toEqual(['main.ts']);
    expect(a.read('main.ts')).toBe(`import { App, TerraformStack } from 'cdktf';
import { Alert, AlertTarget, NetworkcalcAccount } from 'cdktf-provider-networkcalc';

const app = new App();
const stack = new TerraformStack(app, 'main');
new NetworkcalcAccount(stack, 'Account');
new Alert(stack, 'HandMadeMX', {
  name: 'hand-made MX',
  target: AlertTarget.subdomain('mail.example.com'),
  dnsRecord: { record: 'MX', filter: 'contains', value: 'mx1.example.com' },
});
app.synth();
`);
    await expectEmptyPlan(a);
  });

  it('additive scope: not drift (exit 0), still offered as a declaration', async () => {
    const a = app(`import { App, TerraformStack } from 'cdktf';
import { Alert, AlertTarget, NetworkcalcAccount, Ownership } from 'cdktf-provider-networkcalc';
const app = new App();
const stack = new TerraformStack(app, 'main');
new NetworkcalcAccount(stack, 'Account', { ownership: Ownership.additive() });
new Alert(stack, 'Spf', { name: 'spf', target: AlertTarget.domain('example.com'), spfRecord: { filter: 'validity' } });
app.synth();
`);
    await applied(a);
    await emulator().control.createAlert('demo', {
      name: 'other',
      type: 'SPF Record',
      filter: 'validity',
      target: 'example.org',
    });
    const { code, suggest: s } = await suggest(a);
    expect(code).toBe(0);
    expect(s.suggestions.map((x) => [x.kind, x.alert])).toEqual([['undeclared', 'other']]);
    expect(s.patch).toContain(
      "+new Alert(stack, 'Other', {\n+  name: 'other',\n+  target: AlertTarget.domain('example.org'),\n+  spfRecord: { filter: 'validity' },\n+});",
    );
  });

  it('renamed in the console: the name literal is edited, nothing deleted or added', async () => {
    const a = app(TWO);
    await applied(a);
    await emulator().control.patchAlert('demo', await liveId('example.com MX'), { name: 'apex MX' });
    const { suggest: s } = await suggest(a, '--write');
    expect(s.suggestions.map((x) => [x.kind, x.alert, x.summary])).toEqual([
      [
        'changed',
        'apex MX',
        'main/ApexMx: renamed in the account from "example.com MX" to "apex MX"; the edit renames it',
      ],
    ]);
    expect(a.read('main.ts')).toContain(`  name: "apex MX",\n`);
    await expectEmptyPlan(a);
  });
});

describe('an alert deleted in the console', () => {
  it('states the choice; the diff deletes the declaration (comments above kept); the plan is empty', async () => {
    const a = app(TWO);
    await applied(a);
    await emulator().control.deleteAlert('demo', await liveId('www certificate expiry'));
    const r = await run(a, 'drift', '--suggest');
    expect(r.stdout).toContain(
      'main/WwwCertificate: deleted in the account: `ncalc apply` re-creates it, or delete its declaration to accept the deletion (the edit deletes it) (main.ts:9)',
    );
    const { suggest: s } = await suggest(a, '--write');
    expect(s.written).toEqual(['main.ts']);
    expect(a.read('main.ts')).toBe(TWO.replace(/new Alert\(stack, 'WwwCertificate'[^;]*;\n/, ''));
    await expectEmptyPlan(a);
  });
});

describe('bad input: a clear error, nothing written', () => {
  const CHANGE = async (a: TsApp) => {
    await applied(a);
    await emulator().control.patchAlert('demo', await liveId('www certificate expiry'), { filter_value: '30' });
  };

  it('a file changed since the synth (here: by the app itself) is refused', async () => {
    const a = app(`${TWO}require('fs').appendFileSync(__filename, '// touched\\n');\n`);
    await CHANGE(a);
    a.git('checkout', 'main.ts');
    const before = a.read('main.ts');
    const r = await run(a, 'drift', '--suggest', '--write');
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('main.ts changed after the app was synthesized; run ncalc drift --suggest again');
    expect(a.read('main.ts')).toBe(before + '// touched\n');
  });

  it('a declaration the parser cannot read: the file and line, and the parser message', async () => {
    // The app breaks the drifted alert's declaration as it runs (a bracket that does not close).
    const a = app(
      `${TWO}const fs = require('fs');\nfs.writeFileSync(__filename, fs.readFileSync(__filename, 'utf8').replace('expiresInDays: 21 },', 'expiresInDays: 21 ],'));\n`,
    );
    await CHANGE(a);
    a.git('checkout', 'main.ts');
    const r = await run(a, 'drift', '--suggest', '--write');
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(
      /✗ main\.ts:12: Unexpected token[^\n]*: the file does not parse, so no edit can be made in it/,
    );
    expect(r.stdout).not.toContain('Cannot read properties');
    expect(r.stdout).not.toContain('Wrote');
  });

  it('a construct path not found in the source (the alert is not made by a `new` expression)', async () => {
    const a = app(
      TWO.replace("new Alert(stack, 'ApexMx', {", "Reflect.construct(Alert, [stack, 'ApexMx', {").replace(
        "mail.example.com' },\n});",
        "mail.example.com' },\n}]);",
      ),
    );
    await applied(a);
    await emulator().control.patchAlert('demo', await liveId('example.com MX'), { filter_value: 'mx.example.com' });
    const before = a.read('main.ts');
    const { code, suggest: s } = await suggest(a, '--write');
    expect(code).toBe(1);
    expect(s.problems).toEqual([
      'main/ApexMx: the app made it at main.ts:14:9, but no `new Alert(...)` starts there in the source; the file may have changed since the synth: run again',
    ]);
    expect(a.read('main.ts')).toBe(before);
  });

  it('a read-only file, and an untracked one (unless --force)', async () => {
    const a = app(TWO);
    await CHANGE(a);
    const file = path.join(a.dir, 'main.ts');
    chmodSync(file, 0o444);
    let r = await suggest(a, '--write');
    expect(r.code).toBe(1);
    expect(r.suggest.problems).toEqual(['main.ts is read-only; make it writable, or apply the diff by hand']);
    chmodSync(file, 0o644);
    a.git('rm', '-q', '--cached', 'main.ts');
    r = await suggest(a, '--write');
    expect(r.suggest.problems).toEqual([
      'main.ts is not tracked by git, so the edit could not be reviewed or undone; commit it first, or give --force',
    ]);
    expect(a.read('main.ts')).toContain('expiresInDays: 21');
    // As text, the reason and what to do are the last line, below the diff.
    const text = await run(a, 'drift', '--suggest', '--write');
    expect(text.code).toBe(1);
    expect(text.stdout.trimEnd().split('\n').at(-1)).toBe(
      'Nothing was written: main.ts is not tracked by git, so the edit could not be reviewed or undone; commit it first, or give --force.',
    );
    r = await suggest(a, '--write', '--force');
    expect(r.suggest.written).toEqual(['main.ts']);
    await expectEmptyPlan(a);
  });

  it('usage: --write without --suggest, --suggest with --no-synth', async () => {
    const a = app(TWO);
    let r = await run(a, 'drift', '--write');
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('--write writes the suggested edits; give --suggest with it');
    // An output ncalc synth did not write records no declaration.
    expect((await run(a, 'validate')).code).toBe(0);
    r = await run(a, 'drift', '--suggest', '--no-synth');
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      'Error: --suggest needs to know where each alert is declared: cdktf.out holds no ncalc-sources.json, which ncalc synth writes; run ncalc synth --out cdktf.out, or leave out --no-synth',
    );
  });

  it('--terraform-plan: a missing file, or JSON that is not a refresh-only plan, is an error that says what to run', async () => {
    const a = app(TWO);
    let r = await run(a, 'drift', '--suggest', '--terraform-plan', 'nope.json');
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('--terraform-plan nope.json cannot be read (ENOENT)');
    a.write('state.json', JSON.stringify({ format_version: '1.0', values: {} }));
    r = await run(a, 'drift', '--suggest', '--write', '--terraform-plan', 'state.json');
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('terraform plan -refresh-only');
    expect(a.read('main.ts')).toBe(TWO);
  });
});

describe('at a realistic size, under faults', () => {
  it('300 alerts, 30 drifted, 20 % transient faults: 30 edits written, one list per command, then the plan is empty', async () => {
    const lines = [HEADER];
    for (let i = 0; i < 300; i++)
      lines.push(
        `new Alert(stack, 'A${i}', {`,
        `  name: 'alert ${String(i).padStart(3, '0')}',`,
        `  target: AlertTarget.${i % 2 ? "subdomain('www.example.com')" : "domain('example.com')"},`,
        `  certificate: { expiresInDays: ${(i % 60) + 1} },`,
        '});',
      );
    const a = app(lines.join('\n') + '\napp.synth();\n');
    expect((await run(a, 'apply', '--auto-approve', '--parallelism', '16')).code).toBe(0);
    const c = emulator().control;
    for (const alert of (await live()).filter((x) => x.name.endsWith('0')))
      await c.patchAlert('demo', alert.id, { filter_value: String(Number(alert.filter_value) + 30) });
    for (const f of faultMix(0.2, 0)) await c.addFault(f);
    await c.clearRequests();
    const { code, suggest: s } = await suggest(a, '--write');
    expect(code).toBe(2);
    expect(s.problems).toEqual([]);
    expect(s.suggestions.filter((x) => x.diff)).toHaveLength(30);
    expect(s.written).toEqual(['main.ts']);
    // One list answered per command: the faults cost retries, never a second list.
    const served = (await c.requests()).filter(
      (r) => r.method === 'GET' && r.path.startsWith('/api/alerts') && r.status === 200,
    );
    expect(served).toHaveLength(1);
    await c.clearFaults();
    await expectEmptyPlan(a);
  });
});

describe('CI reports', () => {
  it('markdown: a marker, the diffs folded; --report-dir: one report per account and an index', async () => {
    const a = app(TWO);
    await applied(a);
    await emulator().control.patchAlert('demo', await liveId('www certificate expiry'), { filter_value: '30' });
    const r = await run(a, 'drift', '--suggest', '--format', 'markdown', '--report-dir', 'drift-reports');
    expect(r.code).toBe(2);
    expect(r.stdout.startsWith('<!-- ncalc-drift -->\n## NetworkCalc alert drift')).toBe(true);
    expect(r.stdout).toContain('<details><summary>~ `www certificate expiry`:');
    expect(r.stdout).toContain('```diff\n--- a/main.ts\n+++ b/main.ts\n');
    const dir = path.join(a.dir, 'drift-reports');
    const index = JSON.parse(readFileSync(path.join(dir, 'index.json'), 'utf8'));
    expect(index.reports).toHaveLength(1);
    const [one] = index.reports;
    expect(one).toMatchObject({ account: 'main', status: 'drift', title: 'NetworkCalc alert drift: main' });
    expect(one.marker).toMatch(/^<!-- ncalc-drift account=[0-9a-f]{16} -->$/);
    expect(readdirSync(dir).sort()).toEqual([one.file, 'index.json', 'index.md'].sort());
    const body = readFileSync(path.join(dir, one.file), 'utf8');
    expect(body.startsWith(one.marker + '\n')).toBe(true);
    // ncalc github keeps one issue: created, then edited on the next run (same marker), then
    // closed once in sync, against the local GitHub API.
    const github = await startGitHubServer();
    try {
      const posted = () => postReports(a, github);
      expect((await posted()).calls).toEqual(['issues/create-label', 'issues/create']);
      await run(a, 'drift', '--report-dir', 'drift-reports');
      expect(JSON.parse(readFileSync(path.join(dir, 'index.json'), 'utf8')).reports[0].marker).toBe(one.marker);
      let p = await posted();
      expect(p.calls).toEqual(['issues/update']);
      expect(p.issues).toEqual(['NetworkCalc alert drift: main']);
      expect((await run(a, 'apply', '--auto-approve')).code).toBe(0);
      expect((await run(a, 'drift', '--report-dir', 'drift-reports')).code).toBe(0);
      p = await posted();
      expect(p.calls).toEqual(['issues/create-comment', 'issues/update']);
      expect(p.issues).toEqual([]);
      expect(github.violations).toEqual([]);
    } finally {
      await github.close();
    }
  });
});
