/**
 * A fleet of accounts with one stack each (`NetworkcalcAccount({ tokenEnv: 'ACCTnn_TOKEN' })`),
 * N accounts × M alerts, against an in-process emulator, with four accounts in trouble:
 * one whose secret is unset, one whose token the service refuses while the default client
 * credentials (NETWORKCALC_CLIENT_ID / _SECRET) belong to another account, one rate limited
 * (every request 429) and one failing (every request 500), the last two by the emulator's
 * faults per account. Runs the built CLI (one process per command, --no-synth on a
 * pre-synthesized app): plan, apply, drift, and drift as 4 shards in parallel. Reports wall
 * time, exit code, output lines, requests per account (by the account the credentials
 * claimed), requests made with an account's credentials on another's behalf, and whether
 * every healthy account converged with no duplicate.
 *
 *   npm run build && npx tsx bench/fleet-isolation.ts [cli, default dist/cli/main.js] [accounts, default 50] [alerts, default 40]
 *
 * FLEET_NO_SHARED=1 leaves the default client credentials unset.
 *
 * Give the `main.js` of another build as the first argument to measure it side by side.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { startEmulator, type EmulatorSeed, type RequestLogEntry, type RunningEmulator } from '../src/emulator';
import { ROOT, fmtMs, table } from './support';

const CLI = path.resolve(process.argv[2] ?? path.join(ROOT, 'dist', 'cli', 'main.js'));
const ACCOUNTS = Number(process.argv[3] ?? 50);
const ALERTS = Number(process.argv[4] ?? 40);
const name = (i: number) => `acct${String(i).padStart(2, '0')}`;
const names = Array.from({ length: ACCOUNTS }, (_, i) => name(i + 1));
/** The accounts in trouble, and the one whose client credentials are the shared defaults. */
const MISSING = name(13);
const REFUSED = name(7);
const LIMITED = name(21);
const FAILING = name(33);
const SHARED = name(ACCOUNTS);
const TROUBLED = new Set([MISSING, REFUSED, LIMITED, FAILING]);
const COMMAND_TIMEOUT_MS = 300_000;
/** FLEET_NO_SHARED=1: the default client credentials are not set at all. */
const NO_SHARED = process.env.FLEET_NO_SHARED === '1';

function seed(): EmulatorSeed {
  return {
    accounts: names.map((n, i) => ({
      name: n,
      user_id: i + 1,
      // The refused one's token expired long ago.
      tokens: [{ access_token: `${n}-token`, ...(n === REFUSED ? { expires_at: '2020-01-01T00:00:00Z' } : {}) }],
      ...(n === SHARED ? { credentials: [{ client_id: `${n}-client`, client_secret: `${n}-secret` }] } : {}),
      domains: [{ id: 10 * (i + 1), domain: `${n}.example` }],
    })),
  };
}

function stackJson(n: string, domainId: number): Record<string, unknown> {
  const alerts: Record<string, unknown> = {};
  for (let a = 0; a < ALERTS; a++) {
    const id = `Alert${a}`;
    alerts[id] = {
      '//': { metadata: { path: `${n}/Alert${a}/Resource`, uniqueId: id } },
      name: `${n} alert ${String(a).padStart(3, '0')}`,
      type: 'DNS Record',
      subtype: 'TXT',
      filter: 'contains',
      filter_value: `v=spf1 include:_spf${a}.${n}.example`,
      target_type: 'domain',
      target_id: domainId,
    };
  }
  return {
    '//': { metadata: { backend: 'local', stackName: n, version: '0.21.0' }, outputs: {} },
    // What NetworkcalcAccount({ tokenEnv }) writes: the token variable only.
    provider: { networkcalc: [{ ownership: 'exclusive', token_env: `${n.toUpperCase()}_TOKEN` }] },
    resource: { networkcalc_alert: alerts },
    terraform: { required_providers: { networkcalc: { source: 'networkcalc/networkcalc', version: '~> 0.1' } } },
  };
}

function writeApp(dir: string): void {
  const stacks: Record<string, unknown> = {};
  names.forEach((n, i) => {
    mkdirSync(path.join(dir, 'cdktf.out', 'stacks', n), { recursive: true });
    writeFileSync(path.join(dir, 'cdktf.out', 'stacks', n, 'cdk.tf.json'), JSON.stringify(stackJson(n, 10 * (i + 1))));
    stacks[n] = {
      name: n,
      constructPath: n,
      annotations: [],
      dependencies: [],
      stackMetadataPath: `stacks/${n}/metadata.json`,
      synthesizedStackPath: `stacks/${n}/cdk.tf.json`,
      workingDirectory: `stacks/${n}`,
    };
  });
  writeFileSync(path.join(dir, 'cdktf.out', 'manifest.json'), JSON.stringify({ version: '0.21.0', stacks }));
  writeFileSync(
    path.join(dir, 'cdktf.json'),
    JSON.stringify({ language: 'typescript', app: 'node main.js', output: 'cdktf.out' }),
  );
}

interface Run {
  code: number;
  ms: number;
  lines: number;
  stdout: string;
  stderr: string;
}

function run(args: string[], cwd: string, env: NodeJS.ProcessEnv): Promise<Run> {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const child = spawn(process.execPath, [CLI, ...args], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (d: Buffer) => out.push(d));
    child.stderr.on('data', (d: Buffer) => err.push(d));
    const timer = setTimeout(() => child.kill('SIGKILL'), COMMAND_TIMEOUT_MS);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      const stdout = Buffer.concat(out).toString('utf8');
      const stderr = Buffer.concat(err).toString('utf8');
      resolve({
        code: code ?? 1,
        ms: Number(process.hrtime.bigint() - started) / 1e6,
        lines: (stdout + stderr).split('\n').length - 1,
        stdout,
        stderr,
      });
    });
  });
}

