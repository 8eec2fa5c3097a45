/**
 * Runs a GitHub Actions workflow file locally, as GitHub would for one event, for the steps a
 * test can run: jobs in the order of their `needs`, each job's and step's `if:` (with
 * success(), failure(), always(), cancelled()), matrices (one leg after the other, with
 * `strategy.job-index`), `${{ }}` in `run:`, `env:` and `with:`, `GITHUB_OUTPUT` into step
 * outputs and job `outputs:`, `GITHUB_STEP_SUMMARY`, a failed step skipping the ones after it,
 * and `needs.<job>.result` / `.outputs`. `run:` steps run with bash as GitHub runs them
 * (`bash --noprofile --norc -eo pipefail`), in a fresh workspace per job, with the standard
 * environment (GITHUB_EVENT_NAME, GITHUB_EVENT_PATH, GITHUB_REPOSITORY, GITHUB_API_URL, …; no
 * GITHUB_TOKEN unless the workflow passes `github.token`).
 *
 * The standard actions are emulated: actions/checkout copies the repository's files into the
 * workspace, actions/setup-node uses the Node.js on PATH, actions/upload-artifact (a `path` of one
 * or several lines) and actions/download-artifact keep artifacts between jobs (`name`, `pattern`
 * into one folder per artifact, `path`), and the step `npm ci` is `install(workspace)` (no registry here). Any other
 * `uses:` fails the run, so nothing passes unrun.
 */
import { spawn } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { parse } from 'yaml';
import { condition, interpolate, type Scope, type Value } from './workflow-expressions';

interface Step {
  id?: string;
  name?: string;
  if?: string;
  uses?: string;
  run?: string;
  with?: Record<string, string | number | boolean>;
  env?: Record<string, string>;
}
interface Job {
  needs?: string | string[];
  if?: string;
  env?: Record<string, string>;
  outputs?: Record<string, string>;
  strategy?: { matrix?: Record<string, Value[]> };
  steps: Step[];
}
/** `not run`: its `if:` held, but the test left it out (`only`). */
export type Result = 'success' | 'failure' | 'skipped' | 'not run';
export interface StepRun {
  name: string;
  outcome: Result;
  output: string;
}
export interface LegRun {
  matrix: Record<string, Value>;
  steps: StepRun[];
  summary: string;
}
export interface JobRun {
  result: Result;
  outputs: Record<string, string>;
  legs: LegRun[];
}

export interface RunOptions {
  event: string;
  payload: Record<string, unknown>;
  ref: string;
  /** The repository's files, copied by actions/checkout. */
  repository: string;
  secrets: Record<string, string>;
  /** The runner machine's environment (PATH, and whatever the test's services need). */
  runnerEnv: Record<string, string>;
  github: { apiUrl: string; serverUrl: string; repository: string; token: string; runId: string };
  /** What `npm ci` does in a workspace. */
  install: (workspace: string) => void;
  stepTimeoutMs?: number;
  /** The jobs to run; any other whose `if:` holds is reported `not run` (and fails what needs it). */
  only?: string[];
}

