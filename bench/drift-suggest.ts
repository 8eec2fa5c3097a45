/**
 * `ncalc drift --suggest` beside plain `ncalc drift`: an app of N alerts declared one by one
 * with literal props (plain JS, so no compiler runs inside the app), every 10th changed out of
 * band. Runs alternate (drift, suggest, drift, …) against an in-process emulator with 10 ms
 * latency; wall, CPU (user + system, the synthesized app included: /usr/bin/time) and peak
 * RSS per command. With NCALC_BEFORE=<another build's dist/cli/main.js>, that build's
 * --suggest runs in the same rounds (its own caches warm), for a before/after in one run.
 * Then the round trip: --write, and `ncalc plan` must show no change; the emulator's request
 * counts show what each command called.
 *
 *   npm run build && npx tsx bench/drift-suggest.ts [alerts, default 1000] [runs, default 5]
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { NetworkCalcClient } from '../src/client';
import { startEmulator } from '../src/emulator';
import { NCALC, ROOT, SUBDOMAINS, TOKEN, benchSeed, median, table } from './support';

const N = Number(process.argv[2] ?? 1000);
const RUNS = Number(process.argv[3] ?? 5);
const DRIFT_EVERY = 10;

function writeApp(dir: string): void {
  const cdktf = require.resolve('cdktf', { paths: [ROOT] });
  const lines = [
    `const { App, TerraformStack } = require(${JSON.stringify(cdktf)});`,
    `const { Alert, AlertTarget, NetworkcalcAccount } = require(${JSON.stringify(path.join(ROOT, 'dist'))});`,
    'const app = new App();',
    "const stack = new TerraformStack(app, 'bench');",
    "new NetworkcalcAccount(stack, 'Account');",
  ];
  for (let i = 0; i < N; i++) {
    const host = `h${String(i % SUBDOMAINS).padStart(2, '0')}.example.com`;
    lines.push(
      `new Alert(stack, 'Alert${i}', {`,
      `  name: 'bench alert ${String(i).padStart(5, '0')}',`,
      `  target: AlertTarget.subdomain('${host}'),`,
      `  certificate: { expiresInDays: ${(i % 60) + 1} },`,
      '});',
    );
  }
  lines.push('app.synth();', '');
  writeFileSync(path.join(dir, 'main.js'), lines.join('\n'));
  writeFileSync(path.join(dir, 'cdktf.json'), JSON.stringify({ language: 'typescript', app: 'node main.js' }));
  writeFileSync(path.join(dir, '.gitignore'), 'cdktf.out\nnode_modules\n');
  // Where an app keeps its dependencies (and tools their caches).
  mkdirSync(path.join(dir, 'node_modules'));
  const git = (...args: string[]) =>
    execFileSync('git', args, {
      cwd: dir,
      env: {
        ...process.env,
        GIT_AUTHOR_NAME: 'b',
        GIT_AUTHOR_EMAIL: 'b@example.com',
        GIT_COMMITTER_NAME: 'b',
        GIT_COMMITTER_EMAIL: 'b@example.com',
      },
    });
  git('init', '-q');
  git('add', '-A');
  git('commit', '-qm', 'app');
}

interface Timed {
  code: number;
  wall: number;
  cpu: number;
  rssMb: number;
  stdout: string;
}

/** Async: the emulator runs in this process and must keep answering while ncalc runs. */
function timed(args: string[], env: NodeJS.ProcessEnv, cwd: string, ncalc = NCALC): Promise<Timed> {
  return new Promise((resolve, reject) => {
    const child = spawn('/usr/bin/time', ['-f', '%e %U %S %M', process.execPath, ncalc, ...args], { cwd, env });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 600_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      const last = stderr.trim().split('\n').pop()!.split(' ').map(Number);
      resolve({ code: code ?? -1, wall: last[0], cpu: last[1] + last[2], rssMb: last[3] / 1024, stdout });
    });
  });
}

