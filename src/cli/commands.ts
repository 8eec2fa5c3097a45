import { appendFileSync } from 'node:fs';
import * as path from 'node:path';
import { createInterface } from 'node:readline';
import { NetworkCalcClient } from '../client';
import {
  COLOR, FORMAT_VERSION, PLAIN, applyAll, applySummary, changeResultLine, driftErrorMarkdown, driftMarkdown, driftText, errorJson, guardsOf, loadStacks, planAll, planText,
  offlineAccountProblems, prepare, readDesired, toJson, totals, triggerResultLine, ConfigError, type AccountPlan, type ApplyEvent, type Command, type Prepared, type Style,
} from '../reconcile';
import type { ClientFactory } from '../reconcile/types';
import { useColor, type CliIO } from './io';

/** Exit codes shared by every command. */
export const EXIT = { OK: 0, ERROR: 1, CHANGES: 2 } as const;

export interface CommonOptions {
  chdir?: string;
  app?: string;
  out?: string;
  synth: boolean;
  synthTimeout: string;
  stack?: string[];
  baseUrl?: string;
  color?: boolean;
  verbose?: boolean;
}

export function positiveInt(value: string, flag: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new ConfigError([`${flag} must be a whole number of at least 1, got ${JSON.stringify(value)}`]);
  return n;
}

export function clientFactory(io: CliIO, verbose: boolean): ClientFactory {
  if (io.clientFactory) return io.clientFactory;
  return (c) =>
    new NetworkCalcClient({
      baseUrl: c.baseUrl,
      token: c.token,
      clientId: c.clientId,
      clientSecret: c.clientSecret,
      retry: c.maxAttempts !== undefined ? { maxAttempts: c.maxAttempts } : undefined,
      timeoutMs: c.timeoutMs,
      logger: verbose ? (line) => io.stderr.write(`[http] ${line}\n`) : undefined,
    });
}

export function cwdOf(io: CliIO, opts: Pick<CommonOptions, 'chdir'>): string {
  return path.resolve(io.cwd, opts.chdir ?? '.');
}

/** Synthesizes the app (or reads cdktf.out with --no-synth) and returns the selected stacks. */
async function synthesize(io: CliIO, opts: Pick<CommonOptions, 'chdir' | 'app' | 'out' | 'synth' | 'synthTimeout' | 'stack'>) {
  const { stacks } = await loadStacks({
    cwd: cwdOf(io, opts), app: opts.app, out: opts.out, synth: opts.synth,
    timeoutMs: positiveInt(opts.synthTimeout, '--synth-timeout') * 1000, env: io.env, stacks: opts.stack,
  });
  return stacks;
}

/** Synthesize, read and validate: everything before the first API call. */
export async function load(io: CliIO, opts: CommonOptions): Promise<Prepared> {
  const stacks = await synthesize(io, opts);
  const prepared = prepare(stacks, io.env, { baseUrlOverride: opts.baseUrl });
  if (!prepared.accounts.length) {
    throw new ConfigError([`no NetworkCalc provider or alert in ${stacks.length ? `stacks ${stacks.map((s) => s.name).join(', ')}` : 'the app'}; add a NetworkcalcAccount and some alerts`]);
  }
  return prepared;
}

export function styleFor(io: CliIO, opts: Pick<CommonOptions, 'color'>): Style {
  return useColor(io.stdout, io.env, opts.color) ? COLOR : PLAIN;
}

/** Prints a configuration error, every problem on its own line, in the wanted format. */
const problemsOf = (e: unknown) => (e instanceof ConfigError ? e.problems : [e instanceof Error ? e.message : String(e)]);

export function reportError(io: CliIO, command: Command, e: unknown, json: boolean): number {
  const problems = problemsOf(e);
  if (json) io.stdout.write(JSON.stringify(errorJson(command, problems, e instanceof ConfigError ? e.details : undefined), null, 2) + '\n');
  const head = e instanceof ConfigError ? 'Error: the configuration is not valid; nothing was changed.' : 'Error:';
  io.stderr.write(`${head}\n${problems.map((p) => `  - ${p}`).join('\n')}\n`);
  return EXIT.ERROR;
}

const hasChanges = (plans: AccountPlan[]) => plans.some((p) => p.changes.length > 0);
const anyFailed = (plans: AccountPlan[]) => plans.some((p) => p.status === 'error');

export interface PlanFlags extends CommonOptions {
  json?: boolean;
  detailedExitcode?: boolean;
}

export async function planCommand(io: CliIO, opts: PlanFlags): Promise<number> {
  let prepared: Prepared;
  try {
    prepared = await load(io, opts);
  } catch (e) {
    return reportError(io, 'plan', e, !!opts.json);
  }
  const plans = await planAll(prepared, clientFactory(io, !!opts.verbose), { triggers: true });
  if (opts.json) io.stdout.write(JSON.stringify(toJson('plan', plans), null, 2) + '\n');
  else io.stdout.write(planText(plans, 'plan', styleFor(io, opts)));
  if (anyFailed(plans)) return EXIT.ERROR;
  return opts.detailedExitcode && hasChanges(plans) ? EXIT.CHANGES : EXIT.OK;
}

