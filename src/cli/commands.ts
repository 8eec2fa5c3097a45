import { readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { createInterface } from 'node:readline';
import { NetworkCalcClient } from '../client';
import {
  accountDoneLine,
  applySummary,
  changeResultLine,
  planText,
  triggerResultLine,
  type AccountTally,
} from '../render/text';
import { COLOR, PLAIN, type Style } from '../render/style';
import { FORMAT_VERSION, errorJson, runError, toJson, type RunErrorCode } from '../render/json';
import { VERBS, applyFailed, guardsOf, totals, type Command } from '../render/totals';
import { PlanFileError, StalePlanError, readSavedPlan, revivePlan, savedPlanText } from '../read/saved-plan';
import {
  applyAll,
  defaultAccountParallelism,
  writingAccounts,
  sharedClients,
  type ApplyEvent,
  type ApplyReport,
} from '../engine/apply';
import { inShard, parseShard, type Shard } from '../plan/shard';
import { loadStacks } from '../read/synth';
import { ConfigError } from '../contract/config-error';
import { offlineAccountProblems } from '../plan/accounts';
import { planAll, prepare, type PlanOptions, type Prepared } from '../engine/plan-all';
import { type AccountPlan } from '../plan/account-plan';
import { readDesired } from '../read/desired';
import type { ClientFactory } from '../plan/types';
import {
  certificateLifetimes,
  lookupFlagProblems,
  lookupsFromFlags,
  previewPlans,
  type PreviewFlags,
} from '../preview';
import { previewJson, previewText } from '../render/preview';
import { directoryProblem, fileErrorText, outputFileProblem } from './files';
import { ERROR_PREFIX, useColor, type CliIO } from './io';
import { Progress, planningProgress } from './progress';
import { USAGE_HINT, UsageError } from './usage';

/** Exit codes shared by every command. */
export const EXIT = { OK: 0, ERROR: 1, CHANGES: 2 } as const;

export interface CommonOptions extends PreviewFlags {
  chdir?: string;
  app?: string;
  out?: string;
  synth: boolean;
  synthTimeout: string;
  stack?: string[];
  baseUrl?: string;
  color?: boolean;
  verbose?: boolean;
  /** `i/n`: only the accounts of shard i of n (plan, apply, drift). */
  shard?: string;
}

export function positiveInt(value: string, flag: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1)
    throw new UsageError([`${flag} must be a whole number of at least 1, got ${JSON.stringify(value)}`]);
  return n;
}

export function shardFlag(value: string | undefined): Shard | null {
  if (value === undefined) return null;
  const shard = parseShard(value);
  if ('problem' in shard) throw new UsageError([shard.problem]);
  return shard;
}

/**
 * The client of each account. One per set of credentials for the whole run, so planning and
 * applying an account share it (and its access token) although a plan holds no client.
 */
export function clientFactory(io: CliIO, verbose: boolean): ClientFactory {
  if (io.clientFactory) return io.clientFactory;
  return sharedClients(
    (c) =>
      new NetworkCalcClient({
        baseUrl: c.baseUrl,
        token: c.token,
        clientId: c.clientId,
        clientSecret: c.clientSecret,
        retry: c.maxAttempts !== undefined ? { maxAttempts: c.maxAttempts } : undefined,
        timeoutMs: c.timeoutMs,
        variables: c.variables,
        logger: verbose ? (line) => io.stderr.write(`[http] ${line}\n`) : undefined,
      }),
  );
}

/**
 * Certificate reads for alert policy checks whose threshold is "before renewal fails", with the
 * lookup flags a command has (none: the system resolver); nothing is looked up unless a plan
 * has such a check.
 */
export const certificateLookups = (io: CliIO, flags: PreviewFlags = {}) =>
  certificateLifetimes(() => lookupsFromFlags(flags, io.env));

