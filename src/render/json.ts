/** The `--json` documents; their format is in docs/cli.md. */
import { problemData, type Problem } from '../model/problems';
import type { AccountPlan } from '../plan/account-plan';
import type { ApplyReport, ChangeResult, TriggerResult } from '../engine/apply';
import { coverageTotals } from '../plan/coverage';
import { gapsJson } from './coverage';
import { accountRows, applyTotals, driftKind, totals, type Command } from './totals';
import { triggeredJson } from './triggered';
import type { Change } from '../plan/types';

/** Version of the `--json` document; bump the major part on incompatible changes. */
export const FORMAT_VERSION = '1.0';

function providerOf(c: { scopeKey: string; stack: string }): string {
  return c.scopeKey.slice(c.stack.length + 1);
}

function changeJson(c: Change, r: ChangeResult | undefined, drift: boolean): Record<string, unknown> {
  const o: Record<string, unknown> = {
    action: c.action,
    reason: c.reason,
    name: c.name,
    id: c.id,
    stack: c.stack,
    provider: providerOf(c),
    logical_id: c.logicalId,
    path: c.path,
    before: c.before,
    after: c.after,
    fields: c.fields.map((f) => ({ field: f.field, before: f.before, after: f.after })),
  };
  if (drift) o.drift = driftKind(c);
  if (r) o.result = resultJson(r);
  return o;
}

function resultJson(r: ChangeResult | TriggerResult): Record<string, unknown> {
  const o: Record<string, unknown> = { status: r.status };
  if ('id' in r && r.id !== undefined) o.id = r.id;
  if ('reportUrl' in r && r.reportUrl !== undefined) o.report_url = r.reportUrl;
  if (r.error) o.error = r.error;
  if (r.note) o.note = r.note;
  return o;
}

/**
 * A list in a JSON document whose items are made one at a time as it is written
 * (`writeJsonDocument`), so the whole list never is in memory at once. `JSON.stringify` sees
 * the full list (`toJSON`).
 */
export class JsonItems {
  constructor(
    readonly length: number,
    private readonly item: (index: number) => unknown,
  ) {}

  at(index: number): unknown {
    return this.item(index);
  }

  toJSON(): unknown[] {
    return Array.from({ length: this.length }, (_, i) => this.item(i));
  }
}

/**
 * The `--json` document of a plan (and, given apply's report, of its results); see
 * docs/cli.md. `extra` adds top-level fields (the shard of a sharded run). Its `accounts` are
 * made as they are written (`JsonItems`, `writeJsonDocument`): at 100,000 changes the whole
 * list would hold every change twice more, as objects and as text.
 */
export function jsonDocument(
  command: Command,
  plans: readonly AccountPlan[],
  report?: ApplyReport,
  extra: Record<string, unknown> = {},
): Record<string, unknown> & { accounts: JsonItems } {
  const t = totals(plans);
  const drift = command === 'drift';
  const summary: Record<string, unknown> = {
    create: t.create,
    update: t.update,
    delete: t.delete,
    unchanged: t.unchanged,
    triggers: t.triggers,
    failed_accounts: t.failedAccounts,
  };
  if (report) {
    const a = applyTotals(plans, report);
    Object.assign(summary, {
      applied: {
        created: a.created,
        updated: a.updated,
        deleted: a.deleted,
        adopted: a.adopted,
        failed: a.failed,
        skipped: a.skipped,
        reports: a.reports,
        failed_reports: a.failedReports,
        // Only runs that plan domain or subdomain changes carry their counts.
        ...(plans.some((p) => p.targetChanges?.length)
          ? {
              targets: {
                created: a.targets.created,
                deleted: a.targets.deleted,
                failed: a.targets.failed,
                not_run: a.targets.notRun,
              },
            }
          : {}),
      },
    });
  }
  const changes = t.create + t.update + t.delete;
  // Only apps with alert policies carry coverage fields.
  const policies = plans.some((p) => p.coverage);
  const gaps = coverageTotals(plans.map((p) => p.coverage)).gaps;
  if (policies) summary.coverage_gaps = gaps;
  return {
    format_version: FORMAT_VERSION,
    command,
    ...(drift ? { in_sync: changes === 0 && t.failedAccounts === 0 && gaps === 0 } : {}),
    ...extra,
    summary,
    // One row per account: what the text output's table and the markdown report's show.
    account_summary: accountRows(command, plans, report).map((r) => ({
      account: r.account,
      stacks: r.stacks,
      create: r.create,
      update: r.update,
      delete: r.delete,
      ...(report ? { failed: r.failed } : {}),
      status: r.status,
      error: r.reason,
    })),
    accounts: new JsonItems(plans.length, (i) => accountJson(command, plans[i]!, report)),
  };
}

