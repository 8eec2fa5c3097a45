/**
 * The READMEs of examples/alert-policy, preview, quickstart and multi-account, run as written (bash, in the example's folder of this
 * clone, `npx --no-install ncalc` from the clone's build), its ```sh block read from the README
 * itself; only the emulator's port differs (a free one instead of 8787). The output is checked
 * for what the README's comments say it shows.
 */
import { spawn } from 'node:child_process';
import { freePort } from '../helpers/ports';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { blocksUnder } from '../package/doc-snippets';
import { requireBuild, REPO_ROOT } from '../helpers/build';

jest.setTimeout(300_000);

/** Runs `script` with bash in `cwd`; the whole process group is killed when it ends or times out. */
function run(script: string, cwd: string): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['-c', script], {
      cwd,
      env: {
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        TMPDIR: tmpdir(),
        CI: '1',
        NO_COLOR: '1',
        CHECKPOINT_DISABLE: '1',
        NODE_DISABLE_COMPILE_CACHE: '1',
        TSX_DISABLE_CACHE: '1',
        npm_config_update_notifier: 'false',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    const stop = () => {
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        // the group has ended
      }
    };
    const timer = setTimeout(() => {
      stop();
      reject(new Error(`the README's steps did not end in 240 s:\n${out}`));
    }, 240_000);
    child.once('close', (code) => {
      clearTimeout(timer);
      stop();
      resolve({ code, out });
    });
  });
}

beforeAll(() => requireBuild('dist/cli/main.js'));

/** The example's README block under `heading`, on a free port instead of 8787, run in its folder. */
async function runReadme(example: string, heading: string): Promise<string> {
  const [block] = blocksUnder(`examples/${example}/README.md`, heading);
  const port = await freePort();
  expect(block).toMatch(/^npx --no-install ncalc emulator [^\n]*&/m);
  const script = block!
    .replace('ncalc emulator ', `ncalc emulator --port ${port} `)
    .replaceAll('127.0.0.1:8787', `127.0.0.1:${port}`);
  const { code, out } = await run(script, path.join(REPO_ROOT, 'examples', example));
  expect(code).toBe(0);
  return out;
}

test('examples/alert-policy: plan, apply, coverage and drift show what the README says', async () => {
  const out = await runReadme('alert-policy', 'Try it against the local emulator');
  // "9 to create: 4 targets × 2 checks, and the MX alert; ✗ coverage gap: domain example.org has no "MX" alert"
  expect(out).toContain('Plan: 9 to create, 0 to update, 0 to delete.\n');
  expect(out).toContain('  ✗ coverage gap: domain example.org has no "MX" alert');
  expect(out).toContain(
    'Policy coverage/Baseline (generate): domains and subdomains, except legacy.*; 4 targets × 2 checks',
  );
  expect(out).toContain('Apply complete: 9 created, 0 updated, 0 deleted, 0 failed.\n');
  // drift: "exit 2 for the same gap", though every alert is as declared.
  expect(out).toContain('Drift: no alert differs from the code, but the alert policies have coverage gaps.\n');
});

test('examples/preview: both preview lines give every alert a verdict, in text and as the markdown of a pull request', async () => {
  const out = await runReadme('preview', 'Would this alert fire?');
  // What the lookups find depends on this machine's network: the verdicts are counted, not named.
  const summaries = [
    ...out.matchAll(/^Preview of 5 alerts: (\d+) fire now, (\d+) quiet, (\d+) cannot be evaluated\./gm),
  ];
  expect(summaries).toHaveLength(2);
  for (const m of summaries) expect(Number(m[1]) + Number(m[2]) + Number(m[3])).toBe(5);
  expect(out.match(/^ {2}[●○?] (fires now|quiet|cannot evaluate) +"/gm)).toHaveLength(5);
  expect(out).toContain('<!-- ncalc-preview -->\n## NetworkCalc alert preview\n');
  expect(out).toContain('### Account `preview`');
  expect(out).toContain('Plan: 5 to create, 0 to update, 0 to delete.');
});

test('examples/quickstart: plan, apply and drift against the emulator show what the README says', async () => {
  const out = await runReadme('quickstart', 'Apply against the local emulator');
  // "10 to create, and the report"
  expect(out).toContain('Plan: 10 to create, 0 to update, 0 to delete.\nApply will also run 1 report trigger.\n');
  expect(out).toContain('  » domain example.com (id 1) report (quickstart/Report)  # triggers: alerts=');
  // "prints the report URL"
  expect(out).toMatch(
    /^ {2}✓ quickstart: domain example\.com \(id 1\) report: http:\/\/127\.0\.0\.1:\d+\/reports\/\S+$/m,
  );
  expect(out).toContain('Apply complete: 10 created, 0 updated, 0 deleted, 0 failed.\n');
  // "exit 0: in sync"
  expect(out).toContain('  In sync: 10 alerts match the code.\n\nNo drift.\n');
});

test('examples/multi-account: both accounts planned, applied and in sync, as the README says', async () => {
  const out = await runReadme('multi-account', 'Try it against the local emulator');
  // "2 empty accounts: their 5 domains and subdomains first, then 7 alerts for prod, 8 and a report for staging"
  expect(out).toContain(
    'Plan: 5 domains and subdomains to create, then 15 to create, 0 to update, 0 to delete.\nApply will also run 1 report trigger.\n',
  );
  expect(out).toContain('  + domain "example.org" (staging/ExampleOrg, created before the alerts on it)');
  // A declared domain not created yet: the report names it by a placeholder id until apply.
  expect(out).toContain('  » domain example.org (id -2) report (staging/ExampleOrgReport)  # triggers: alerts=');
  expect(out).toMatch(/^ {2}prod +7 +0 +0 +0 +applied$/m);
  expect(out).toMatch(/^ {2}staging +8 +0 +0 +0 +applied$/m);
  expect(out).toContain('Apply complete: 15 created, 0 updated, 0 deleted, 0 failed.\n');
  // "exit 0: both accounts in sync"
  expect(out).toContain('  In sync: 7 alerts match the code.\n');
  expect(out).toContain('  In sync: 8 alerts match the code.\n');
  expect(out).toContain('Accounts: 2 (2 in sync)\n');
  expect(out).toMatch(/\nNo drift\.\n/);
});
