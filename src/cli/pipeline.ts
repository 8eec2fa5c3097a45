/**
 * What the reconciling commands share: the flags every one takes, the run before the first
 * API call (synth, read, accounts, shard: `load`), one client per set of credentials, planning
 * with progress, the report formats, and how a run prints an error and exits.
 */
import * as path from 'node:path';
import { NetworkCalcClient, NetworkCalcError } from '../client';
import { HclSyntaxError } from '../codegen/hcl-parse';
import { SourceSyntaxError } from '../codegen/js-source';
import { ExpectedError } from '../support/expected-error';
import { isFileError } from '../support/file-errors';
import { COLOR, PLAIN, type Style } from '../render/style';
import { errorJson, writeJsonDocument, type JsonCommand, type RunErrorCode } from '../render/json';
import { PlanFileError, StalePlanError } from '../read/saved-plan';
import { sharedClients } from '../engine/shared-clients';
import { inShard, parseShard, type Shard } from '../plan/shard';
import { loadStacks, outDirOf } from '../read/synth';
import { SYNTH_WORKERS_VALUES, parseSynthWorkers } from '../read/synth-workers';
import { ConfigError } from '../contract/config-error';
import { sentence } from '../model/problems';
import { offlineAccountProblems } from '../plan/accounts';
import { planAll, prepare, shardStacks, type PlanOptions, type Prepared } from '../engine/plan-all';
import { type AccountPlan } from '../plan/account-plan';
import { readDesired } from '../read/desired';
import { backendSources, readBackendStates, type BackendRead, type BackendSource } from '../read/terraform-backends';
import { outsideConfigurations } from '../read/terraform-configurations';
import type { ClientFactory, HeldAlert } from '../plan/types';
import { isHeldTarget } from '../read/terraform-state';
import type { Lookups } from '../preview';
import { directoryProblem } from './files';
import { ERROR_PREFIX, useColor, written, type CliIO } from './io';
import { lookupsFromFlags, type LookupFlags } from './lookup-flags';
import { planningProgress } from './progress';
import { USAGE_HINT, UsageError } from './usage';

/** Exit codes shared by every command. */
export const EXIT = { OK: 0, ERROR: 1, CHANGES: 2 } as const;

export interface CommonOptions extends LookupFlags {
  chdir?: string;
  app?: string;
  out?: string;
  synth: boolean;
  /** Seconds, parsed by `synthTimeoutOption`. */
  synthTimeout: number;
  /** A number, or `auto`: the runs of the app one synth is spread over (default: NCALC_SYNTH_WORKERS). */
  synthWorkers?: number;
  stack?: string[];
  baseUrl?: string;
  color?: boolean;
  verbose?: boolean;
  /** `i/n`: only the accounts of shard i of n (plan, apply, drift). */
  shard?: Shard;
  /** plan, apply, destroy, drift: every line of text output, however many changes (src/render/grouping.ts). */
  detail?: boolean;
  /** apply, destroy: do not read the app's local Terraform states, and write to the alerts they hold. */
  ignoreTerraformState?: boolean;
  /** Terraform configurations outside the app whose states to read too (src/read/terraform-configurations.ts). */
  terraformConfig?: string[];
}

export function positiveInt(value: string, flag: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1)
    throw new UsageError([`${flag} must be a whole number of at least 1, got ${JSON.stringify(value)}`]);
  return n;
}

