/**
 * `ncalc apply`: converge the accounts on the app (or apply a saved plan), and `applyPlans`,
 * the show → guard → confirm → write → report sequence that destroy shares.
 */
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { createInterface } from 'node:readline';
import {
  accountDoneLine,
  applySummary,
  changeResultLine,
  planText,
  triggerResultLine,
  type AccountTally,
} from '../render/text';
import { jsonDocument, runError } from '../render/json';
import { moreLine, textDetail } from '../render/grouping';
import { VERBS, applyFailed, guardsOf, totals } from '../render/totals';
import { PlanFileError, readSavedPlan } from '../read/saved-plan';
import { revivePlan } from '../engine/revive-plan';
import { applyAll, type ApplyEvent, type ApplyReport } from '../engine/apply';
import { defaultAccountParallelism, writingAccounts } from '../engine/account-limit';
import { type AccountPlan } from '../plan/account-plan';
import type { ClientFactory } from '../plan/types';
import type { CliIO } from './io';
import {
  EXIT,
  anyFailed,
  certificateLookups,
  clientFactory,
  load,
  planAccounts,
  positiveInt,
  reportError,
  shardJson,
  shardText,
  styleFor,
  writePlanJson,
  type CommonOptions,
} from './pipeline';
import { Progress, progressMode } from './progress';
import { UsageError } from './usage';

/** The flags of apply and destroy (each command registers its own; see program.ts). */
export interface ApplyFlags extends CommonOptions {
  json?: boolean;
  autoApprove?: boolean;
  parallelism: string;
  /** Writes in flight per account; default from `defaultAccountParallelism`. */
  accountParallelism?: string;
  triggers?: boolean;
  /** destroy: also delete undeclared alerts of exclusive and prefix scopes. */
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
const PLAN_CHOOSING_FLAGS = [
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
export interface ApplySource {
  plans: AccountPlan[];
  /** Printed above the plan (the shard of a sharded run). */
  heading: string;
  json: Record<string, unknown>;
  triggers: boolean;
  /** A saved plan was reviewed when it was made: apply does not ask again. */
  saved: boolean;
}

/** A plan made now, to apply or to destroy. */
export async function freshPlan(
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
 * `ncalc apply`: plan (or read a saved plan and check it is current), then `applyPlans`.
 * `given`: the long names of the flags given on the command line.
 */
export function applyCommand(
  io: CliIO,
  opts: ApplyFlags,
  planFile?: string,
  given: readonly string[] = [],
): Promise<number> {
  return applyPlans(io, opts, 'apply', (factory) =>
    planFile !== undefined ? savedPlan(io, opts, planFile, given, factory) : freshPlan(io, opts, 'apply', factory),
  );
}

/**
 * apply and destroy once their flags are read: get the plans from `source`, show, check the
 * delete guards (apply), confirm, execute, report.
 */
export async function applyPlans(
  io: CliIO,
  opts: ApplyFlags,
  command: 'apply' | 'destroy',
  source: (factory: ClientFactory) => Promise<ApplySource>,
): Promise<number> {
  const json = !!opts.json;
  let parallelism: number;
  let accountParallelism: number | undefined;
  let planned: ApplySource;
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
    planned = await source(factory);
  } catch (e) {
    return reportError(io, command, e, json);
  }
  const { plans } = planned;
  const style = styleFor(io, opts);
  const document = (report: ApplyReport, more: Record<string, unknown> = {}) => ({
    ...jsonDocument(command, plans, report, planned.json),
    ...more,
  });
  const detail = textDetail(plans, opts.detail);
  if (!json) io.stdout.write(planned.heading + planText(plans, command, style, detail));
  const t = totals(plans);
  const work = t.create + t.update + t.delete + t.triggers;
  if (work === 0) {
    if (json) await writePlanJson(io, document(new Map()));
    else
      io.stdout.write(
        anyFailed(plans) ? '\nNothing to do in the accounts that could be planned.\n' : '\nNothing to do.\n',
      );
    return anyFailed(plans) ? EXIT.ERROR : EXIT.OK;
  }
  const refused = command === 'apply' ? refusedDeletions(plans, opts) : [];
  if (refused.length) {
    if (json) await writePlanJson(io, document(new Map(), { error: runError('DELETE_GUARD', refused) }));
    io.stderr.write(`Error: refusing to apply; nothing was changed.\n${refused.map((p) => `  - ${p}`).join('\n')}\n`);
    return EXIT.ERROR;
  }
  // Alerts a local Terraform state holds (src/plan/terraform-held.ts).
  const held = opts.ignoreTerraformState ? [] : plans.flatMap((p) => p.warnings.filter((w) => w.terraformState));
  if (held.length) {
    const problems = held.map((w) => w.message);
    if (json) await writePlanJson(io, document(new Map(), { error: runError('TERRAFORM_STATE', problems) }));
    io.stderr.write(
      `Error: refusing to ${command}: Terraform holds some of these alerts; nothing was changed.\n${problems.map((p) => `  - ${p}`).join('\n')}\n`,
    );
    return EXIT.ERROR;
  }
  if (!opts.autoApprove && !planned.saved) {
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
  const progress = new Progress(io, work, progressMode(io, json, detail !== null), Date.now, accountWork);
  const tallies = new Map<AccountPlan, AccountTally>();
  // Grouped output: each account's first results (and every failure), then its count of the rest.
  const shown = new Map<AccountPlan, number>();
  const hidden = new Map<AccountPlan, number>();
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
      triggers: planned.triggers,
      signal: interrupt.signal,
      onEvent: (ev: ApplyEvent) => {
        const finished = progress.tick(ev.account);
        if (json) return;
        const n = shown.get(ev.account) ?? 0;
        if (!detail || n < detail.firstLines || ev.result.status === 'failed') {
          shown.set(ev.account, n + 1);
          progress.line(
            ev.kind === 'change'
              ? changeResultLine(ev.account, ev.change, ev.result, style)
              : triggerResultLine(ev.account, ev.trigger, ev.result, style),
          );
        } else hidden.set(ev.account, (hidden.get(ev.account) ?? 0) + 1);
        const tally = tallies.get(ev.account) ?? { created: 0, updated: 0, deleted: 0, failed: 0, reports: 0 };
        tallies.set(ev.account, tally);
        if (ev.result.status === 'failed') tally.failed++;
        else if (ev.kind === 'trigger') tally.reports += ev.result.status === 'ok' ? 1 : 0;
        else if (ev.result.status !== 'skipped') tally[VERBS[ev.change.action]]++;
        // Progress by account where there are several: the line to look for in a long log.
        if (finished && (progress.accounts > 1 || detail))
          progress.line(accountDoneLine(finished, progress.accounts, ev.account.account.label, tally, style));
        const more = finished ? hidden.get(ev.account) : 0;
        if (more) progress.line(moreLine(more));
      },
    });
  } finally {
    for (const s of SIGNALS) io.signals?.off(s, onSignal);
    progress.clear();
  }
  if (json) await writePlanJson(io, document(report));
  else io.stdout.write('\n' + applySummary(plans, report, style, command));
  return applyFailed(report) || interrupt.signal.aborted || anyFailed(plans) ? EXIT.ERROR : EXIT.OK;
}
