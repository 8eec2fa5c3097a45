import { SPEC_FIELDS, type AlertSpec } from '../model';
import type { AccountPlan, ChangeResult, ErrorInfo, TriggerResult } from './engine';
import type { ConstructProblem } from '../constructs/problems';
import type { Change, DeleteGuard, PlannedTrigger, Warning } from './types';

/** Version of the `--json` document; bump the major part on incompatible changes. */
export const FORMAT_VERSION = '1.0';

export type Command = 'plan' | 'apply' | 'drift' | 'destroy' | 'validate';

export interface Style {
  green(s: string): string;
  yellow(s: string): string;
  red(s: string): string;
  bold(s: string): string;
  dim(s: string): string;
}

const ansi = (open: number, close: number) => (s: string) => `\u001b[${open}m${s}\u001b[${close}m`;
export const COLOR: Style = { green: ansi(32, 39), yellow: ansi(33, 39), red: ansi(31, 39), bold: ansi(1, 22), dim: ansi(2, 22) };
const id = (s: string) => s;
export const PLAIN: Style = { green: id, yellow: id, red: id, bold: id, dim: id };

export interface Totals {
  create: number;
  update: number;
  delete: number;
  unchanged: number;
  triggers: number;
  failedAccounts: number;
}

export function totals(plans: AccountPlan[]): Totals {
  const t: Totals = { create: 0, update: 0, delete: 0, unchanged: 0, triggers: 0, failedAccounts: 0 };
  for (const p of plans) {
    if (p.status === 'error') t.failedAccounts++;
    for (const c of p.changes) t[c.action]++;
    t.unchanged += p.unchanged;
    t.triggers += p.triggers.length;
  }
  return t;
}

export function formatValue(v: unknown): string {
  if (v === null || v === undefined) return '(none)';
  return typeof v === 'string' ? JSON.stringify(v) : String(v);
}

function providerOf(c: { scopeKey: string; stack: string }): string {
  return c.scopeKey.slice(c.stack.length + 1);
}

function scopeText(p: AccountPlan): string[] {
  return p.account.scopes.map((s) => {
    const mode = s.ownership === 'prefix' ? `prefix ${JSON.stringify(s.prefix)}` : s.ownership;
    return `stack ${s.stack}, provider ${s.providerKey}: ownership ${mode}`;
  });
}

export function accountHeading(p: AccountPlan): string {
  return `Account ${p.account.label} — ${p.account.baseUrl} (${p.account.identity})`;
}

function reasonText(c: Change): string {
  switch (c.reason) {
    case 'missing':
      return 'declared, not in the account';
    case 'changed':
      return 'differs from the declaration';
    case 'undeclared':
      return 'not declared, in an owned scope';
    case 'duplicate':
      return 'duplicate name; the lowest id is kept';
    case 'destroy':
      return 'destroy';
  }
}

function errorText(e: ErrorInfo): string {
  return `${e.code}: ${e.message}`;
}

function targetLabel(t: PlannedTrigger): string {
  return `${t.targetType} ${t.targetName ?? ''}${t.targetName ? ' ' : ''}(id ${t.targetId})`;
}

/**
 * Names of the domains and subdomains an account's plan knows, keyed `domain:1`: from the
 * domains list (when names were resolved) and from the live alerts' target details. Used
 * only to annotate target ids; no call is made for it.
 */
export function targetNames(p: Pick<AccountPlan, 'domains' | 'live'>): TargetNames {
  const names = new Map<string, string>();
  for (const d of p.domains ?? []) {
    names.set(`domain:${d.id}`, d.domain);
    for (const sub of d.subdomains) names.set(`subdomain:${sub.id}`, sub.subdomain);
  }
  for (const a of p.live) {
    const detail = a.target_subdomain ?? a.target_domain;
    const name = detail && [detail.subdomain, detail.domain, detail.name].find((n): n is string => typeof n === 'string' && n !== '');
    if (name && !names.has(`${a.target_type}:${a.target_id}`)) names.set(`${a.target_type}:${a.target_id}`, name);
  }
  return names;
}

export type TargetNames = ReadonlyMap<string, string>;

/** `# www.example.com` after a target id, when its name is known. */
function targetNote(spec: AlertSpec | null, names: TargetNames | undefined): string | undefined {
  return spec ? names?.get(`${spec.target_type}:${spec.target_id}`) : undefined;
}