/** --synth-workers as a number of processes; undefined when not given (NCALC_SYNTH_WORKERS, then 1). */
export function synthWorkersFlag(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = parseSynthWorkers(value);
  if (n === null)
    throw new UsageError([`--synth-workers must be ${SYNTH_WORKERS_VALUES}, got ${JSON.stringify(value)}`]);
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

/** The app's directory (`-C`); a ConfigError naming it when it is not a directory. */
export function cwdOf(io: CliIO, opts: Pick<CommonOptions, 'chdir'>): string {
  const dir = path.resolve(io.cwd, opts.chdir ?? '.');
  const problem = directoryProblem(dir);
  if (problem)
    throw new ConfigError({
      problems: [
        sentence(`-C ${opts.chdir ?? '.'}: ${problem}; give the directory of the app (the one holding cdktf.json)`),
      ],
      summary: 'the app directory cannot be used; nothing was changed.',
    });
  return dir;
}

/** Whether a line may be redrawn in place: both streams on a terminal, and no JSON on stdout. */
const interactive = (io: CliIO, json: boolean) => !json && io.stdout.isTTY === true && io.stderr.isTTY === true;

/**
 * Synthesizes the app (or reads cdktf.out with --no-synth) and returns the selected stacks, and
 * the app's directory (`-C`), for the command to carry. On a terminal a `synthesizing…` line
 * says why nothing happens yet, then how long it took.
 */
export async function synthesize(
  io: CliIO,
  opts: Pick<CommonOptions, 'chdir' | 'app' | 'out' | 'synth' | 'synthTimeout' | 'synthWorkers' | 'stack'>,
  json: boolean,
  appEnv: NodeJS.ProcessEnv = {},
) {
  const timeoutMs = opts.synthTimeout * 1000;
  const workers = opts.synthWorkers;
  const status = opts.synth && interactive(io, json);
  const started = Date.now();
  if (status) io.stderr.write('synthesizing…');
  try {
    const dir = cwdOf(io, opts);
    const { stacks } = await loadStacks({
      cwd: dir,
      app: opts.app,
      out: opts.out,
      synth: opts.synth,
      timeoutMs,
      workers,
      // A copy only for an app to run: copying the process's environment reads every variable.
      env: opts.synth ? { ...io.env, ...appEnv } : io.env,
      stacks: opts.stack,
    });
    if (status) io.stderr.write(`\r\u001b[Ksynthesized in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
    return { stacks, dir };
  } catch (e) {
    if (status) io.stderr.write('\r\u001b[K');
    throw e;
  }
}

/**
 * The accounts a run works on, and how many the app has (they differ with --shard); with what
 * the command line said, parsed once: the app's directory and the lookup settings.
 */
export interface Loaded extends Prepared {
  shard: Shard | null;
  allAccounts: number;
  /** The app's directory (`-C`, resolved and checked). */
  dir: string;
  /** The DNS and TLS lookups of the run (its lookup flags), for previews and certificate reads. */
  lookups: Lookups;
  /** The names of every stack the run read, other shards' included (which app a document is of). */
  stackNames: string[];
  /**
   * The declared targets (networkcalc_domain / networkcalc_subdomain) the app's Terraform
   * states hold, when asked for (`heldTargets`): what `ncalc import-blocks` leaves alone.
   */
  heldTargets?: HeldAlert[];
}

/**
 * Synthesize, read and validate: everything before the first API call. `appEnv`: variables for
 * the app; `lookups`: the run's lookups when the command parsed them already.
 */
export async function load(
  io: CliIO,
  opts: CommonOptions,
  json: boolean,
  given: { appEnv?: NodeJS.ProcessEnv; lookups?: Lookups; heldTargets?: boolean } = {},
): Promise<Loaded> {
  const shard = opts.shard ?? null;
  // --resolver and the other lookup flags (every command has their defaults), before anything runs.
  const lookups = given.lookups ?? lookupsFromFlags(opts, io.env);
  const { stacks, dir: appDir } = await synthesize(io, opts, json, given.appEnv);
  // A shard reads and validates the stacks of its own accounts only (chosen from the provider
  // blocks), unless those blocks have problems, which every shard then reports.
  const own = shard ? shardStacks(stacks, io.env, shard, { baseUrlOverride: opts.baseUrl }) : null;
  const prepared = prepare(own?.stacks ?? stacks, io.env, {
    baseUrlOverride: opts.baseUrl,
    // What the Terraform door holds (src/read/terraform-state.ts), unless told to ignore it.
    terraformState: opts.ignoreTerraformState
      ? undefined
      : { appDir, outdir: outDirOf({ cwd: appDir, out: opts.out }) },
  });
  let heldTargets: HeldAlert[] | undefined;
  if (!opts.ignoreTerraformState) {
    const sources = [
      ...backendSources(own?.stacks ?? stacks, outDirOf({ cwd: appDir, out: opts.out })),
      ...outsideConfigurations(appDir, opts.terraformConfig ?? []),
    ];
    await readBackends(io, sources, prepared, json);
    // Each state was read once, for its alerts and targets alike: the local files by prepare,
    // the backends just above.
    if (given.heldTargets) heldTargets = (prepared.held ?? []).filter(isHeldTarget);
  }
  const allAccounts = own?.accounts ?? prepared.accounts.length;
  if (!allAccounts) {
    throw new ConfigError({
      problems: [
        sentence(
          `no NetworkCalc provider or alert in ${stacks.length ? `stacks ${stacks.map((s) => s.name).join(', ')}` : 'the app'}; add a NetworkcalcAccount and some alerts`,
        ),
      ],
    });
  }
  const accounts = own
    ? prepared.accounts.filter((a) => own.keys.has(a.key))
    : shard
      ? prepared.accounts.filter((a) => inShard(a, shard))
      : prepared.accounts;
  return {
    ...prepared,
    accounts,
    shard,
    allAccounts,
    dir: appDir,
    lookups,
    stackNames: stacks.map((s) => s.name),
    ...(heldTargets ? { heldTargets } : {}),
  };
}

/**
 * The states of stacks with a backend other than local, read with terraform, in parallel
 * (src/read/terraform-backends.ts), added to what the local files hold; the time it took on
 * stderr. No such backend: nothing runs, nothing is said. The accounts of a stack whose state
 * cannot be read get that as their problem.
 */
async function readBackends(
  io: CliIO,
  sources: readonly BackendSource[],
  prepared: Prepared,
  json: boolean,
): Promise<BackendRead | undefined> {
  if (!sources.length) return undefined;
  const read = await readBackendStates(sources, io.env);
  prepared.held = [...(prepared.held ?? []), ...read.held];
  // A state terraform could not read: that stack's accounts refuse alone (as with missing
  // credentials), the other accounts go on; an outside configuration's: every account.
  for (const { stack, problem } of read.unreadable)
    for (const account of prepared.accounts)
      if (account.problem === undefined && (stack === null || account.scopes.some((s) => s.stack === stack)))
        account.problem = problem;
  if (!json) io.stderr.write(`${backendReadText(sources, read)}\n`);
  return read;
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/**
 * `Read 3 Terraform states of 2 backends in 0.4 s.`: what was read, of what, and what could
 * not be (never a count of states read that hides that none was).
 */
export function backendReadText(sources: readonly BackendSource[], read: BackendRead): string {
  const outside = sources.filter((s) => s.stack === null).length;
  const kinds = [
    ...(sources.length > outside ? [plural(sources.length - outside, 'backend')] : []),
    ...(outside ? [plural(outside, 'Terraform configuration') + ' outside the app'] : []),
  ].join(' and ');
  const seconds = `${(read.ms / 1000).toFixed(1)} s`;
  const failed = read.unreadable.length;
  const guarded = 'each account they guard fails with the reason';
  if (failed === sources.length) return `Could not read the Terraform states of ${kinds} (${seconds}): ${guarded}.`;
  return `Read ${plural(read.states, 'Terraform state')} of ${kinds} in ${seconds}${failed ? `; ${failed} could not be read: ${guarded}` : ''}.`;
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

/**
 * The errors a run reports as what the user can fix: the command line, the configuration, a
 * saved plan, a source that does not parse, the service, a file, or one sentence
 * (`ExpectedError`). Anything else is a bug, reported as an internal error (contract.ts).
 */
export function isExpectedError(e: unknown): boolean {
  return (
    e instanceof UsageError ||
    e instanceof ConfigError ||
    e instanceof PlanFileError ||
    e instanceof StalePlanError ||
    e instanceof ExpectedError ||
    e instanceof HclSyntaxError ||
    e instanceof SourceSyntaxError ||
    e instanceof NetworkCalcError ||
    e instanceof SyntaxError ||
    isFileError(e)
  );
}

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
 * `json`, also the error document on stdout. Usage errors read like commander's own. An error
 * that is not one of these (`isExpectedError`) is thrown on, to the commands' one error path
 * (contract.ts), which reports it as an internal error.
 */
export function reportError(io: CliIO, command: JsonCommand, e: unknown, json: boolean): number {
  if (!isExpectedError(e)) throw e;
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

export const hasChanges = (plans: readonly AccountPlan[]) =>
  plans.some((p) => p.changes.length > 0 || (p.targetChanges?.length ?? 0) > 0);
export const anyFailed = (plans: readonly AccountPlan[]) => plans.some((p) => p.status === 'error');
export const writeJson = (io: CliIO, doc: unknown) => io.stdout.write(JSON.stringify(doc, null, 2) + '\n');

/**
 * A plan's document on stdout (plan, apply, destroy, drift): its accounts (`JsonItems`) one at
 * a time, each once stdout has taken the ones before (`written`).
 */
export const writePlanJson = (io: CliIO, doc: Record<string, unknown>) =>
  writeJsonDocument((text) => written(io.stdout, text), doc);

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
  if (problems.length) throw new ConfigError({ problems });
  if (!desired.scopes.length)
    throw new ConfigError({
      problems: [sentence('no NetworkCalc provider or alert in the app; add a NetworkcalcAccount and some alerts')],
    });
  return desired;
}

/** The flags of the commands that print a report (drift, coverage, preview). */
export interface FormatFlags extends CommonOptions {
  format: string;
  /** The same as `--format json`. */
  json?: boolean;
}

export const REPORT_FORMATS = ['text', 'json', 'markdown'] as const;

/** `--json` is `--format json`; asking for both JSON and another format is a usage error. */
export function reportFormat(opts: FormatFlags, formatGiven: boolean): string {
  if (!(REPORT_FORMATS as readonly string[]).includes(opts.format))
    throw new UsageError([`--format must be ${REPORT_FORMATS.join(', ')}, got ${JSON.stringify(opts.format)}`]);
  if (!opts.json) return opts.format;
  if (formatGiven && opts.format !== 'json')
    throw new UsageError([
      `--json and --format ${opts.format} ask for two formats; --json is --format json, so give one of them`,
    ]);
  return 'json';
}