export type ValidateFlags = Omit<CommonOptions, 'baseUrl' | 'verbose'> & { baseUrl?: string; json?: boolean };

/**
 * Everything plan checks before its first API call, except credentials: for pull requests
 * whose pipelines get no secrets. Makes no API call.
 */
export async function validateCommand(io: CliIO, opts: ValidateFlags): Promise<number> {
  try {
    const desired = readDesired(await synthesize(io, opts));
    const problems = [...desired.problems, ...offlineAccountProblems(desired.scopes, desired.alerts, io.env, { baseUrlOverride: opts.baseUrl })];
    if (problems.length) throw new ConfigError(problems);
    if (!desired.scopes.length) throw new ConfigError(['no NetworkCalc provider or alert in the app; add a NetworkcalcAccount and some alerts']);
    const summary = {
      stacks: new Set(desired.scopes.map((s) => s.stack)).size,
      providers: desired.scopes.length,
      alerts: desired.alerts.length,
      report_triggers: desired.triggers.length,
    };
    if (opts.json) io.stdout.write(JSON.stringify({ format_version: FORMAT_VERSION, command: 'validate', valid: true, summary, accounts: [] }, null, 2) + '\n');
    else {
      const n = (k: number, word: string) => `${k} ${word}${k === 1 ? '' : 's'}`;
      io.stdout.write(
        `${styleFor(io, opts).green('The configuration is valid:')} ${n(summary.alerts, 'alert')} and ${n(summary.report_triggers, 'report trigger')} ` +
          `in ${n(summary.stacks, 'stack')} (${n(summary.providers, 'provider configuration')}). No API call was made.\n`,
      );
    }
    return EXIT.OK;
  } catch (e) {
    return reportError(io, 'validate', e, !!opts.json);
  }
}

export interface DriftFlags extends CommonOptions {
  format: string;
}

export async function driftCommand(io: CliIO, opts: DriftFlags): Promise<number> {
  const format = opts.format;
  if (!['text', 'json', 'markdown'].includes(format)) {
    return reportError(io, 'drift', new ConfigError([`--format must be text, json or markdown, got ${JSON.stringify(format)}`]), false);
  }
  // The markdown report goes to stdout (--format markdown) and to the job summary, errors included.
  const report = (markdown: string) => {
    if (format === 'markdown') io.stdout.write(markdown);
    const summaryFile = io.env.GITHUB_STEP_SUMMARY;
    if (!summaryFile) return;
    try {
      appendFileSync(summaryFile, markdown + '\n');
    } catch (e) {
      io.stderr.write(`warning: could not append to $GITHUB_STEP_SUMMARY: ${(e as Error).message}\n`);
    }
  };
  let prepared: Prepared;
  try {
    prepared = await load(io, opts);
  } catch (e) {
    report(driftErrorMarkdown(problemsOf(e)));
    return reportError(io, 'drift', e, format === 'json');
  }
  const plans = await planAll(prepared, clientFactory(io, !!opts.verbose), { triggers: false });
  if (format === 'json') io.stdout.write(JSON.stringify(toJson('drift', plans), null, 2) + '\n');
  else if (format === 'text') io.stdout.write(driftText(plans, styleFor(io, opts)));
  report(driftMarkdown(plans));
  if (anyFailed(plans)) return EXIT.ERROR;
  return hasChanges(plans) ? EXIT.CHANGES : EXIT.OK;
}

export interface ApplyFlags extends CommonOptions {
  json?: boolean;
  autoApprove?: boolean;
  parallelism: string;
  triggers?: boolean;
  allInScope?: boolean;
  /** apply: let a scope that declares no alerts delete the live ones. */
  allowEmpty?: boolean;
  /** apply: let one run delete a large share of a scope. */
  allowMassDelete?: boolean;
}

/**
 * The guarded deletions of an apply that its flags do not allow, as messages. Checked after
 * the plan is shown and before anything is asked or written, so a refusal changes nothing.
 */
function refusedDeletions(plans: AccountPlan[], opts: ApplyFlags): string[] {
  const allowed = { empty_scope: !!opts.allowEmpty, mass_delete: !!opts.allowMassDelete };
  return guardsOf(plans).filter((w) => !allowed[w.guard.kind]).map((w) => w.message);
}

/** Asks on stderr; only "yes" confirms. End of input (Ctrl-D) is a no. */
function confirm(io: CliIO, question: string): Promise<boolean> {
  const rl = createInterface({ input: io.stdin, output: io.stderr as NodeJS.WritableStream, terminal: false });
  return new Promise<boolean>((resolve) => {
    rl.once('close', () => {
      io.stderr.write('\n');
      resolve(false);
    });
    rl.question(question, (answer) => {
      resolve(answer.trim() === 'yes');
      rl.close();
    });
  });
}

