/**
 * The show → guard → confirm → write → report sequence of apply and destroy (`applyPlans`),
 * and the fresh plan both start from (`freshPlan`). It prompts, prints and maps results to exit
 * codes, so it belongs to the CLI; each command brings its own flags and its source of plans.
 */
import { createInterface } from 'node:readline';
import {
  accountDoneLine,
  applySummary,
  changeResultLine,
  targetResultLine,
  planText,
  triggerResultLine,
  type AccountTally,
} from '../render/text';
import { jsonDocument, runError } from '../render/json';
import { moreLine, textDetail, type Detail } from '../render/grouping';
import type { Style } from '../render/style';
import { VERBS, applyFailed, guardsOf, totals } from '../render/totals';
import { applyAll, type ApplyEvent, type ApplyReport } from '../engine/apply';
import { defaultAccountParallelism, writingAccounts } from '../engine/account-limit';
import { type AccountPlan } from '../plan/account-plan';
import type { ClientFactory } from '../plan/types';
import { certificateLifetimes } from '../preview';
import type { CliIO } from './io';
import {
  EXIT,
  anyFailed,
  clientFactory,
  load,
  planAccounts,
  reportError,
  shardJson,
  shardText,
  styleFor,
  writePlanJson,
  type CommonOptions,
} from './pipeline';
import { Progress, progressMode } from './progress';
import { UsageError } from './usage';
import { onEndingSignal } from '../support/ending-signals';

/** The flags of apply and destroy (each command registers its own). */
export interface ApplyFlags extends CommonOptions {
  json?: boolean;
  autoApprove?: boolean;
  parallelism: number;
  /** Writes in flight per account; default from `defaultAccountParallelism`. */
  accountParallelism?: number;
  triggers?: boolean;
  /** destroy: also delete undeclared alerts of exclusive and prefix scopes. */
  allInScope?: boolean;
  /** destroy: also delete the declared domains and subdomains (INCLUDE_TARGETS_FLAG). */
  includeTargets?: boolean;
  /** apply: let a scope that declares no alerts delete the live ones. */
  allowEmpty?: boolean;
  /** apply: let one run delete a large share of a scope. */
  allowMassDelete?: boolean;
}

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
      certificateLifetime: certificateLifetimes(loaded.lookups),
      mode: command === 'destroy' ? 'destroy' : 'converge',
      includeUndeclared: !!opts.allInScope,
      includeTargets: command === 'destroy' && !!opts.includeTargets,
      triggers,
    },
    !!opts.json,
  );
  return { plans, heading: shardText(loaded), json: shardJson(loaded), triggers, saved: false };
}

/** The writes in flight at once: --parallelism, and --account-parallelism within it. */
function writeLimits(opts: ApplyFlags): { parallelism: number; accountParallelism?: number } {
  const { parallelism, accountParallelism } = opts;
  if (accountParallelism === undefined) return { parallelism };
  if (accountParallelism > parallelism)
    throw new UsageError([
      `--account-parallelism ${accountParallelism} is more than --parallelism ${parallelism}; one account's writes are part of the run's, so give at most ${parallelism}`,
    ]);
  return { parallelism, accountParallelism };
}

/**
 * The exit code of a run stopped after the plan is shown and before anything is written (a
 * delete guard of apply, alerts a Terraform state holds, no confirmation), or null to write.
 */
