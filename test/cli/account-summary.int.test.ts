/**
 * Output a person can read at many accounts: the per-account summary table at the end of
 * plan, apply and drift (text, JSON, markdown), the failed accounts in the last lines with
 * their reason, progress by account, a markdown report that names every account even when cut
 * at GitHub's size limit, and --report-dir files named by account.
 */
import { readFileSync, readdirSync } from 'node:fs';
import * as path from 'node:path';
import { PassThrough } from 'node:stream';
import { GITHUB_BODY_LIMIT } from '../../src/render/markdown-report';
import { reportFileNames } from '../../src/cli/drift-command';
import { run as runCli } from '../../src/cli/program';
import { useEmulator } from '../helpers/emulator';
import { FixtureApp, alert, cliEnv, fleet, ncalc } from './support';

const N = 25;
const ALERTS = 30;
const names = Array.from({ length: N }, (_, i) => `acct${String(i + 1).padStart(2, '0')}`);
/** Their tokens are refused: the account fails, the others go on. */
const REFUSED = ['acct07', 'acct13'];
const healthy = names.filter((n) => !REFUSED.includes(n));

const accounts = fleet(names);

const emulator = useEmulator({ seed: accounts.seed });
let app: FixtureApp;
beforeAll(() => {
  app = new FixtureApp(
    accounts.stacks((name, domainId) =>
      Object.fromEntries(
        Array.from({ length: ALERTS }, (_, k) => [
          `A${k}`,
          alert({
            name: `${name} mail exchanger record of the apex domain, check ${k}`,
            target_id: domainId,
            filter_value: `192.0.2.${k + 1}`,
          }),
        ]),
      ),
    ),
  );
});
afterAll(() => app.remove());

const env = () =>
  cliEnv({
    NETWORKCALC_BASE_URL: emulator().url,
    ...accounts.tokens((n) => (REFUSED.includes(n) ? `${n}-revoked` : `${n}-token`)),
  });

const run = (...args: string[]) => ncalc(args, { cwd: app.dir, env: env() });
const lines = (text: string) => text.trimEnd().split('\n');