/** A one-line counter redrawn in place on a terminal; nothing otherwise. */
class Progress {
  private done = 0;
  constructor(private readonly io: CliIO, private readonly total: number, private readonly enabled: boolean) {}
  line(text: string): void {
    this.clear();
    this.io.stdout.write(text + '\n');
    this.draw();
  }
  tick(): void {
    this.done++;
    this.draw();
  }
  private draw(): void {
    if (this.enabled && this.done < this.total) this.io.stderr.write(`\r\u001b[K  … ${this.done}/${this.total} done`);
  }
  clear(): void {
    if (this.enabled) this.io.stderr.write('\r\u001b[K');
  }
}

const SIGNALS = ['SIGINT', 'SIGTERM'] as const;

/** apply and destroy: plan, show, confirm, execute, report. */
export async function applyCommand(io: CliIO, opts: ApplyFlags, command: 'apply' | 'destroy'): Promise<number> {
  const json = !!opts.json;
  let prepared: Prepared;
  let parallelism: number;
  try {
    parallelism = positiveInt(opts.parallelism, '--parallelism');
    if (json && !opts.autoApprove) throw new ConfigError([`--json needs --auto-approve: ${command} cannot ask for confirmation while writing JSON`]);
    prepared = await load(io, opts);
  } catch (e) {
    return reportError(io, command, e, json);
  }
  const runTriggers = command === 'apply' && opts.triggers !== false;
  const plans = await planAll(prepared, clientFactory(io, !!opts.verbose), {
    mode: command === 'destroy' ? 'destroy' : 'converge',
    includeUndeclared: !!opts.allInScope,
    triggers: runTriggers,
  });
  const style = styleFor(io, opts);
  if (!json) io.stdout.write(planText(plans, command, style));
  const t = totals(plans);
  const work = t.create + t.update + t.delete + t.triggers;
  if (work === 0) {
    if (json) io.stdout.write(JSON.stringify(toJson(command, plans), null, 2) + '\n');
    else io.stdout.write(anyFailed(plans) ? '\nNothing to do in the accounts that could be planned.\n' : '\nNothing to do.\n');
    return anyFailed(plans) ? EXIT.ERROR : EXIT.OK;
  }
  const refused = command === 'apply' ? refusedDeletions(plans, opts) : [];
  if (refused.length) {
    if (json) io.stdout.write(JSON.stringify({ ...toJson(command, plans), error: { code: 'DELETE_GUARD', problems: refused } }, null, 2) + '\n');
    io.stderr.write(`Error: refusing to apply; nothing was changed.\n${refused.map((p) => `  - ${p}`).join('\n')}\n`);
    return EXIT.ERROR;
  }
  if (!opts.autoApprove) {
    if (!io.stdin.isTTY) {
      io.stderr.write(`Error: refusing to ${command} without confirmation: standard input is not a terminal. Review the plan above and run again with --auto-approve.\n`);
      return EXIT.ERROR;
    }
    const ok = await confirm(io, `\nDo you want to ${command === 'destroy' ? 'delete these alerts' : 'perform these actions'}? Only 'yes' will be accepted: `);
    if (!ok) {
      io.stderr.write(`${command} cancelled; nothing was changed.\n`);
      return EXIT.ERROR;
    }
  }
  if (!json) io.stdout.write(`\n${command === 'destroy' ? 'Destroying' : 'Applying'} (parallelism ${parallelism})…\n`);
  const progress = new Progress(io, work, !json && io.stderr.isTTY === true);
  // Ctrl-C: let the writes in flight finish and report; a second one ends the process at once.
  const interrupt = new AbortController();
  const onSignal = (signal: string) => {
    interrupt.abort();
    for (const s of SIGNALS) io.signals?.off(s, onSignal);
    progress.clear();
    io.stderr.write(`\n${signal}: starting no new changes; waiting for the ones in flight (press Ctrl-C again to stop at once).\n`);
  };
  for (const s of SIGNALS) io.signals?.on(s, onSignal);
  try {
    await applyAll(plans, {
      parallelism,
      triggers: runTriggers,
      signal: interrupt.signal,
      onEvent: (ev: ApplyEvent) => {
        progress.tick();
        if (json) return;
        progress.line(ev.kind === 'change' ? changeResultLine(ev.account, ev.change, ev.result, style) : triggerResultLine(ev.account, ev.trigger, ev.result, style));
      },
    });
  } finally {
    for (const s of SIGNALS) io.signals?.off(s, onSignal);
  }
  progress.clear();
  if (json) io.stdout.write(JSON.stringify(toJson(command, plans), null, 2) + '\n');
  else io.stdout.write('\n' + applySummary(plans, style, command));
  const failed = plans.some(
    (p) => p.interference || (p.results ?? []).some((r) => r.status === 'failed') || (p.triggerResults ?? []).some((r) => r.status === 'failed'),
  );
  return failed || interrupt.signal.aborted || anyFailed(plans) ? EXIT.ERROR : EXIT.OK;
}
