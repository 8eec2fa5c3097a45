import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { PassThrough } from 'node:stream';
import { run } from '../../src/cli/program';
import type { CliIO } from '../../src/cli/io';
import type { EmulatorSeed } from '../../src/emulator';

export const ROOT = path.resolve(__dirname, '..', '..');
export const CLI = path.join(ROOT, 'dist', 'cli', 'main.js');

type Json = Record<string, unknown>;

/**
 * A CDK Terrain app in `app` (a sandbox's work folder below `root`), whose `main.js` is `main`:
 * it requires cdktn and this package by name, as users' apps do (`root/node_modules` links them).
 */
export function writeCdktnApp(root: string, app: string, main: string): void {
  for (const dep of ['cdktn', 'constructs'])
    symlinkSync(path.join(ROOT, 'node_modules', dep), path.join(root, 'node_modules', dep), 'dir');
  writeFileSync(path.join(app, 'main.js'), main);
  writeFileSync(path.join(app, 'cdktf.json'), JSON.stringify({ language: 'typescript', app: 'node main.js' }));
}

/** A fixture stack, written as cdktf would synthesize it. */
export function alert(fields: Json): Json {
  return {
    type: 'DNS Record',
    subtype: 'A',
    filter: 'equals',
    filter_value: '192.0.2.1',
    target_type: 'domain',
    target_id: 1,
    ...fields,
  };
}

export function stack(opts: {
  provider?: Json | Json[];
  alerts?: Record<string, Json>;
  triggers?: Record<string, Json>;
  data?: Json;
}): Json {
  const out: Json = {
    terraform: { required_providers: { networkcalc: { source: 'networkcalc/networkcalc', version: '~> 0.1' } } },
  };
  if (opts.provider) out.provider = { networkcalc: Array.isArray(opts.provider) ? opts.provider : [opts.provider] };
  const resource: Json = {};
  if (opts.alerts) resource.networkcalc_alert = opts.alerts;
  if (opts.triggers) resource.networkcalc_report_trigger = opts.triggers;
  if (Object.keys(resource).length) out.resource = resource;
  if (opts.data) out.data = opts.data;
  return out;
}

/**
 * A stack with one alert of each type (a DNS record over a subdomain and an SPF record over a
 * domain, both named through data sources, and a certificate over domain id 4), plus `extra`.
 */
export function threeTypeStack(extra: Record<string, Json> = {}): Json {
  return stack({
    provider: {},
    alerts: {
      Www: alert({ name: 'www A', target_type: 'subdomain', target_id: '${data.networkcalc_subdomain.www.id}' }),
      Spf: alert({
        name: 'spf valid',
        type: 'SPF Record',
        subtype: undefined,
        filter: 'validity',
        filter_value: undefined,
        target_id: '${data.networkcalc_domain.com.id}',
      }),
      Cert: alert({
        name: 'cert expiry',
        type: 'Certificate (TLS)',
        subtype: undefined,
        filter: 'expires in (days)',
        filter_value: '30',
        target_id: 4,
      }),
      ...extra,
    },
    data: {
      networkcalc_domain: { com: { name: 'example.com' } },
      networkcalc_subdomain: { www: { name: 'www.example.com' } },
    },
  });
}

/**
 * A fleet of accounts as the multi-account suites use it: each account with its own token
 * (`<name>-token`, read from `<NAME>_TOKEN`) and one domain, id 100 × (its position + 1).
 */
export function fleet(names: readonly string[]): {
  seed: EmulatorSeed;
  /** One stack per account naming its token variable; `alerts` gives each its alerts. */
  stacks(alerts: (name: string, domainId: number) => Record<string, Json>): Record<string, Json>;
  /** Each account's token variable set to `token(name)` (default: its valid token). */
  tokens(token?: (name: string) => string): Record<string, string>;
} {
  const tokenEnv = (name: string) => `${name.toUpperCase()}_TOKEN`;
  return {
    seed: {
      accounts: names.map((name, i) => ({
        name,
        user_id: i + 1,
        tokens: [{ access_token: `${name}-token` }],
        domains: [{ id: 100 * (i + 1), domain: 'example.com' }],
      })),
    },
    stacks: (alerts) =>
      Object.fromEntries(
        names.map((name, i) => [
          name,
          stack({ provider: { token_env: tokenEnv(name) }, alerts: alerts(name, 100 * (i + 1)) }),
        ]),
      ),
    tokens: (token = (name) => `${name}-token`) => Object.fromEntries(names.map((n) => [tokenEnv(n), token(n)])),
  };
}