describe('the per-account summary', () => {
  it('plan (text): a table of every account, the failed ones last with their reason', async () => {
    const r = await run('plan');
    expect(r.code).toBe(1);
    const out = lines(r.stdout);
    expect(out).toContain(`Accounts: ${N} (${healthy.length} changes, ${REFUSED.length} failed)`);
    expect(out).toContain('  account  create  update  delete  status   error');
    for (const name of healthy) expect(out).toContain(`  ${name}       ${ALERTS}       0       0  changes`);
    for (const name of REFUSED)
      expect(out.find((l) => l.startsWith(`  ${name} `))).toMatch(
        /^ {2}acct\d\d +0 +0 +0 {2}failed {3}NOT_AUTHORIZED \(HTTP 401\): /,
      );
    // The last lines: the failed accounts, each with its one-line reason.
    expect(out.slice(-3)).toEqual([
      `${REFUSED.length} of ${N} accounts failed:`,
      expect.stringMatching(/^ {2}✗ acct07: NOT_AUTHORIZED \(HTTP 401\)/),
      expect.stringMatching(/^ {2}✗ acct13: NOT_AUTHORIZED \(HTTP 401\): /),
    ]);
    expect(out[out.length - 4]).toBe(
      `Plan (incomplete: 2 accounts not planned): ${healthy.length * ALERTS} to create, 0 to update, 0 to delete.`,
    );
  });

  it('plan --json: account_summary, one row per account', async () => {
    const doc = JSON.parse((await run('plan', '--json')).stdout);
    expect(doc.account_summary).toHaveLength(N);
    expect(doc.account_summary[0]).toEqual({
      account: 'acct01',
      stacks: ['acct01'],
      create: ALERTS,
      update: 0,
      delete: 0,
      status: 'changes',
      error: null,
    });
    const failed = doc.account_summary.filter((r: { status: string }) => r.status === 'failed');
    expect(failed.map((r: { account: string }) => r.account)).toEqual(REFUSED);
    expect(failed[0].error).toMatch(/^NOT_AUTHORIZED \(HTTP 401\): the token was refused/);
    expect(failed[0].error).not.toContain('\n');
  });

  it('apply: progress by account, the table of what was done, a headline true about the failed accounts', async () => {
    const r = await run('apply', '--auto-approve');
    expect(r.code).toBe(1);
    const out = lines(r.stdout);
    const progress = out.filter((l) => l.startsWith('['));
    expect(progress).toHaveLength(healthy.length);
    expect(progress.map((l) => Number(/^\[(\d+)\//.exec(l)![1]))).toEqual(healthy.map((_, i) => i + 1));
    for (const name of healthy)
      expect(progress).toContainEqual(
        expect.stringMatching(new RegExp(`^\\[\\d+/${healthy.length} accounts\\] ${name}: ${ALERTS} created$`)),
      );
    expect(out).toContain(`Accounts: ${N} (${healthy.length} applied, ${REFUSED.length} failed)`);
    expect(out).toContain(`  acct01        ${ALERTS}        0        0       0  applied`);
    // Never "Apply complete" while whole accounts failed.
    expect(r.stdout).not.toContain('Apply complete');
    expect(out).toContain(
      `Apply finished with errors: ${healthy.length * ALERTS} created, 0 updated, 0 deleted, 0 failed; 2 of ${N} accounts could not be planned.`,
    );
    expect(out.slice(-3)).toEqual([
      `2 of ${N} accounts failed:`,
      expect.stringMatching(/^ {2}✗ acct07: NOT_AUTHORIZED \(HTTP 401\): /),
      expect.stringMatching(/^ {2}✗ acct13: NOT_AUTHORIZED \(HTTP 401\): /),
    ]);
    // Every healthy account holds its alerts once.
    const doc = JSON.parse((await run('plan', '--json')).stdout);
    expect(doc.summary).toMatchObject({ create: 0, update: 0, delete: 0, unchanged: healthy.length * ALERTS });
  });

  it('apply --json: rows of what was done', async () => {
    const doc = JSON.parse((await run('apply', '--auto-approve', '--json')).stdout);
    expect(doc.account_summary[1]).toEqual({
      account: 'acct02',
      stacks: ['acct02'],
      create: ALERTS,
      update: 0,
      delete: 0,
      failed: 0,
      status: 'applied',
      error: null,
    });
    expect(doc.account_summary[6]).toMatchObject({ account: 'acct07', status: 'failed', failed: 0 });
  });

  it('drift --format markdown over the size limit still names every account, in the table before the cut', async () => {
    const r = await run('drift', '--format', 'markdown', '--report-dir', 'reports');
    expect(r.code).toBe(1);
    expect(r.stdout.length).toBeLessThanOrEqual(GITHUB_BODY_LIMIT);
    expect(r.stdout).toMatch(/more lines? not shown: the report is over GitHub's/);
    const table = r.stdout.slice(0, r.stdout.indexOf('### Account'));
    expect(table).toContain('| Account | Missing | Edited | To delete | Status | Error |');
    for (const name of healthy) expect(table).toContain(`| \`${name}\` | ${ALERTS} | 0 | 0 | ⚠️ drift |  |`);
    for (const name of REFUSED)
      expect(table).toMatch(
        new RegExp(`\\| \`${name}\` \\| 0 \\| 0 \\| 0 \\| ❌ failed \\| NOT_AUTHORIZED \\(HTTP 401\\): `),
      );
    // Text: the same table, failed accounts last.
    const text = await run('drift');
    expect(lines(text.stdout)).toContain(`  acct01        ${ALERTS}       0          0  drift`);
    expect(lines(text.stdout).slice(-3)[0]).toBe(`2 of ${N} accounts failed:`);
  });

  it('--report-dir: one file per account, named by the account', async () => {
    await run('drift', '--report-dir', 'reports');
    const dir = path.join(app.dir, 'reports');
    expect(readdirSync(dir).sort()).toEqual([...names.map((n) => `${n}.md`), 'index.json', 'index.md'].sort());
    const index = JSON.parse(readFileSync(path.join(dir, 'index.json'), 'utf8'));
    expect(index.reports[6]).toMatchObject({
      account: 'acct07',
      stacks: ['acct07'],
      file: 'acct07.md',
      status: 'error',
    });
    expect(readFileSync(path.join(dir, 'acct07.md'), 'utf8')).toMatch(/^<!-- ncalc-drift account=[0-9a-f]{16} -->\n/);
  });
});

describe('on a terminal', () => {
  it('counts accounts while planning, and accounts done while applying, on stderr; gone at the end', async () => {
    let stdout = '';
    let stderr = '';
    const tty = (args: string[]) =>
      runCli(args, {
        stdout: { write: (s: string) => (stdout += s), isTTY: true },
        stderr: { write: (s: string) => (stderr += s), isTTY: true },
        stdin: new PassThrough(),
        env: env(),
        cwd: app.dir,
      });
    expect(await tty(['plan'])).toBe(1);
    expect(stderr).toContain(`\r\u001b[K  … 1/${N} accounts planned`);
    expect(stderr.endsWith('\r\u001b[K')).toBe(true);
    stderr = '';
    expect(await tty(['apply', '--no-synth', '--auto-approve'])).toBe(1);
    expect(stderr).toContain(`\r\u001b[K  … [0/${healthy.length} accounts] 1/${healthy.length * ALERTS} done`);
    expect(stderr.endsWith('\r\u001b[K')).toBe(true);
    expect(stdout).toContain(`Accounts: ${N} (${healthy.length} applied, ${REFUSED.length} failed)`);
  });
});

describe('report file names', () => {
  it('are the label made safe, with the hash only where two labels would share a file', () => {
    expect(
      reportFileNames([
        { label: 'prod', id: 'aaaa' },
        { label: 'team a/b+c', id: 'bbbb' },
        { label: 'Prod', id: 'cccc' },
        { label: '../..', id: 'dddd' },
        { label: 'x'.repeat(200), id: 'eeee' },
      ]),
    ).toEqual(['prod-aaaa.md', 'team-a-b-c.md', 'Prod-cccc.md', 'account.md', `${'x'.repeat(80)}.md`]);
  });
});