function alertLines(spec: AlertSpec, indent: string, names?: TargetNames): string[] {
  const width = Math.max(...SPEC_FIELDS.map((f) => f.length));
  const note = targetNote(spec, names);
  return SPEC_FIELDS.filter((f) => !(f === 'subtype' && spec.subtype === null) && !(f === 'filter_value' && spec.filter_value === ''))
    .map((f) => `${indent}${`${f}:`.padEnd(width + 2)}${formatValue(spec[f])}${f === 'target_id' && note ? `  # ${note}` : ''}`);
}

/** One change, terraform-style. `names` annotates target ids with their domain names. */
export function changeLines(c: Change, s: Style, verbose = true, comment?: string, names?: TargetNames): string[] {
  const where = c.path ? ` (${c.path})` : '';
  const idText = c.id !== null ? ` id ${c.id}` : '';
  switch (c.action) {
    case 'create':
      return [s.green(`  + alert ${JSON.stringify(c.name)}${where}`) + (comment ? s.dim(`  # ${comment}`) : ''), ...(verbose ? alertLines(c.after!, '      ', names).map(s.green) : [])];
    case 'update': {
      const width = Math.max(...c.fields.map((f) => f.field.length));
      const before = targetNote(c.before, names);
      const after = targetNote(c.after, names);
      const note = (field: string) => (field === 'target_id' && (before || after) ? s.dim(`  # ${before ?? '?'} → ${after ?? '?'}`) : '');
      return [
        s.yellow(`  ~ alert ${JSON.stringify(c.name)}${idText}${where}`) + (comment ? s.dim(`  # ${comment}`) : ''),
        ...c.fields.map((f) => s.yellow(`      ${`${f.field}:`.padEnd(width + 2)}${formatValue(f.before)} → ${formatValue(f.after)}`) + note(f.field)),
      ];
    }
    case 'delete':
      return [s.red(`  - alert ${JSON.stringify(c.name)}${idText}${where}`) + s.dim(`  # ${comment ?? reasonText(c)}`)];
  }
}

export function summaryLine(t: Totals, command: Command): string {
  // Counts cover only the accounts that could be planned; say so rather than imply "nothing to do".
  const head = t.failedAccounts ? `Plan (incomplete: ${t.failedAccounts} account${t.failedAccounts === 1 ? '' : 's'} not planned)` : 'Plan';
  if (command === 'destroy') return `${head}: 0 to create, 0 to update, ${t.delete} to delete.`;
  return `${head}: ${t.create} to create, ${t.update} to update, ${t.delete} to delete.`;
}

/** The plan as text: per account, its scopes, changes, warnings and triggers. */
export function planText(plans: AccountPlan[], command: Command, s: Style): string {
  const out: string[] = [];
  for (const p of plans) {
    out.push(s.bold(accountHeading(p)));
    for (const line of scopeText(p)) out.push(s.dim(`  ${line}`));
    if (p.status === 'error') {
      out.push(s.red(`  ✗ ${errorText(p.error!)}`), '');
      continue;
    }
    for (const w of p.warnings) out.push(warningLine(w, s));
    if (!p.changes.length) out.push(`  No changes. ${p.unchanged} alert${p.unchanged === 1 ? '' : 's'} in sync.`);
    const names = targetNames(p);
    for (const c of p.changes) out.push(...changeLines(c, s, command !== 'destroy', undefined, names));
    if (p.triggers.length) {
      out.push('  Report triggers apply will run:');
      for (const t of p.triggers) {
        const map = Object.entries(t.triggers).map(([k, v]) => `${k}=${v}`).join(', ');
        out.push(`  » ${targetLabel(t)} report (${t.path})${map ? s.dim(`  # triggers: ${map}`) : ''}`);
      }
    }
    out.push('');
  }
  const t = totals(plans);
  out.push(s.bold(summaryLine(t, command)));
  if (t.triggers) out.push(`Apply will also run ${t.triggers} report trigger${t.triggers === 1 ? '' : 's'}.`);
  const guards = guardsOf(plans);
  if (guards.length && command === 'plan') out.push(s.red(guardSummary(guards)));
  if (t.failedAccounts) out.push(s.red(failedAccountsLine(plans, false)));
  return out.join('\n') + '\n';
}

/** A warning; one that apply enforces stands out. */
function warningLine(w: Warning, s: Style): string {
  return w.guard ? s.red(s.bold(`  ! ${w.message}`)) : s.yellow(`  ! ${w.message}`);
}

/** The warnings of the plans that make apply refuse without their flag. */
export function guardsOf(plans: AccountPlan[]): Array<Warning & { guard: DeleteGuard }> {
  return plans.flatMap((p) => p.warnings.filter((w): w is Warning & { guard: DeleteGuard } => w.guard !== undefined));
}

/** `Apply will refuse: …; pass --allow-empty …`: one line for the guards a plan trips. */
export function guardSummary(guards: ReadonlyArray<{ guard: DeleteGuard }>): string {
  const flags = [...new Set(guards.map((g) => g.guard.flag))];
  const deletes = guards.reduce((n, g) => n + g.guard.deletes, 0);
  return `Apply will refuse: ${guards.length === 1 ? 'a scope' : `${guards.length} scopes`} would lose ${deletes} live alert${deletes === 1 ? '' : 's'} (see "!" above); pass ${flags.join(' and ')} to apply anyway.`;
}

/** `detail`: repeat each error's message (where it was not already shown under its account). */
export function failedAccountsLine(plans: AccountPlan[], detail = true): string {
  const failed = plans.filter((p) => p.status === 'error');
  const each = failed.map((p) => `${p.account.label} (${p.error!.code}${detail ? `: ${p.error!.message}` : ''})`);
  return `${failed.length} account${failed.length === 1 ? '' : 's'} failed: ${each.join('; ')}${detail ? '' : '; see above'}`;
}

const verbs = { create: 'created', update: 'updated', delete: 'deleted' } as const;

export function changeResultLine(p: AccountPlan, c: Change, r: ChangeResult, s: Style): string {
  const idText = r.id !== undefined ? ` (id ${r.id})` : c.id !== null ? ` (id ${c.id})` : '';
  const who = `${p.account.label}: alert ${JSON.stringify(c.name)}${idText}`;
  if (r.status === 'failed') return s.red(`  ✗ ${who}: ${c.action} failed: ${errorText(r.error!)}`);
  if (r.status === 'skipped') return s.yellow(`  - ${who}: ${r.note}`);
  const verb = r.status === 'adopted' ? 'adopted' : verbs[c.action];
  return s.green(`  ✓ ${who} ${verb}`) + (r.note ? s.dim(` — ${r.note}`) : '');
}

export function triggerResultLine(p: AccountPlan, t: PlannedTrigger, r: TriggerResult, s: Style): string {
  const who = `${p.account.label}: ${targetLabel(t)} report`;
  if (r.status === 'ok') return s.green(`  ✓ ${who}: ${r.reportUrl}`);
  if (r.status === 'skipped') return s.yellow(`  - ${who}: ${r.note}`);
  return s.red(`  ✗ ${who} failed: ${errorText(r.error!)}`);
}

export interface ApplyTotals {
  created: number;
  updated: number;
  deleted: number;
  adopted: number;
  failed: number;
  /** Not started: the run was interrupted. */
  skipped: number;
  reports: number;
  failedReports: number;
}

export function applyTotals(plans: AccountPlan[]): ApplyTotals {
  const t: ApplyTotals = { created: 0, updated: 0, deleted: 0, adopted: 0, failed: 0, skipped: 0, reports: 0, failedReports: 0 };
  for (const p of plans) {
    (p.results ?? []).forEach((r, i) => {
      if (r.status === 'ok') t[verbs[p.changes[i].action]]++;
      else t[r.status]++;
    });
    for (const r of p.triggerResults ?? []) {
      if (r.status === 'ok') t.reports++;
      else t.failedReports++;
    }
  }
  return t;
}

export function applySummary(plans: AccountPlan[], s: Style, command: 'apply' | 'destroy' = 'apply'): string {
  const t = applyTotals(plans);
  const lines: string[] = [];
  const adopted = t.adopted ? `, ${t.adopted} adopted` : '';
  const skipped = t.skipped ? `, ${t.skipped} not started` : '';
  const interfered = plans.filter((p) => p.interference);
  const errors = t.failed || t.failedReports || interfered.length;
  const outcome = t.skipped ? 'interrupted' : errors ? 'finished with errors' : 'complete';
  // A run whose alert changes all worked but whose reports failed says so in the headline.
  const reportsFailed = t.failedReports ? `; ${t.failedReports} report${t.failedReports === 1 ? '' : 's'} failed or skipped` : '';
  const line = `${command === 'destroy' ? 'Destroy' : 'Apply'} ${outcome}: ${t.created} created, ${t.updated} updated, ${t.deleted} deleted${adopted}, ${t.failed} failed${skipped}${reportsFailed}.`;
  lines.push(errors || t.skipped ? s.red(line) : s.bold(line));
  if (t.reports || t.failedReports) lines.push(`Reports: ${t.reports} generated, ${t.failedReports} failed or skipped.`);
  for (const p of interfered) lines.push(s.red(`✗ ${p.interference!.message}`));
  if (plans.some((p) => p.status === 'error')) lines.push(s.red(failedAccountsLine(plans, false)));
  return lines.join('\n') + '\n';
}

// ---- drift ----

export type DriftKind = 'missing' | 'edited' | 'unmanaged' | 'duplicate';

export function driftKind(c: Change): DriftKind {
  if (c.action === 'create') return 'missing';
  if (c.action === 'update') return 'edited';
  return c.reason === 'duplicate' ? 'duplicate' : 'unmanaged';
}

const driftWords: Record<DriftKind, string> = {
  missing: 'missing (deleted out of band); apply creates it',
  edited: 'edited out of band; apply restores it',
  unmanaged: 'not declared (added out of band); apply deletes it',
  duplicate: 'duplicate name; apply deletes it',
};

export function driftText(plans: AccountPlan[], s: Style): string {
  const out: string[] = [];
  for (const p of plans) {
    out.push(s.bold(accountHeading(p)));
    if (p.status === 'error') {
      out.push(s.red(`  ✗ ${errorText(p.error!)}`), '');
      continue;
    }
    for (const w of p.warnings) out.push(warningLine(w, s));
    if (!p.changes.length) out.push(s.green(`  In sync: ${p.unchanged} alert${p.unchanged === 1 ? '' : 's'} match the code.`));
    const names = targetNames(p);
    for (const c of p.changes) out.push(...changeLines(c, s, false, driftWords[driftKind(c)], names));
    out.push('');
  }
  const t = totals(plans);
  const n = t.create + t.update + t.delete;
  const unchecked = t.failedAccounts ? `${t.failedAccounts} account${t.failedAccounts === 1 ? '' : 's'} not checked` : '';
  const found = n ? `Drift: ${n} difference${n === 1 ? '' : 's'} (${t.create} missing, ${t.update} edited, ${t.delete} to delete)` : unchecked ? 'No drift in the accounts checked' : 'No drift';
  out.push(s.bold(unchecked ? `${found}; ${unchecked}.` : `${found}.`));
  if (t.failedAccounts) out.push(s.red(failedAccountsLine(plans, false)));
  return out.join('\n') + '\n';
}

const md = (v: string) => v.replace(/\|/g, '\\|').replace(/\n/g, ' ');
const code = (v: string) => '`' + v.replace(/`/g, "'") + '`';

export function driftMarkdown(plans: AccountPlan[]): string {
  const t = totals(plans);
  const n = t.create + t.update + t.delete;
  const out: string[] = ['## NetworkCalc alert drift', ''];
  if (t.failedAccounts) out.push(`❌ ${md(failedAccountsLine(plans))}`, '');
  // Never a green headline over an account that could not be checked.
  const checked = t.failedAccounts ? ' in the accounts checked' : '';
  const headline = n
    ? `⚠️ **${n} difference${n === 1 ? '' : 's'}** between the code and the live alerts${checked}.`
    : t.failedAccounts
      ? `❌ **Not fully checked**: no drift in the accounts checked (${t.unchanged} alert${t.unchanged === 1 ? '' : 's'}), ${t.failedAccounts} account${t.failedAccounts === 1 ? '' : 's'} not checked.`
      : `✅ **In sync**: ${t.unchanged} alert${t.unchanged === 1 ? '' : 's'} match the code.`;
  out.push(headline, '');
  for (const p of plans) {
    out.push(`### Account ${code(p.account.label)}`, '', `${md(p.account.baseUrl)} · ${md(scopeText(p).join('; '))}`, '');
    if (p.status === 'error') {
      out.push(`❌ ${code(p.error!.code)} ${md(p.error!.message)}`, '');
      continue;
    }
    for (const w of p.warnings) out.push(`> ⚠️ ${md(w.message)}`, '');
    if (!p.changes.length) {
      out.push(`In sync (${p.unchanged} alert${p.unchanged === 1 ? '' : 's'}).`, '');
      continue;
    }
    out.push('| | Alert | Id | Drift | Details |', '|---|---|---|---|---|');
    for (const c of p.changes) {
      const sign = c.action === 'create' ? '+' : c.action === 'update' ? '~' : '-';
      const details = c.action === 'update' ? c.fields.map((f) => `${f.field}: ${code(formatValue(f.before))} → ${code(formatValue(f.after))}`).join('<br>') : '';
      out.push(`| ${sign} | ${code(c.name)} | ${c.id ?? '—'} | ${md(driftWords[driftKind(c)])} | ${md(details)} |`);
    }
    out.push('');
  }
  return out.join('\n') + '\n';
}

/** The drift report of a run whose configuration is not valid (nothing was checked). */
export function driftErrorMarkdown(problems: string[]): string {
  return ['## NetworkCalc alert drift', '', '❌ **Not checked**: the configuration is not valid.', '', ...problems.map((p) => `- ${md(p)}`), ''].join('\n') + '\n';
}

// ---- JSON ----

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

/** The `--json` / `--format json` document; see docs/cli.md. */
export function toJson(command: Command, plans: AccountPlan[]): Record<string, unknown> {
  const t = totals(plans);
  const drift = command === 'drift';
  const summary: Record<string, unknown> = {
    create: t.create, update: t.update, delete: t.delete, unchanged: t.unchanged, triggers: t.triggers, failed_accounts: t.failedAccounts,
  };
  if (command === 'apply' || command === 'destroy') {
    const a = applyTotals(plans);
    Object.assign(summary, { applied: { created: a.created, updated: a.updated, deleted: a.deleted, adopted: a.adopted, failed: a.failed, skipped: a.skipped, reports: a.reports, failed_reports: a.failedReports } });
  }
  const changes = t.create + t.update + t.delete;
  return {
    format_version: FORMAT_VERSION,
    command,
    ...(drift ? { in_sync: changes === 0 && t.failedAccounts === 0 } : {}),
    summary,
    accounts: plans.map((p) => ({
      label: p.account.label,
      base_url: p.account.baseUrl,
      identity: p.account.identity,
      scopes: p.account.scopes.map((s) => ({ stack: s.stack, provider: s.providerKey, ownership: s.ownership, prefix: s.prefix })),
      status: p.status,
      error: p.error,
      ...(p.interference ? { interference: p.interference } : {}),
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
        return [{ kind: w.guard.kind, flag: w.guard.flag, stack: scope?.stack ?? null, provider: scope?.providerKey ?? null, deletes: w.guard.deletes, owned: w.guard.owned, message: w.message }];
      }),
      changes: p.changes.map((c, i) => changeJson(c, p.results?.[i], drift)),
      triggers: drift ? [] : p.triggers.map((tr, i) => {
        const o: Record<string, unknown> = {
          stack: tr.stack, provider: providerOf(tr), logical_id: tr.logicalId, path: tr.path, target_type: tr.targetType,
          target_id: tr.targetId, target_name: tr.targetName, triggers: tr.triggers,
        };
        const r = p.triggerResults?.[i];
        if (r) o.result = resultJson(r);
        return o;
      }),
    })),
  };
}

/**
 * The JSON document for a run that failed before planning (invalid configuration). `details`:
 * the app's construct problems as data (`{path, field, value, allowed, message}`), when its
 * synth reported them.
 */
export function errorJson(command: Command, problems: string[], details?: readonly ConstructProblem[]): Record<string, unknown> {
  const error: Record<string, unknown> = { code: 'CONFIG_ERROR', problems };
  if (details) error.details = details;
  return { format_version: FORMAT_VERSION, command, error, accounts: [] };
}