/** `jsonDocument` with every account in it: for those that read the document rather than write it. */
export function toJson(
  command: Command,
  plans: readonly AccountPlan[],
  report?: ApplyReport,
  extra: Record<string, unknown> = {},
): Record<string, unknown> {
  const doc = jsonDocument(command, plans, report, extra);
  return { ...doc, accounts: doc.accounts.toJSON() };
}

/** One account of the document. */
function accountJson(command: Command, p: AccountPlan, report: ApplyReport | undefined): Record<string, unknown> {
  const drift = command === 'drift';
  const outcome = report?.get(p);
  return {
    label: p.account.label,
    base_url: p.account.baseUrl,
    identity: p.account.identity,
    scopes: p.account.scopes.map((s) => ({
      stack: s.stack,
      provider: s.providerKey,
      ownership: s.ownership,
      prefix: s.prefix,
    })),
    status: p.status,
    error: p.error,
    ...(outcome?.interference ? { interference: outcome.interference } : {}),
    summary: {
      create: p.changes.filter((c) => c.action === 'create').length,
      update: p.changes.filter((c) => c.action === 'update').length,
      delete: p.changes.filter((c) => c.action === 'delete').length,
      unchanged: p.unchanged,
    },
    warnings: p.warnings.map((w) => w.message),
    // Deletions apply refuses without the flag named (an empty scope, a large share of one).
    guards: p.warnings.flatMap((w) => {
      if (!w.guard) return [];
      const scope = p.account.scopes.find((sc) => sc.key === w.scopeKey);
      return [
        {
          kind: w.guard.kind,
          flag: w.guard.flag,
          stack: scope?.stack ?? null,
          provider: scope?.providerKey ?? null,
          deletes: w.guard.deletes,
          owned: w.guard.owned,
          // How many of `deletes` are domains and subdomains; only when some are.
          ...(w.guard.targets ? { target_deletes: w.guard.targets } : {}),
          message: w.message,
        },
      ];
    }),
    ...(p.coverage ? { coverage_gaps: gapsJson(p.coverage) } : {}),
    // Live alerts whose current_status is triggered (plan and drift only).
    ...(command === 'plan' || drift ? { triggered: triggeredJson(p) } : {}),
    // Domains and subdomains created before the alert changes (their placeholder ids are
    // negative) and deleted after them; present only when the account has some, so documents without stay as they were.
    ...(p.targetChanges?.length
      ? {
          target_changes: p.targetChanges.map((c, i) => {
            const o: Record<string, unknown> =
              c.action === 'create'
                ? {
                    action: c.action,
                    target_type: c.targetType,
                    name: c.name,
                    placeholder_id: c.placeholderId,
                    prefix: c.prefix,
                    domain_id: c.domainId,
                    stack: c.stack,
                    resource: c.resource,
                    path: c.path,
                  }
                : {
                    action: c.action,
                    target_type: c.targetType,
                    name: c.name,
                    id: c.id,
                    domain_id: c.domainId,
                    stack: c.stack,
                    // What we assume the service deletes with it (docs/architecture.md).
                    assumed_to_delete: { alerts: c.takes.alerts, subdomains: c.takes.subdomains },
                  };
            const r = outcome?.targetResults?.[i];
            if (r) o.result = { ...r };
            return o;
          }),
        }
      : {}),
    changes: p.changes.map((c, i) => changeJson(c, outcome?.results[i], drift)),
    triggers: drift
      ? []
      : p.triggers.map((tr, i) => {
          const o: Record<string, unknown> = {
            stack: tr.stack,
            provider: providerOf(tr),
            logical_id: tr.logicalId,
            path: tr.path,
            target_type: tr.targetType,
            target_id: tr.targetId,
            target_name: tr.targetName,
            triggers: tr.triggers,
          };
          const r = outcome?.triggerResults[i];
          if (r) o.result = resultJson(r);
          return o;
        }),
  };
}