/** What the request log says about one command. */
function requests(log: RequestLogEntry[]) {
  const perAccount = new Map<string, number>();
  for (const r of log) {
    const who = r.claimedAccount ?? '(none)';
    perAccount.set(who, (perAccount.get(who) ?? 0) + 1);
  }
  const healthy = names.filter((n) => !TROUBLED.has(n)).map((n) => perAccount.get(n) ?? 0);
  return {
    total: log.length,
    healthyMin: Math.min(...healthy),
    healthyMax: Math.max(...healthy),
    missing: perAccount.get(MISSING) ?? 0,
    // The shared client credentials are only the default of blocks that name nothing; every
    // block here names its token, so any token exchange with them is on another block's behalf.
    crossAccount: log.filter((r) => r.path === '/api/auth/token' && r.claimedAccount === SHARED).length,
    // Its own block's requests only, unless another block used its credentials: as many as a
    // healthy account's.
    asShared: perAccount.get(SHARED) ?? 0,
  };
}

async function main(): Promise<void> {
  const scratch = mkdtempSync(path.join(tmpdir(), 'ncalc-fleet-'));
  let emu: RunningEmulator | undefined;
  try {
    emu = await startEmulator({ seed: seed(), requestLogLimit: 50_000 });
    const app = path.join(scratch, 'app');
    writeApp(app);
    await emu.control.addFault({ kind: 'rate_limit', retryAfterSeconds: 1, match: { account: LIMITED } });
    await emu.control.addFault({ kind: 'status', status: 500, match: { account: FAILING } });
    const env: NodeJS.ProcessEnv = {
      PATH: process.env.PATH,
      NO_COLOR: '1',
      NETWORKCALC_BASE_URL: emu.url,
      ...(NO_SHARED
        ? {}
        : { NETWORKCALC_CLIENT_ID: `${SHARED}-client`, NETWORKCALC_CLIENT_SECRET: `${SHARED}-secret` }),
      ...Object.fromEntries(names.filter((n) => n !== MISSING).map((n) => [`${n.toUpperCase()}_TOKEN`, `${n}-token`])),
    };
    const rows: string[][] = [];
    const measure = async (label: string, runs: () => Promise<Run[]>) => {
      await emu!.control.clearRequests();
      const started = Date.now();
      const results = await runs();
      const wall = Date.now() - started;
      const r = requests(await emu!.control.requests());
      const codes = results.map((x) => x.code).join(',');
      const lines = results.reduce((n, x) => n + x.lines, 0);
      rows.push([
        label,
        fmtMs(wall),
        codes,
        String(lines),
        String(r.total),
        r.healthyMin === r.healthyMax ? String(r.healthyMin) : `${r.healthyMin}–${r.healthyMax}`,
        String(r.missing),
        String(r.crossAccount),
        String(r.asShared),
      ]);
      return results;
    };
    const nosynth = ['--no-synth'];
    const plan = await measure('plan', async () => [await run(['plan', ...nosynth], app, env)]);
    await measure('apply', async () => [await run(['apply', '--auto-approve', ...nosynth], app, env)]);
    const state = await emu.control.state();
    const converged = state.accounts.filter((a) => !TROUBLED.has(a.name) && a.name !== SHARED);
    const complete = converged.filter((a) => a.alerts.length === ALERTS).length;
    const dupes = state.accounts.reduce((n, a) => n + a.alerts.length - new Set(a.alerts.map((x) => x.name)).size, 0);
    const sharedAlerts = state.accounts.find((a) => a.name === SHARED)!.alerts.length;
    await measure('drift', async () => [await run(['drift', ...nosynth], app, env)]);
    const shards = await measure('drift --shard i/4 ×4 in parallel', () =>
      Promise.all([1, 2, 3, 4].map((i) => run(['drift', '--shard', `${i}/4`, ...nosynth], app, env))),
    );
    process.stdout.write(
      `${path.relative(ROOT, CLI) || CLI}: ${ACCOUNTS} accounts × ${ALERTS} alerts; ${MISSING} secret unset, ${REFUSED} token refused ` +
        `(${NO_SHARED ? 'no default client credentials set' : `default client credentials are ${SHARED}'s`}), ${LIMITED} at 429, ${FAILING} at 500\n\n` +
        table(
          [
            'command',
            'wall',
            'exit',
            'output lines',
            'requests',
            'requests per healthy account',
            `requests as ${MISSING}`,
            `token exchanges with ${SHARED}'s client credentials`,
            `requests as ${SHARED}`,
          ],
          rows,
        ) +
        `\n\nAfter apply: ${complete} of ${converged.length} healthy accounts (besides ${SHARED}) hold all ${ALERTS} alerts; ` +
        `${SHARED} holds ${sharedAlerts} (${ALERTS} expected); duplicates: ${dupes}.\n` +
        `plan's last lines: ${JSON.stringify(plan[0]!.stdout.trim().split('\n').slice(-2).join(' / ') || plan[0]!.stderr.trim().split('\n').slice(0, 2).join(' / '))}\n` +
        `shard exits: ${shards.map((s) => s.code).join(', ')}\n`,
    );
  } finally {
    await emu?.close();
    rmSync(scratch, { recursive: true, force: true });
  }
}

void main();