/** The app's directory (`-C`); a ConfigError naming it when it is not a directory. */
export function cwdOf(io: CliIO, opts: Pick<CommonOptions, 'chdir'>): string {
  const dir = path.resolve(io.cwd, opts.chdir ?? '.');
  const problem = directoryProblem(dir);
  if (problem)
    throw new ConfigError(
      [`-C ${opts.chdir ?? '.'}: ${problem}; give the directory of the app (the one holding cdktf.json)`],
      undefined,
      'the app directory cannot be used; nothing was changed.',
    );
  return dir;
}

/** Whether a line may be redrawn in place: both streams on a terminal, and no JSON on stdout. */
const interactive = (io: CliIO, json: boolean) => !json && io.stdout.isTTY === true && io.stderr.isTTY === true;

/**
 * Synthesizes the app (or reads cdktf.out with --no-synth) and returns the selected stacks.
 * On a terminal a `synthesizing…` line says why nothing happens yet, then how long it took.
 */
export async function synthesize(
  io: CliIO,
  opts: Pick<CommonOptions, 'chdir' | 'app' | 'out' | 'synth' | 'synthTimeout' | 'stack'>,
  json: boolean,
  appEnv: NodeJS.ProcessEnv = {},
) {
  const timeoutMs = positiveInt(opts.synthTimeout, '--synth-timeout') * 1000;
  const status = opts.synth && interactive(io, json);
  const started = Date.now();
  if (status) io.stderr.write('synthesizing…');
  try {
    const { stacks } = await loadStacks({
      cwd: cwdOf(io, opts),
      app: opts.app,
      out: opts.out,
      synth: opts.synth,
      timeoutMs,
      env: { ...io.env, ...appEnv },
      stacks: opts.stack,
    });
    if (status) io.stderr.write(`\r\u001b[Ksynthesized in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
    return stacks;
  } catch (e) {
    if (status) io.stderr.write('\r\u001b[K');
    throw e;
  }
}

/** The accounts a run works on, and how many the app has (they differ with --shard). */
export interface Loaded extends Prepared {
  shard: Shard | null;
  allAccounts: number;
}

/** Synthesize, read and validate: everything before the first API call. */
export async function load(
  io: CliIO,
  opts: CommonOptions,
  json: boolean,
  appEnv: NodeJS.ProcessEnv = {},
): Promise<Loaded> {
  const shard = shardFlag(opts.shard);
  // --resolver and the other lookup flags of the commands that have them, before anything runs.
  const lookupProblems = lookupFlagProblems(opts, io.env);
  if (lookupProblems.length) throw new UsageError(lookupProblems);
  const stacks = await synthesize(io, opts, json, appEnv);
  const prepared = prepare(stacks, io.env, { baseUrlOverride: opts.baseUrl });
  if (!prepared.accounts.length) {
    throw new ConfigError([
      `no NetworkCalc provider or alert in ${stacks.length ? `stacks ${stacks.map((s) => s.name).join(', ')}` : 'the app'}; add a NetworkcalcAccount and some alerts`,
    ]);
  }
  // Every account is validated above, the shard's only are called.
  const accounts = shard ? prepared.accounts.filter((a) => inShard(a, shard)) : prepared.accounts;
  return { ...prepared, accounts, shard, allAccounts: prepared.accounts.length };
}

/** `Shard 2/3: 2 of 5 accounts …`, above the plan of a sharded run. */
export function shardText(loaded: Pick<Loaded, 'shard' | 'allAccounts' | 'accounts'>): string {
  const { shard, allAccounts, accounts } = loaded;
  if (!shard) return '';
  const n = accounts.length;
  return `Shard ${shard.index}/${shard.count}: ${n} of ${allAccounts} account${allAccounts === 1 ? '' : 's'}; the other ${allAccounts - n} ${allAccounts - n === 1 ? 'is' : 'are'} in other shards.\n\n`;
}

/** The `shard` field of a sharded run's JSON document. */
export function shardJson(loaded: Pick<Loaded, 'shard' | 'allAccounts' | 'accounts'>): Record<string, unknown> {
  const { shard } = loaded;
  return shard
    ? {
        shard: {
          index: shard.index,
          count: shard.count,
          accounts: loaded.accounts.length,
          total_accounts: loaded.allAccounts,
        },
      }
    : {};
}

export function styleFor(io: CliIO, opts: Pick<CommonOptions, 'color'>): Style {
  return useColor(io.stdout, io.env, opts.color) ? COLOR : PLAIN;
}

export const problemsOf = (e: unknown) =>
  e instanceof ConfigError || e instanceof UsageError ? e.problems : [e instanceof Error ? e.message : String(e)];

/** The code and the first line of each kind of error a run can end with before it writes. */
function classify(e: unknown): { code: RunErrorCode; head: string } {
  if (e instanceof UsageError) return { code: 'USAGE_ERROR', head: '' };
  if (e instanceof PlanFileError)
    return { code: 'PLAN_FILE', head: 'Error: the saved plan cannot be applied; nothing was changed.' };
  if (e instanceof StalePlanError)
    return { code: 'STALE_PLAN', head: 'Error: the saved plan is stale; nothing was changed.' };
  if (e instanceof ConfigError)
    return {
      code: 'CONFIG_ERROR',
      head: `Error: ${e.summary ?? 'the configuration is not valid; nothing was changed.'}`,
    };
  return { code: 'CONFIG_ERROR', head: 'Error:' };
}

/**
 * Prints an error that ended a run before any write, every problem on its own line; with
 * `json`, also the error document on stdout. Usage errors read like commander's own.
 */
export function reportError(io: CliIO, command: Command, e: unknown, json: boolean): number {
  const problems = problemsOf(e);
  const { code, head } = classify(e);
  if (json)
    io.stdout.write(
      JSON.stringify(errorJson(command, problems, e instanceof ConfigError ? e.details : undefined, code), null, 2) +
        '\n',
    );
  if (code === 'USAGE_ERROR')
    io.stderr.write(`${problems.map((p) => `${ERROR_PREFIX}${p}`).join('\n')}\n${USAGE_HINT}\n`);
  else io.stderr.write(`${head}\n${problems.map((p) => `  - ${p}`).join('\n')}\n`);
  return EXIT.ERROR;
}

/** planAll with a count of the accounts planned so far on a terminal. */
export async function planAccounts(
  io: CliIO,
  loaded: Loaded,
  factory: ClientFactory,
  options: PlanOptions,
  json: boolean,
): Promise<AccountPlan[]> {
  const progress = planningProgress(io, loaded.accounts.length, json);
  try {
    return await planAll(loaded, factory, { ...options, onPlanned: progress.onPlanned });
  } finally {
    progress.done();
  }
}

export const hasChanges = (plans: readonly AccountPlan[]) => plans.some((p) => p.changes.length > 0);
export const anyFailed = (plans: readonly AccountPlan[]) => plans.some((p) => p.status === 'error');
export const writeJson = (io: CliIO, doc: unknown) => io.stdout.write(JSON.stringify(doc, null, 2) + '\n');

export interface PlanFlags extends CommonOptions {
  json?: boolean;
  /** Also evaluate the alerts now (`ncalc preview`); `changesOnly`: only those the plan changes. */
  preview?: boolean;
  changesOnly?: boolean;
  detailedExitcode?: boolean;
  /** Write the plan to this file for `ncalc apply <file>`. */
  save?: string;
}

/** Writes a file whole or not at all: a reader never sees half a plan. */
function writeAtomically(file: string, text: string): void {
  const tmp = `${file}.${process.pid}.tmp`;
  try {
    writeFileSync(tmp, text);
    renameSync(tmp, file);
  } catch (e) {
    rmSync(tmp, { force: true });
    throw e;
  }
}

export async function planCommand(io: CliIO, opts: PlanFlags): Promise<number> {
  const json = !!opts.json;
  let loaded: Loaded;
  const lookups = opts.preview ? lookupsFromFlags(opts, io.env) : null;
  try {
    // A plan that cannot be saved is found out before the app runs or any account is called.
    const saveProblem =
      opts.save !== undefined && outputFileProblem(path.resolve(io.cwd, opts.save), opts.save, '--save', 'plan.json');
    if (saveProblem) throw new UsageError([saveProblem]);
    if (lookups && 'problems' in lookups) throw new UsageError(lookups.problems);
    if (!opts.preview && opts.changesOnly)
      throw new UsageError(['--changes-only chooses what --preview evaluates; give --preview with it']);
    loaded = await load(io, opts, json);
  } catch (e) {
    return reportError(io, 'plan', e, json);
  }
  const plans = await planAccounts(
    io,
    loaded,
    clientFactory(io, !!opts.verbose),
    {
      triggers: true,
      // One set of lookups for the policies' certificates and the preview: each host read once.
      certificateLifetime:
        lookups && !('problems' in lookups) ? certificateLifetimes(() => lookups) : certificateLookups(io, opts),
    },
    json,
  );
  const preview =
    lookups && !('problems' in lookups) ? await previewPlans(plans, lookups, { changesOnly: opts.changesOnly }) : null;
  if (json)
    writeJson(io, {
      ...toJson('plan', plans, undefined, shardJson(loaded)),
      ...(preview ? { preview: previewJson(preview) } : {}),
    });
  else
    io.stdout.write(
      shardText(loaded) +
        planText(plans, 'plan', styleFor(io, opts)) +
        (preview ? '\n' + previewText(preview, styleFor(io, opts), loaded.accounts.length > 1) : ''),
    );
  if (opts.save !== undefined) {
    const file = path.resolve(io.cwd, opts.save);
    // A plan that missed an account would apply as if that account needed nothing.
    if (anyFailed(plans)) {
      io.stderr.write(
        `Error: the plan was not saved to ${opts.save}: some accounts could not be planned (see above); nothing is saved until every account is.\n`,
      );
      return EXIT.ERROR;
    }
    try {
      writeAtomically(file, savedPlanText(plans, { triggers: true, shard: loaded.shard }));
    } catch (e) {
      io.stderr.write(`Error: the plan was not saved: ${fileErrorText(opts.save, e)}.\n`);
      return EXIT.ERROR;
    }
    // On stderr with --json, so stdout stays one document.
    (json ? io.stderr : io.stdout).write(
      `\nSaved the plan to ${opts.save}. To apply exactly this plan: ncalc apply ${opts.save}\n`,
    );
  }
  if (anyFailed(plans)) return EXIT.ERROR;
  return opts.detailedExitcode && hasChanges(plans) ? EXIT.CHANGES : EXIT.OK;
}

export type ValidateFlags = Omit<CommonOptions, 'baseUrl' | 'verbose'> & { baseUrl?: string; json?: boolean };

/** The checks of `validate` (no credentials, no API call) on synthesized stacks; throws a ConfigError listing every problem. */
export function checkOffline(
  stacks: Parameters<typeof readDesired>[0],
  io: CliIO,
  opts: Pick<CommonOptions, 'baseUrl'>,
): ReturnType<typeof readDesired> {
  const desired = readDesired(stacks);
  const problems = [
    ...desired.problems,
    ...offlineAccountProblems(desired.scopes, desired.alerts, io.env, { baseUrlOverride: opts.baseUrl }),
  ];
  if (problems.length) throw new ConfigError(problems);
  if (!desired.scopes.length)
    throw new ConfigError(['no NetworkCalc provider or alert in the app; add a NetworkcalcAccount and some alerts']);
  return desired;
}

/**
 * Everything plan checks before its first API call, except credentials: for pull requests
 * whose pipelines get no secrets. Makes no API call.
 */
export async function validateCommand(io: CliIO, opts: ValidateFlags): Promise<number> {
  const json = !!opts.json;
  try {
    const desired = checkOffline(await synthesize(io, opts, json), io, opts);
    const summary = {
      stacks: new Set(desired.scopes.map((s) => s.stack)).size,
      providers: desired.scopes.length,
      alerts: desired.alerts.length,
      report_triggers: desired.triggers.length,
      // Their alerts are known only at plan time, from the account's domains.
      alert_policies: desired.policies.length,
    };
    if (json)
      writeJson(io, { format_version: FORMAT_VERSION, command: 'validate', valid: true, summary, accounts: [] });
    else {
      const n = (k: number, word: string, plural = `${word}s`) => `${k} ${k === 1 ? word : plural}`;
      const parts = [n(summary.alerts, 'alert'), n(summary.report_triggers, 'report trigger')];
      if (summary.alert_policies) parts.push(n(summary.alert_policies, 'alert policy', 'alert policies'));
      io.stdout.write(
        `${styleFor(io, opts).green('The configuration is valid:')} ${parts.slice(0, -1).join(', ')} and ${parts[parts.length - 1]} ` +
          `in ${n(summary.stacks, 'stack')} (${n(summary.providers, 'provider configuration')}). No API call was made.\n`,
      );
    }
    return EXIT.OK;
  } catch (e) {
    return reportError(io, 'validate', e, json);
  }
}

export interface DriftFlags extends CommonOptions {
  format: string;
  /** The same as `--format json`. */
  json?: boolean;
}

export const DRIFT_FORMATS = ['text', 'json', 'markdown'] as const;

/** `--json` is `--format json`; asking for both JSON and another format is a usage error. */
export function driftFormat(opts: DriftFlags, formatGiven: boolean): string {
  if (!(DRIFT_FORMATS as readonly string[]).includes(opts.format))
    throw new UsageError([`--format must be ${DRIFT_FORMATS.join(', ')}, got ${JSON.stringify(opts.format)}`]);
  if (!opts.json) return opts.format;
  if (formatGiven && opts.format !== 'json')
    throw new UsageError([
      `--json and --format ${opts.format} ask for two formats; --json is --format json, so give one of them`,
    ]);
  return 'json';
}

export interface ApplyFlags extends CommonOptions {
  json?: boolean;
  autoApprove?: boolean;
  parallelism: string;
  /** Writes in flight per account; default from `defaultAccountParallelism`. */
  accountParallelism?: string;
  triggers?: boolean;
  allInScope?: boolean;
  /** apply: let a scope that declares no alerts delete the live ones. */
  allowEmpty?: boolean;
  /** apply: let one run delete a large share of a scope. */
  allowMassDelete?: boolean;
}

/**
 * Flags that choose what to plan. A saved plan has fixed all of that, so they are refused
 * with one (the others still apply: how to write, what the guards allow, what to print).
 */
export const PLAN_CHOOSING_FLAGS = [
  '--chdir',
  '--app',
  '--out',
  '--no-synth',
  '--synth-timeout',
  '--stack',
  '--base-url',
  '--shard',
] as const;

/**
 * The guarded deletions of an apply that its flags do not allow, as messages. Checked after
 * the plan is shown and before anything is asked or written, so a refusal changes nothing.
 */
function refusedDeletions(plans: readonly AccountPlan[], opts: ApplyFlags): string[] {
  const allowed = { empty_scope: !!opts.allowEmpty, mass_delete: !!opts.allowMassDelete };
  return guardsOf(plans)
    .filter((w) => !allowed[w.guard.kind])
    .map((w) => w.message);
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

const SIGNALS = ['SIGINT', 'SIGTERM'] as const;

/** What apply works from: a fresh plan, or a saved one checked against the accounts. */
interface ApplySource {
  plans: AccountPlan[];
  /** Printed above the plan (the shard of a sharded run). */
  heading: string;
  json: Record<string, unknown>;
  triggers: boolean;
  /** A saved plan was reviewed when it was made: apply does not ask again. */
  saved: boolean;
}

async function freshPlan(
  io: CliIO,
  opts: ApplyFlags,
  command: 'apply' | 'destroy',
  factory: ClientFactory,
): Promise<ApplySource> {
  if (opts.json && !opts.autoApprove)
    throw new UsageError([`--json needs --auto-approve: ${command} cannot ask for confirmation while writing JSON`]);
  const loaded = await load(io, opts, !!opts.json);
  const triggers = command === 'apply' && opts.triggers !== false;
  const plans = await planAccounts(
    io,
    loaded,
    factory,
    {
      certificateLifetime: certificateLookups(io, opts),
      mode: command === 'destroy' ? 'destroy' : 'converge',
      includeUndeclared: !!opts.allInScope,
      triggers,
    },
    !!opts.json,
  );
  return { plans, heading: shardText(loaded), json: shardJson(loaded), triggers, saved: false };
}

async function savedPlan(
  io: CliIO,
  opts: ApplyFlags,
  file: string,
  given: readonly string[],
  factory: ClientFactory,
): Promise<ApplySource> {
  const fixed = PLAN_CHOOSING_FLAGS.filter((f) => given.includes(f));
  if (fixed.length) {
    throw new UsageError([
      `${fixed.join(', ')} cannot be used with a saved plan: ${file} already fixes the app, its stacks and accounts; drop ${fixed.length === 1 ? 'it' : 'them'}, or plan again with ${fixed.length === 1 ? 'it' : 'them'} (ncalc plan --save)`,
    ]);
  }
  let text: string;
  try {
    text = readFileSync(path.resolve(io.cwd, file), 'utf8');
  } catch (e) {
    throw new PlanFileError([
      `cannot read the saved plan ${file}: ${(e as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (e as Error).message}; save one with ncalc plan --save ${file}`,
    ]);
  }
  const saved = readSavedPlan(text, file);
  const revived = await revivePlan(saved, io.env, factory);
  const triggers = saved.report_triggers && opts.triggers !== false;
  // --no-triggers: the same plan without its report triggers.
  const plans = triggers ? revived : revived.map((p) => ({ ...p, triggers: [] }));
  const shard = saved.shard ? ` (shard ${saved.shard.index}/${saved.shard.count})` : '';
  const heading = `Applying the plan saved in ${file} at ${saved.created_at}${shard}; every account still holds the alerts it saw.\n\n`;
  return { plans, heading, json: { plan_file: file }, triggers, saved: true };
}

/**
 * apply and destroy: plan (or read a saved plan and check it is current), show, confirm,
 * execute, report. `given`: the long names of the flags given on the command line.
 */
export async function applyCommand(
  io: CliIO,
  opts: ApplyFlags,
  command: 'apply' | 'destroy',
  planFile?: string,
  given: readonly string[] = [],
): Promise<number> {
  const json = !!opts.json;
  let parallelism: number;
  let accountParallelism: number | undefined;
  let source: ApplySource;
  const factory = clientFactory(io, !!opts.verbose);
  try {
    parallelism = positiveInt(opts.parallelism, '--parallelism');
    if (opts.accountParallelism !== undefined) {
      accountParallelism = positiveInt(opts.accountParallelism, '--account-parallelism');
      if (accountParallelism > parallelism)
        throw new UsageError([
          `--account-parallelism ${accountParallelism} is more than --parallelism ${parallelism}; one account's writes are part of the run's, so give at most ${parallelism}`,
        ]);
    }
    source =
      planFile !== undefined
        ? await savedPlan(io, opts, planFile, given, factory)
        : await freshPlan(io, opts, command, factory);
  } catch (e) {
    return reportError(io, command, e, json);
  }
  const { plans } = source;
  const style = styleFor(io, opts);
  const document = (report: ApplyReport, more: Record<string, unknown> = {}) => ({
    ...toJson(command, plans, report, source.json),
    ...more,
  });
  if (!json) io.stdout.write(source.heading + planText(plans, command, style));
  const t = totals(plans);
  const work = t.create + t.update + t.delete + t.triggers;
  if (work === 0) {
    if (json) writeJson(io, document(new Map()));
    else
      io.stdout.write(
        anyFailed(plans) ? '\nNothing to do in the accounts that could be planned.\n' : '\nNothing to do.\n',
      );
    return anyFailed(plans) ? EXIT.ERROR : EXIT.OK;
  }
  const refused = command === 'apply' ? refusedDeletions(plans, opts) : [];
  if (refused.length) {
    if (json) writeJson(io, document(new Map(), { error: runError('DELETE_GUARD', refused) }));
    io.stderr.write(`Error: refusing to apply; nothing was changed.\n${refused.map((p) => `  - ${p}`).join('\n')}\n`);
    return EXIT.ERROR;
  }
  if (!opts.autoApprove && !source.saved) {
    if (!io.stdin.isTTY) {
      io.stderr.write(
        `Error: refusing to ${command} without confirmation: standard input is not a terminal. Review the plan above and run again with --auto-approve.\n`,
      );
      return EXIT.ERROR;
    }
    const ok = await confirm(
      io,
      `\nDo you want to ${command === 'destroy' ? 'delete these alerts' : 'perform these actions'}? Only 'yes' will be accepted: `,
    );
    if (!ok) {
      io.stderr.write(`${command} cancelled; nothing was changed.\n`);
      return EXIT.ERROR;
    }
  }
  const writing = writingAccounts(plans);
  const perAccount = accountParallelism ?? defaultAccountParallelism(parallelism, writing);
  const limits = writing > 1 ? `parallelism ${parallelism}, ${perAccount} per account` : `parallelism ${perAccount}`;
  if (!json)
    io.stdout.write(`
${command === 'destroy' ? 'Destroying' : 'Applying'} (${limits})…
`);
  const accountWork = new Map(plans.map((p) => [p, p.status === 'ok' ? p.changes.length + p.triggers.length : 0]));
  const progress = new Progress(io, work, !json && io.stderr.isTTY === true, Date.now, accountWork);
  const tallies = new Map<AccountPlan, AccountTally>();
  // Ctrl-C: let the writes in flight finish and report; a second one ends the process at once.
  const interrupt = new AbortController();
  const onSignal = (signal: string) => {
    interrupt.abort();
    for (const s of SIGNALS) io.signals?.off(s, onSignal);
    progress.clear();
    io.stderr.write(
      `\n${signal}: starting no new changes; waiting for the ones in flight (press Ctrl-C again to stop at once).\n`,
    );
  };
  for (const s of SIGNALS) io.signals?.on(s, onSignal);
  let report: ApplyReport;
  try {
    report = await applyAll(plans, factory, {
      parallelism,
      accountParallelism: perAccount,
      triggers: source.triggers,
      signal: interrupt.signal,
      onEvent: (ev: ApplyEvent) => {
        const finished = progress.tick(ev.account);
        if (json) return;
        progress.line(
          ev.kind === 'change'
            ? changeResultLine(ev.account, ev.change, ev.result, style)
            : triggerResultLine(ev.account, ev.trigger, ev.result, style),
        );
        const tally = tallies.get(ev.account) ?? { created: 0, updated: 0, deleted: 0, failed: 0, reports: 0 };
        tallies.set(ev.account, tally);
        if (ev.result.status === 'failed') tally.failed++;
        else if (ev.kind === 'trigger') tally.reports += ev.result.status === 'ok' ? 1 : 0;
        else if (ev.result.status !== 'skipped') tally[VERBS[ev.change.action]]++;
        // Progress by account where there are several: the line to look for in a long log.
        if (finished && progress.accounts > 1)
          progress.line(accountDoneLine(finished, progress.accounts, ev.account.account.label, tally, style));
      },
    });
  } finally {
    for (const s of SIGNALS) io.signals?.off(s, onSignal);
    progress.clear();
  }
  if (json) writeJson(io, document(report));
  else io.stdout.write('\n' + applySummary(plans, report, style, command));
  return applyFailed(report) || interrupt.signal.aborted || anyFailed(plans) ? EXIT.ERROR : EXIT.OK;
}
