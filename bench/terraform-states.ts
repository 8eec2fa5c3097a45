/**
 * What reading the Terraform states costs ncalc (src/read/terraform-state.ts and
 * terraform-backends.ts):
 * - A: an app of 1,000 stacks × 100 alerts with no backend and no state (cdktn's default): the
 *   time `prepare` takes with the states read (as plan, apply and destroy do) and without
 *   (`--ignore-terraform-state`), median of 7, for the sources given (this tree's `src`, and
 *   e.g. an export of an earlier commit's `src` beside a `node_modules` link, for "before");
 * - B: 100 stacks with an `http` backend each (a state server in this process), read by real
 *   terraform processes: the wall time, and where it goes (per terraform command, summed over
 *   the processes, which run 8 at once).
 *
 *   npx tsx bench/terraform-states.ts [src folders, default src] [B: stacks, default 100]
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import * as path from 'node:path';
import { startHttpStateServer } from '../test/helpers/state-backends';
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

async function partB(n: number): Promise<void> {
  const { backendSources, readBackendStates } = await import('../src/read/terraform-backends');
  const server = await startHttpStateServer();
  const out = mkdtempSync(path.join(tmpdir(), 'bench-backends-'));
  try {
    const stacks: Stack[] = [];
    for (let i = 0; i < n; i++) {
      const json = { terraform: { backend: { http: { address: server.url(`s${i}`) } } } };
      mkdirSync(path.join(out, 'stacks', `s${i}`), { recursive: true });
      writeFileSync(path.join(out, 'stacks', `s${i}`, 'cdk.tf.json'), JSON.stringify(json));
      stacks.push({ name: `s${i}`, json });
    }
    const env = { ...process.env, CHECKPOINT_DISABLE: '1' };
    const cold = await readBackendStates(backendSources(stacks, out), env);
    const warm = await readBackendStates(backendSources(stacks, out), env);
    console.log(
      `B: ${n} stacks, each with an http backend (terraform ${'1.11'}, 8 at once; load ${loadavg()[0]!.toFixed(1)})\n`,
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
  await partA(srcDirs);
  await partB(Number(process.argv[3] ?? 100));
}

void main();
