/**
 * `ncalc drift --suggest` in apps with TypeScript 5.9, 6.x and 7.x installed from the registry,
 * and with none: a TypeScript app run by tsx, a threshold changed in the account, the literal
 * edit (`--json` patch), `git apply`, then `ncalc plan --detailed-exitcode` must exit 0. Not a
 * test (it installs from the registry); the end-to-end tests cover no typescript, and one
 * whose main entry exports no compiler API.
 *
 * NCALC_BIN=<another build's dist/cli/main.js> runs that build instead (a before/after).
 *
 *   npm run build && npx tsx bench/suggest-typescript-versions.ts
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { NetworkCalcClient } from '../src/client';
import { startEmulator } from '../src/emulator';
import { NCALC, ROOT, TOKEN, table } from './support';

const VERSIONS = ['5.9', '6', '7', null];

const MAIN = `import { App, TerraformStack } from 'cdktf';
import { Alert, AlertTarget, NetworkcalcAccount } from 'cdktf-provider-networkcalc';

const app = new App();
const stack = new TerraformStack(app, 'main');
new NetworkcalcAccount(stack, 'Account');
new Alert(stack, 'WwwCertificate', {
  name: 'www certificate expiry',
  target: AlertTarget.subdomain('www.example.com'),
  certificate: { expiresInDays: 21 }, // three weeks
});
app.synth();
`;

function ncalc(args: string[], cwd: string, env: NodeJS.ProcessEnv): Promise<{ code: number; stdout: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [process.env.NCALC_BIN ?? NCALC, ...args], { cwd, env });
    let stdout = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 120_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code: code ?? -1, stdout });
    });
  });
}

function git(dir: string, ...args: string[]): void {
  execFileSync('git', args, {
    cwd: dir,
    stdio: 'pipe',
    env: {
      ...process.env,
      GIT_AUTHOR_NAME: 'b',
      GIT_AUTHOR_EMAIL: 'b@example.com',
      GIT_COMMITTER_NAME: 'b',
      GIT_COMMITTER_EMAIL: 'b@example.com',
    },
  });
}

async function main(): Promise<void> {
  const emu = await startEmulator({});
  const rows: string[][] = [];
  try {
    const env = { PATH: process.env.PATH, NO_COLOR: '1', NETWORKCALC_TOKEN: TOKEN, NETWORKCALC_BASE_URL: emu.url };
    for (const version of VERSIONS) {
      await emu.control.reset();
      const dir = mkdtempSync(path.join(tmpdir(), 'ncalc-bench-ts-'));
      try {
        writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: 'app', private: true }));
        if (version)
          execFileSync('npm', ['install', '--no-audit', '--no-fund', '--save-dev', `typescript@${version}`], {
            cwd: dir,
            stdio: 'pipe',
          });
        const installed = version
          ? JSON.parse(readFileSync(path.join(dir, 'node_modules', 'typescript', 'package.json'), 'utf8')).version
          : 'none';
        mkdirSync(path.join(dir, 'node_modules'), { recursive: true });
        symlinkSync(ROOT, path.join(dir, 'node_modules', 'cdktf-provider-networkcalc'));
        for (const dep of ['cdktf', 'constructs'])
          symlinkSync(path.join(ROOT, 'node_modules', dep), path.join(dir, 'node_modules', dep));
        const tsx = path.join(ROOT, 'node_modules', '.bin', 'tsx');
        writeFileSync(path.join(dir, 'cdktf.json'), JSON.stringify({ language: 'typescript', app: `${tsx} main.ts` }));
        writeFileSync(path.join(dir, '.gitignore'), 'node_modules\ncdktf.out\n');
        writeFileSync(path.join(dir, 'main.ts'), MAIN);
        git(dir, 'init', '-q');
        git(dir, 'add', '-A');
        git(dir, 'commit', '-qm', 'app');
        const apply = await ncalc(['apply', '--auto-approve'], dir, env);
        if (apply.code !== 0) throw new Error(`apply failed:\n${apply.stdout}`);
        const live = await new NetworkCalcClient({ baseUrl: emu.url, token: TOKEN }).listAlerts();
        await emu.control.patchAlert('demo', live.find((a) => a.name === 'www certificate expiry')!.id, {
          filter_value: '30',
        });
        const drift = await ncalc(['drift', '--suggest', '--json'], dir, env);
        const suggest = JSON.parse(drift.stdout).suggest as { patch: string; problems: string[] };
        writeFileSync(path.join(dir, 'drift.patch'), suggest.patch);
        if (suggest.patch) git(dir, 'apply', 'drift.patch');
        const edited = readFileSync(path.join(dir, 'main.ts'), 'utf8').includes('expiresInDays: 30 }, // three weeks');
        const plan = await ncalc(['plan', '--detailed-exitcode'], dir, env);
        rows.push([
          installed,
          String(drift.code),
          suggest.problems.length ? suggest.problems.join('; ') : 'none',
          edited ? 'yes' : 'no',
          String(plan.code),
        ]);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    }
  } finally {
    await emu.close();
  }
  console.log(
    table(
      ['typescript in the app', 'drift --suggest exit', 'problems', 'edit applied', 'plan exit (0 = no change)'],
      rows,
    ),
  );
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