export async function runWorkflow(file: string, options: RunOptions): Promise<Record<string, JobRun>> {
  const workflow = parse(readFileSync(file, 'utf8')) as { env?: Record<string, string>; jobs: Record<string, Job> };
  const root = mkdtempSync(path.join(tmpdir(), 'ncalc-workflow-'));
  try {
    const run = new Run(workflow.jobs, options, root);
    for (const name of order(workflow.jobs)) await run.job(name);
    return run.done;
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

/** The jobs, each after every job it needs. */
function order(jobs: Record<string, Job>): string[] {
  const out: string[] = [];
  const visit = (name: string, seen: string[]) => {
    if (out.includes(name)) return;
    if (seen.includes(name)) throw new Error(`the jobs ${seen.join(' → ')} need each other`);
    for (const n of needsOf(jobs[name]!)) visit(n, [...seen, name]);
    out.push(name);
  };
  for (const name of Object.keys(jobs)) visit(name, []);
  return out;
}

const needsOf = (job: Job): string[] => (job.needs === undefined ? [] : [job.needs].flat());

class Run {
  readonly done: Record<string, JobRun> = {};
  private readonly artifacts: string;
  private readonly eventFile: string;

  constructor(
    private readonly jobs: Record<string, Job>,
    private readonly o: RunOptions,
    private readonly root: string,
  ) {
    this.artifacts = path.join(root, 'artifacts');
    mkdirSync(this.artifacts);
    this.eventFile = path.join(root, 'event.json');
    writeFileSync(this.eventFile, JSON.stringify(o.payload));
  }

  async job(name: string): Promise<void> {
    const job = this.jobs[name]!;
    const needs = Object.fromEntries(
      needsOf(job).map((n) => [n, { result: this.done[n]!.result, outputs: this.done[n]!.outputs }]),
    );
    const failedNeed = needsOf(job).some((n) => this.done[n]!.result !== 'success');
    const scope = { contexts: { ...this.contexts(), needs }, failed: failedNeed };
    if (!condition(job.if, scope)) {
      this.done[name] = { result: 'skipped', outputs: {}, legs: [] };
      return;
    }
    if (this.o.only && !this.o.only.includes(name)) {
      this.done[name] = { result: 'not run', outputs: {}, legs: [] };
      return;
    }
    const matrix = job.strategy?.matrix ?? {};
    const keys = Object.keys(matrix);
    const combos = keys.length ? matrix[keys[0]!]!.map((v) => ({ [keys[0]!]: v })) : [{}];
    const legs = [];
    for (const [index, m] of combos.entries()) legs.push(await this.leg(name, job, needs, m, index));
    const outputs: Record<string, string> = {};
    for (const leg of legs) Object.assign(outputs, leg.outputs);
    const result = legs.some((l) => l.steps.some((s) => s.outcome === 'failure')) ? 'failure' : 'success';
    this.done[name] = { result, outputs, legs: legs.map(({ outputs: _o, ...l }) => l) };
  }

  private contexts(): Record<string, Value> {
    const g = this.o.github;
    return {
      github: {
        event_name: this.o.event,
        event: this.o.payload as Value,
        ref: this.o.ref,
        repository: g.repository,
        run_id: g.runId,
        token: g.token,
        server_url: g.serverUrl,
        api_url: g.apiUrl,
      },
      secrets: this.o.secrets,
      runner: { os: 'Linux', temp: this.root },
    };
  }

  private async leg(
    name: string,
    job: Job,
    needs: Record<string, Value>,
    matrix: Record<string, Value>,
    index: number,
  ) {
    const workspace = mkdtempSync(path.join(this.root, `${name}-${index}-`));
    const contexts: Record<string, Value> = {
      ...this.contexts(),
      needs,
      matrix,
      strategy: { 'job-index': index },
      steps: {},
    };
    const jobEnv = Object.fromEntries(
      Object.entries(job.env ?? {}).map(([k, v]) => [k, interpolate(String(v), { contexts, failed: false })]),
    );
    const steps: StepRun[] = [];
    let summary = '';
    for (const [i, step] of job.steps.entries()) {
      const failed = steps.some((s) => s.outcome === 'failure');
      const env = { ...jobEnv };
      const scope: Scope = { contexts: { ...contexts, env }, failed };
      for (const [k, v] of Object.entries(step.env ?? {})) env[k] = interpolate(String(v), scope);
      const label = step.name ?? step.uses ?? step.run!.split('\n')[0]!;
      if (!condition(step.if, scope)) {
        steps.push({ name: label, outcome: 'skipped', output: '' });
        continue;
      }
      const done = await this.step(step, scope, env, workspace, i);
      steps.push({ name: label, outcome: done.ok ? 'success' : 'failure', output: done.output });
      summary += done.summary;
      if (step.id) (contexts.steps as Record<string, Value>)[step.id] = { outputs: done.outputs };
    }
    const outputs = Object.fromEntries(
      Object.entries(job.outputs ?? {}).map(([k, v]) => [k, interpolate(v, { contexts, failed: false })]),
    );
    return { matrix, steps, summary, outputs };
  }

  private async step(step: Step, scope: Scope, env: Record<string, string>, workspace: string, i: number) {
    const none = { ok: true, output: '', summary: '', outputs: {} as Record<string, string> };
    const w = Object.fromEntries(Object.entries(step.with ?? {}).map(([k, v]) => [k, interpolate(String(v), scope)]));
    if (step.uses) return { ...none, ...this.action(step.uses, w, workspace) };
    const script = interpolate(step.run!, scope);
    if (script.trim() === 'npm ci') {
      this.o.install(workspace);
      return none;
    }
    return await this.bash(script, env, workspace, i);
  }

  private action(uses: string, w: Record<string, string>, workspace: string): { ok: boolean; output: string } {
    const action = uses.split('@')[0];
    const inWorkspace = (p: string | undefined) => path.resolve(workspace, p ?? '.');
    switch (action) {
      case 'actions/checkout':
        cpSync(this.o.repository, workspace, { recursive: true });
        return { ok: true, output: '' };
      case 'actions/setup-node':
        return { ok: true, output: `node ${process.version}` };
      case 'actions/upload-artifact': {
        // `path` may name several files or folders, one a line; those of one folder sit side by side.
        const from = (w.path ?? '.')
          .split('\n')
          .map((p) => p.trim())
          .filter((p) => p !== '')
          .map(inWorkspace)
          .filter((p) => existsSync(p));
        if (from.length === 0) return { ok: w['if-no-files-found'] !== 'error', output: `no files at ${w.path}` };
        const to = path.join(this.artifacts, w.name ?? 'artifact');
        if (existsSync(to)) return { ok: false, output: `an artifact ${w.name} exists already` };
        for (const f of from)
          cpSync(f, statSync(f).isDirectory() ? to : path.join(to, path.basename(f)), { recursive: true });
        return { ok: true, output: '' };
      }
      case 'actions/download-artifact':
        return this.download(w, inWorkspace(w.path));
      default:
        return { ok: false, output: `${uses} is not emulated` };
    }
  }

  private download(w: Record<string, string>, to: string): { ok: boolean; output: string } {
    if (w.name) {
      const from = path.join(this.artifacts, w.name);
      if (!existsSync(from)) return { ok: false, output: `Artifact not found: ${w.name}` };
      cpSync(from, to, { recursive: true });
      return { ok: true, output: '' };
    }
    const pattern = new RegExp(`^${(w.pattern ?? '*').replace(/[.+?^$()|[\]\\]/g, '\\$&').replace(/\*/g, '.*')}$`);
    const names = readdirSync(this.artifacts).filter((n) => pattern.test(n));
    for (const n of names) cpSync(path.join(this.artifacts, n), path.join(to, n), { recursive: true });
    return { ok: true, output: `${names.length} artifacts` };
  }

  private async bash(script: string, env: Record<string, string>, workspace: string, i: number) {
    const dir = mkdtempSync(path.join(this.root, `step-${i}-`));
    const files = {
      script: path.join(dir, 'step.sh'),
      output: path.join(dir, 'output'),
      summary: path.join(dir, 'summary'),
    };
    writeFileSync(files.script, script);
    writeFileSync(files.output, '');
    writeFileSync(files.summary, '');
    const r = await bashRun(files.script, this.o.stepTimeoutMs ?? 120_000, {
      cwd: workspace,
      env: {
        ...this.o.runnerEnv,
        CI: 'true',
        GITHUB_ACTIONS: 'true',
        GITHUB_EVENT_NAME: this.o.event,
        GITHUB_EVENT_PATH: this.eventFile,
        GITHUB_REF: this.o.ref,
        GITHUB_REPOSITORY: this.o.github.repository,
        GITHUB_API_URL: this.o.github.apiUrl,
        GITHUB_SERVER_URL: this.o.github.serverUrl,
        GITHUB_RUN_ID: this.o.github.runId,
        GITHUB_WORKSPACE: workspace,
        GITHUB_OUTPUT: files.output,
        GITHUB_STEP_SUMMARY: files.summary,
        RUNNER_TEMP: dir,
        ...env,
      },
    });
    return {
      ok: r.status === 0,
      output: r.output,
      summary: readFileSync(files.summary, 'utf8'),
      outputs: outputsOf(readFileSync(files.output, 'utf8')),
    };
  }
}

/** `name=value` lines and `name<<DELIMITER` blocks of a GITHUB_OUTPUT file. */
function outputsOf(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const block = /^([^=<]+)<<(.+)$/.exec(lines[i]!);
    if (block) {
      const end = lines.indexOf(block[2]!, i + 1);
      out[block[1]!] = lines.slice(i + 1, end).join('\n');
      i = end;
    } else if (lines[i]!.includes('='))
      out[lines[i]!.slice(0, lines[i]!.indexOf('='))] = lines[i]!.slice(lines[i]!.indexOf('=') + 1);
  }
  return out;
}

/** bash as GitHub runs a `run:` step, without blocking this process (its servers answer meanwhile). */
function bashRun(
  script: string,
  timeoutMs: number,
  options: { cwd: string; env: NodeJS.ProcessEnv },
): Promise<{ status: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn('bash', ['--noprofile', '--norc', '-eo', 'pipefail', script], {
      ...options,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    const timer = setTimeout(() => {
      output += `\nthe step did not finish in ${timeoutMs} ms\n`;
      child.kill('SIGKILL');
    }, timeoutMs);
    child.on('close', (status) => {
      clearTimeout(timer);
      resolve({ status, output });
    });
  });
}