/** Text written at once: large enough that a document of 100,000 changes is few writes. */
const JSON_CHUNK = 1 << 16;

/**
 * Writes `doc` as `JSON.stringify(doc, null, 2)` and a newline would, the same bytes, but the
 * items of its top-level `JsonItems` one at a time, waiting whenever `write` says to (a pipe
 * whose reader is slower keeps what it was given in memory): only about one account's objects
 * and text are in memory at once, however large the document.
 */
export async function writeJsonDocument(
  write: (text: string) => Promise<void> | undefined,
  doc: Record<string, unknown>,
): Promise<void> {
  let pending = '';
  const out = async (text: string) => {
    pending += text;
    if (pending.length >= JSON_CHUNK) {
      const chunk = pending;
      pending = '';
      await write(chunk);
    }
  };
  const lists = new Map<string, JsonItems>();
  const stub: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(doc)) {
    if (!(value instanceof JsonItems)) stub[key] = value;
    else {
      // A stand-in no other value of the document can hold: the key's own line.
      stub[key] = `\u0000${key}`;
      lists.set(`${JSON.stringify(key)}: ${JSON.stringify(stub[key])}`, value);
    }
  }
  let text = JSON.stringify(stub, null, 2);
  for (const [line, items] of lists) {
    const at = text.indexOf(`\n  ${line}`) + 3;
    await out(text.slice(0, at) + line.slice(0, line.indexOf(': ') + 2));
    if (items.length === 0) await out('[]');
    else {
      await out('[\n');
      for (let i = 0; i < items.length; i++) await out(`${i ? ',\n' : ''}    ${nestedItem(items.at(i))}`);
      await out('\n  ]');
    }
    text = text.slice(at + line.length);
  }
  await out(text + '\n');
  if (pending) await write(pending);
}

/** `{"k": [` and its line break, and the end of that array, as `JSON.stringify(…, null, 2)` writes them. */
const NEST_OPEN = '{\n  "k": [\n    '.length;
const NEST_CLOSE = '\n  ]\n}'.length;

/**
 * An item of a top-level list as it stands there, indented by four: stringified inside such a
 * list rather than indented after, one pass instead of a regex over every line.
 */
function nestedItem(item: unknown): string {
  const text = JSON.stringify({ k: [item] }, null, 2);
  return text.slice(NEST_OPEN, text.length - NEST_CLOSE);
}

/**
 * Codes of a run-level error (a document-level `error`): the configuration is not valid
 * (`CONFIG_ERROR`), the command line is not (`USAGE_ERROR`), apply refused a guarded deletion
 * (`DELETE_GUARD`), apply or destroy refused to write to alerts a local Terraform state holds
 * (`TERRAFORM_STATE`), or a saved plan is unreadable (`PLAN_FILE`) or out of date (`STALE_PLAN`);
 * `INTERNAL_ERROR`: a bug of ncalc, nothing the user did. None is retryable as it stands: each
 * needs a change first.
 */
export type RunErrorCode =
  | 'CONFIG_ERROR'
  | 'USAGE_ERROR'
  | 'DELETE_GUARD'
  | 'TERRAFORM_STATE'
  | 'PLAN_FILE'
  | 'STALE_PLAN'
  | 'INTERNAL_ERROR'
  | 'ERROR';

/** Every command that prints a JSON document with `--json`. */
export type JsonCommand = Command | 'export' | 'import-blocks' | 'emulator' | 'provider install';

export function runError(
  code: RunErrorCode,
  problems: readonly string[],
  details?: readonly Problem[],
): Record<string, unknown> {
  const error: Record<string, unknown> = { code, retryable: false, problems };
  if (details) error.details = details.map(problemData);
  return error;
}

/**
 * The JSON document for a run that failed before planning (invalid configuration). `details`:
 * the app's construct problems as data (`{path, field, value, allowed, message}`), when its
 * synth reported them.
 */
export function errorJson(
  command: JsonCommand,
  problems: readonly string[],
  details?: readonly Problem[],
  code: RunErrorCode = 'CONFIG_ERROR',
): Record<string, unknown> {
  return { format_version: FORMAT_VERSION, command, error: runError(code, problems, details), accounts: [] };
}