async function refusal(
  io: CliIO,
  opts: ApplyFlags,
  command: 'apply' | 'destroy',
  planned: ApplySource,
  refusedJson: (error: ReturnType<typeof runError>) => Record<string, unknown>,
): Promise<number | null> {
  const { plans } = planned;
  const json = !!opts.json;
  const refused = command === 'apply' ? refusedDeletions(plans, opts) : [];
  if (refused.length) {
    if (json) await writePlanJson(io, refusedJson(runError('DELETE_GUARD', refused)));
    io.stderr.write(`Error: refusing to apply; nothing was changed.\n${refused.map((p) => `  - ${p}`).join('\n')}\n`);
    return EXIT.ERROR;
  }
  // Alerts a local Terraform state holds (src/plan/terraform-held.ts).
  const held = opts.ignoreTerraformState ? [] : plans.flatMap((p) => p.warnings.filter((w) => w.terraformState));
  if (held.length) {
    const problems = held.map((w) => w.message);
    if (json) await writePlanJson(io, refusedJson(runError('TERRAFORM_STATE', problems)));
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
  return null;
}

/**
 * Ctrl-C (SIGINT, SIGTERM) while writing: let the writes in flight finish and report; a
 * second one ends the process at once. `release` stops listening.
 */
function interruption(io: CliIO, progress: Progress): { signal: AbortSignal; release: () => void } {
  const interrupt = new AbortController();
  if (!io.signals) return { signal: interrupt.signal, release: () => undefined };
  const release = onEndingSignal((signal) => {
    interrupt.abort();
    release();
    progress.clear();
    io.stderr.write(
      `\n${signal}: starting no new changes; waiting for the ones in flight (press Ctrl-C again to stop at once).\n`,
    );
  }, io.signals);
  return { signal: interrupt.signal, release };
}

/**
 * The text lines of each result as it comes: grouped (`detail`), each account's first results
 * (and every failure), then its count of the rest; a line as each account finishes.
 */
function resultLines(progress: Progress, detail: Detail, style: Style): (ev: ApplyEvent, finished: number) => void {
  const tallies = new Map<AccountPlan, AccountTally>();
  const shown = new Map<AccountPlan, number>();
  const hidden = new Map<AccountPlan, number>();
  return (ev, finished) => {
    const n = shown.get(ev.account) ?? 0;
    if (!detail || n < detail.firstLines || ev.result.status === 'failed') {
      shown.set(ev.account, n + 1);
      progress.line(
        ev.kind === 'change'
          ? changeResultLine(ev.account, ev.change, ev.result, style)
          : ev.kind === 'target'
            ? targetResultLine(ev.account, ev.change, ev.result, style)
            : triggerResultLine(ev.account, ev.trigger, ev.result, style),
      );
    } else hidden.set(ev.account, (hidden.get(ev.account) ?? 0) + 1);
    const tally = tallies.get(ev.account) ?? { created: 0, updated: 0, deleted: 0, failed: 0, reports: 0 };
    tallies.set(ev.account, tally);
    if (ev.result.status === 'failed') tally.failed++;
    else if (ev.kind === 'trigger') tally.reports += ev.result.status === 'ok' ? 1 : 0;
    else if (ev.kind === 'target') tally.created += ev.result.status === 'ok' ? 1 : 0;
    else if (ev.result.status !== 'skipped') tally[VERBS[ev.change.action]]++;
    // Progress by account where there are several: the line to look for in a long log.
    if (finished && (progress.accounts > 1 || detail))
      progress.line(accountDoneLine(finished, progress.accounts, ev.account.account.label, tally, style));
    const more = finished ? hidden.get(ev.account) : 0;
    if (more) progress.line(moreLine(more));
  };
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
  let limits: ReturnType<typeof writeLimits>;
  let planned: ApplySource;
  const factory = clientFactory(io, !!opts.verbose);
  try {
    limits = writeLimits(opts);
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
  const work = t.create + t.update + t.delete + t.triggers + t.targets + t.targetDeletes;
  if (work === 0) {
    if (json) await writePlanJson(io, document(new Map()));
    else
      io.stdout.write(
        anyFailed(plans) ? '\nNothing to do in the accounts that could be planned.\n' : '\nNothing to do.\n',
      );
    return anyFailed(plans) ? EXIT.ERROR : EXIT.OK;
  }
  const refused = await refusal(io, opts, command, planned, (error) => document(new Map(), { error }));
  if (refused !== null) return refused;
  const { parallelism } = limits;
  const writing = writingAccounts(plans);
  const perAccount = limits.accountParallelism ?? defaultAccountParallelism(parallelism, writing);
  const limitsText =
    writing > 1 ? `parallelism ${parallelism}, ${perAccount} per account` : `parallelism ${perAccount}`;
  if (!json)
    io.stdout.write(`
${command === 'destroy' ? 'Destroying' : 'Applying'} (${limitsText})…
`);
  const accountWork = new Map(
    plans.map((p) => [
      p,
      p.status === 'ok' ? p.changes.length + p.triggers.length + (p.targetChanges?.length ?? 0) : 0,
    ]),
  );
  const progress = new Progress(io, work, progressMode(io, json, detail !== null), Date.now, accountWork);
  const printResult = resultLines(progress, detail, style);
  const interrupt = interruption(io, progress);
  let report: ApplyReport;
  try {
    report = await applyAll(plans, factory, {
      parallelism,
      accountParallelism: perAccount,
      triggers: planned.triggers,
      signal: interrupt.signal,
      onEvent: (ev: ApplyEvent) => {
        const finished = progress.tick(ev.account);
        if (!json) printResult(ev, finished);
      },
    });
  } finally {
    interrupt.release();
    progress.clear();
  }
  if (json) await writePlanJson(io, document(report));
  else io.stdout.write('\n' + applySummary(plans, report, style, command));
  return applyFailed(report) || interrupt.signal.aborted || anyFailed(plans) ? EXIT.ERROR : EXIT.OK;
}