/**
 * A temporary app directory: cdktf.json whose app writes the given stacks into CDKTF_OUTDIR
 * (as a real cdktf app does). `write` replaces the stacks, for the next synth.
 */
export class FixtureApp {
  readonly dir: string;
  constructor(stacks: Record<string, Json>) {
    this.dir = mkdtempSync(path.join(tmpdir(), 'ncalc-app-'));
    writeFileSync(path.join(this.dir, 'cdktf.json'), JSON.stringify({ language: 'typescript', app: 'node synth.js' }));
    writeFileSync(
      path.join(this.dir, 'synth.js'),
      `const fs = require('fs'); const path = require('path');
const out = process.env.CDKTF_OUTDIR; const stacks = require('./stacks.json'); const manifest = { version: '0.21.0', stacks: {} };
for (const [name, json] of Object.entries(stacks)) {
  fs.mkdirSync(path.join(out, 'stacks', name), { recursive: true });
  fs.writeFileSync(path.join(out, 'stacks', name, 'cdk.tf.json'), JSON.stringify(json, null, 2));
  manifest.stacks[name] = { name, constructPath: name, workingDirectory: 'stacks/' + name, synthesizedStackPath: 'stacks/' + name + '/cdk.tf.json', annotations: [], dependencies: [] };
}
fs.mkdirSync(out, { recursive: true }); fs.writeFileSync(path.join(out, 'manifest.json'), JSON.stringify(manifest, null, 2));
`,
    );
    this.write(stacks);
  }
  write(stacks: Record<string, Json>): void {
    mkdirSync(this.dir, { recursive: true });
    writeFileSync(path.join(this.dir, 'stacks.json'), JSON.stringify(stacks, null, 2));
  }
  remove(): void {
    rmSync(this.dir, { recursive: true, force: true });
  }
}

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs the CLI in-process (fast); stdin is not a terminal. */
export async function ncalc(
  args: string[],
  opts: { cwd: string; env: NodeJS.ProcessEnv; stdinTTY?: boolean; input?: string },
): Promise<CliResult> {
  let stdout = '';
  let stderr = '';
  const stdin = new PassThrough() as PassThrough & { isTTY?: boolean };
  stdin.isTTY = opts.stdinTTY;
  if (opts.input !== undefined) stdin.end(opts.input);
  const io: CliIO = {
    stdout: { write: (s: string) => (stdout += s), isTTY: false },
    stderr: { write: (s: string) => (stderr += s), isTTY: false },
    stdin,
    env: { ...SUITE_TMP_ENV, ...opts.env },
    cwd: opts.cwd,
  };
  const code = await run(args, io);
  return { code, stdout, stderr };
}

/** Runs the built CLI as a real process, bounded in time. */
export function ncalcProcess(
  args: string[],
  opts: { cwd: string; env: NodeJS.ProcessEnv; timeoutMs?: number },
): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], {
      cwd: opts.cwd,
      env: { ...SUITE_TMP_ENV, ...opts.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`ncalc ${args.join(' ')} did not finish in time\n${stdout}\n${stderr}`));
    }, opts.timeoutMs ?? 20_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code: code ?? -1, stdout, stderr });
    });
  });
}

/** The environment of a CLI run: nothing inherited but PATH, so tests see only what they set. */
export function cliEnv(vars: Record<string, string>): NodeJS.ProcessEnv {
  return { PATH: process.env.PATH, NO_COLOR: '1', ...SUITE_TMP_ENV, ...vars };
}

/**
 * What jest.config.js sets for the suites, for an environment built from scratch: the apps and
 * processes ncalc starts keep no tsx transform cache and no Node compile cache, and use the
 * suites' TMPDIR (where CI checks that nothing is left).
 */
const SUITE_TMP_ENV: NodeJS.ProcessEnv = {
  TSX_DISABLE_CACHE: '1',
  NODE_DISABLE_COMPILE_CACHE: '1',
  ...(process.env.TMPDIR ? { TMPDIR: process.env.TMPDIR } : {}),
};