async function main(): Promise<void> {
  const dir = mkdtempSync(path.join(tmpdir(), 'ncalc-bench-suggest-'));
  const emu = await startEmulator({ seed: benchSeed() });
  try {
    await emu.control.addFault({ kind: 'latency', latencyMs: 10, match: { path: '/api/' } });
    writeApp(dir);
    const env = { PATH: process.env.PATH, NO_COLOR: '1', NETWORKCALC_TOKEN: TOKEN, NETWORKCALC_BASE_URL: emu.url };
    const apply = await timed(['apply', '--auto-approve', '--parallelism', '16'], env, dir);
    if (apply.code !== 0) throw new Error(`apply failed:\n${apply.stdout}`);
    const client = new NetworkCalcClient({ baseUrl: emu.url, token: TOKEN });
    const live = (await client.listAlerts()).sort((a, b) => a.id - b.id);
    let drifted = 0;
    for (const [i, a] of live.entries())
      if (i % DRIFT_EVERY === 0) {
        await emu.control.patchAlert('demo', a.id, { filter_value: String(Number(a.filter_value) + 30) });
        drifted++;
      }
    const before = process.env.NCALC_BEFORE;
    const rows = { drift: [] as Timed[], before: [] as Timed[], suggest: [] as Timed[] };
    for (let r = 0; r < RUNS; r++) {
      rows.drift.push(await timed(['drift'], env, dir));
      if (before) rows.before.push(await timed(['drift', '--suggest', '--json'], env, dir, before));
      rows.suggest.push(await timed(['drift', '--suggest', '--json'], env, dir));
    }
    const doc = JSON.parse(rows.suggest[0].stdout);
    const withDiff = doc.suggest.suggestions.filter((s: { diff: string | null }) => s.diff).length;
    await emu.control.clearRequests();
    const write = await timed(['drift', '--suggest', '--write'], env, dir);
    const calls = await emu.control.countRequests({ method: 'GET', path: '/api/alerts' });
    const plan = await timed(['plan', '--detailed-exitcode'], env, dir);
    const stat = (xs: Timed[], k: 'wall' | 'cpu' | 'rssMb') =>
      `${median(xs.map((x) => x[k])).toFixed(2)} (${Math.min(...xs.map((x) => x[k])).toFixed(2)}–${Math.max(...xs.map((x) => x[k])).toFixed(2)})`;
    console.log(`${N} alerts, ${drifted} drifted, ${RUNS} runs each, alternating; median (min–max)\n`);
    console.log(
      table(
        ['command', 'wall s', 'CPU s', 'peak RSS MiB'],
        [
          ['ncalc drift', stat(rows.drift, 'wall'), stat(rows.drift, 'cpu'), stat(rows.drift, 'rssMb')],
          ...(before
            ? [
                [
                  'ncalc drift --suggest, before (NCALC_BEFORE)',
                  stat(rows.before, 'wall'),
                  stat(rows.before, 'cpu'),
                  stat(rows.before, 'rssMb'),
                ],
              ]
            : []),
          ['ncalc drift --suggest', stat(rows.suggest, 'wall'), stat(rows.suggest, 'cpu'), stat(rows.suggest, 'rssMb')],
        ],
      ),
    );
    const ratio = (xs: Timed[], k: 'wall' | 'cpu') =>
      (median(xs.map((x) => x[k])) / median(rows.drift.map((x) => x[k]))).toFixed(2);
    console.log(`\nratio --suggest / plain: wall ${ratio(rows.suggest, 'wall')}×, CPU ${ratio(rows.suggest, 'cpu')}×`);
    if (before) console.log(`before: wall ${ratio(rows.before, 'wall')}×, CPU ${ratio(rows.before, 'cpu')}×`);
    console.log(`suggestions with a diff: ${withDiff} of ${doc.suggest.suggestions.length}`);
    console.log(
      `--write: exit ${write.code}, ${calls} alert list call(s); then plan --detailed-exitcode: exit ${plan.code} (0 = no change)`,
    );
    console.log(`main.js after --write: ${readFileSync(path.join(dir, 'main.js'), 'utf8').split('\n').length} lines`);
  } finally {
    await emu.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
