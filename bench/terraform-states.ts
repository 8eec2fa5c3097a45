/**
 * What reading the Terraform states costs ncalc (src/read/terraform-state.ts and
 * terraform-backends.ts):
 * - A: an app of 1,000 stacks × 100 alerts with no backend and no state (cdktn's default): the
 *   time `prepare` takes with the states read (as plan, apply and destroy do) and without
 *   (`--ignore-terraform-state`), median of 7, for the sources given (this tree's `src`, and
 *   e.g. an export of an earlier commit's `src` beside a `node_modules` link, for "before");
 * - B: 100 stacks with an `http` backend each (a state server in this process), and 100 with
 *   an `s3` backend each (an S3-compatible server, s3rver, in this process), read by real
 *   terraform processes: the wall time, and where it goes (per terraform command, summed over
 *   the processes, which run 8 at once).
 *
 *   npx tsx bench/terraform-states.ts [src folders, default src; none: no A] [B: stacks, default 100] [backends, default http,s3]
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import * as path from 'node:path';
import { S3_CREDENTIALS, startHttpStateServer, startS3Server } from '../test/helpers/state-backends';
import type { prepare as Prepare } from '../src/engine/plan-all';
import { fmtMs, median, ROOT, stackJson, table } from './support';

type Stack = { name: string; json: Record<string, unknown> };

async function partA(srcDirs: string[]): Promise<void> {
  const stacks: Stack[] = [];
  for (let i = 0; i < 1000; i++) {
    const json = stackJson(`s${i}`, 100);
    // One account per stack: its own token variable, so that no two stacks share a scope.
    const [provider] = (json.provider as { networkcalc: Record<string, unknown>[] }).networkcalc;
    provider!.token_env = `S${i}_TOKEN`;
    stacks.push({ name: `s${i}`, json });
  }
  const app = mkdtempSync(path.join(tmpdir(), 'bench-states-'));
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (let i = 0; i < 1000; i++) env[`S${i}_TOKEN`] = `s${i}-token`;
  const rows: string[][] = [];
  try {
    for (const dir of srcDirs) {
      const { prepare } = (await import(path.resolve(dir, 'engine', 'plan-all'))) as { prepare: typeof Prepare };
      const time = (withStates: boolean) => {
        const runs: number[] = [];
        for (let r = 0; r < 7; r++) {
          const t = process.hrtime.bigint();
          prepare(
            stacks,
            env,
            withStates ? { terraformState: { appDir: app, outdir: path.join(app, 'cdktf.out') } } : {},
          );
          runs.push(Number(process.hrtime.bigint() - t) / 1e6);
        }
        return median(runs);
      };
      time(true); // warm up
      const without = time(false);
      const withStates = time(true);
      rows.push([dir, fmtMs(without), fmtMs(withStates), fmtMs(withStates - without)]);
    }
    let backends = 0;
    const { backendSources } = await import('../src/read/terraform-backends');
    const t = process.hrtime.bigint();
    for (let r = 0; r < 7; r++) backends += backendSources(stacks, path.join(app, 'cdktf.out')).length;
    const scan = Number(process.hrtime.bigint() - t) / 7e6;
    console.log('A: 1,000 stacks × 100 alerts, no backend, no state (prepare, median of 7)\n');
    console.log(table(['sources', 'states not read', 'states read', 'reading the states'], rows));
    console.log(
      `\nThe scan for backends (this tree only, run by load before any process): ${fmtMs(scan)}, ${backends / 7} found.\n`,
    );
  } finally {
    rmSync(app, { recursive: true, force: true });
  }
}

/** A state server of this kind, and the backend block of stack `i` on it. */
async function stateServer(
  kind: string,
): Promise<{ backend: (i: number) => Record<string, unknown>; env: NodeJS.ProcessEnv; close: () => Promise<void> }> {
  if (kind === 'http') {
    const server = await startHttpStateServer();
    return { backend: (i) => ({ http: { address: server.url(`s${i}`) } }), env: {}, close: server.close };
  }
  const s3 = await startS3Server();
  const s3Block = (i: number) => ({
    s3: {
      bucket: s3.bucket,
      key: `s${i}.tfstate`,
      region: 'us-east-1',
      use_path_style: true,
      skip_credentials_validation: true,
      skip_requesting_account_id: true,
      skip_metadata_api_check: true,
      skip_region_validation: true,
      endpoints: { s3: s3.endpoint },
    },
  });
  return { backend: s3Block, env: S3_CREDENTIALS, close: s3.close };
}

async function partB(n: number, kind: string): Promise<void> {
  const { backendSources, readBackendStates } = await import('../src/read/terraform-backends');
  const server = await stateServer(kind);
  const out = mkdtempSync(path.join(tmpdir(), 'bench-backends-'));
  try {
    const stacks: Stack[] = [];
    for (let i = 0; i < n; i++) {
      const json = { terraform: { backend: server.backend(i) } };
      mkdirSync(path.join(out, 'stacks', `s${i}`), { recursive: true });
      writeFileSync(path.join(out, 'stacks', `s${i}`, 'cdk.tf.json'), JSON.stringify(json));
      stacks.push({ name: `s${i}`, json });
    }
    const env = { ...process.env, CHECKPOINT_DISABLE: '1', ...server.env };
    const cold = await readBackendStates(backendSources(stacks, out), env);
    const warm = await readBackendStates(backendSources(stacks, out), env);
    console.log(
      `B: ${n} stacks, each with an ${kind} backend (terraform ${'1.11'}, 8 at once; load ${loadavg()[0]!.toFixed(1)})\n`,
    );
    const rows = [cold, warm].map((r, i) => [
      i === 0 ? 'first (init in each)' : 'again (initialised)',
      fmtMs(r.ms),
      ...['init', 'workspace', 'state'].map((c) => fmtMs(r.commandMs[c] ?? 0)),
    ]);
    console.log(table(['run', 'wall', 'init (Σ)', 'workspace list (Σ)', 'state pull (Σ)'], rows));
  } finally {
    rmSync(out, { recursive: true, force: true });
    await server.close();
  }
}

async function main(): Promise<void> {
  const srcDirs = (process.argv[2] ?? path.join(ROOT, 'src')).split(',');
  if (process.argv[2] !== 'none') await partA(srcDirs);
  for (const kind of (process.argv[4] ?? 'http,s3').split(',')) await partB(Number(process.argv[3] ?? 100), kind);
}

void main();
