/**
 * Saved plans: `ncalc plan --save <file>` writes the plan value down, `ncalc apply <file>`
 * applies exactly its changes once each account's live alerts are shown to be what the plan
 * saw (that check lists the accounts: `revivePlan`, src/engine/revive-plan.ts). The file holds
 * no secret: credentials are read again from the environment at apply, by the variable names
 * the scopes recorded.
 */
import { ExpectedError } from '../support/expected-error';
import { createHash } from 'node:crypto';
import { isValidHostName, SPEC_FIELDS, validateAlert, type LiveAlert } from '../model';
import type { TargetChange } from '../plan/target-changes';
import { OWNERSHIP_MODES } from '../accounts';
import { PACKAGE_VERSION } from '../version';
import { resolveCredentials, type Account } from '../plan/accounts';
import type { AccountPlan } from '../plan/account-plan';
import type { CoverageReport } from '../plan/coverage';
import type { Shard } from '../plan/shard';
import { ConfigError } from '../contract/config-error';
import { isRefused, sentence } from '../model/problems';
import type { ApiDomain, Change, Credentials, PlannedTrigger, Scope, Warning } from '../plan/types';
import { isObject, type Json } from '../support/json';

/** What the file says it is; anything else is not a saved plan. */
export const SAVED_PLAN_FORMAT = 'ncalc-saved-plan';
/** Version of the file; a reader takes files of its own major version only. */
export const SAVED_PLAN_VERSION = '1.0';

/** A saved plan that cannot be read: not one, another version, or changed after it was written. */
export class PlanFileError extends ConfigError {
  constructor(problems: string[]) {
    super({ problems: problems.map(sentence) });
    this.name = 'PlanFileError';
  }
}

/** A saved plan whose accounts no longer look as they did when it was made. */
export class StalePlanError extends ConfigError {
  constructor(problems: string[]) {
    super({ problems: problems.map(sentence) });
    this.name = 'StalePlanError';
  }
}

/**
 * A digest of an account's live alerts as far as a plan depends on them: each alert's id,
 * user and settings, in id order. Server-side status (`current_status`, `last_triggered_at`,
 * `is_active`) changes on its own and is left out, so a check that fired does not make a plan
 * stale; any create, edit or delete does.
 */
export function liveDigest(live: readonly LiveAlert[]): string {
  const hash = createHash('sha256');
  const sorted = [...live].sort((a, b) => a.id - b.id);
  for (const a of sorted) hash.update(JSON.stringify([a.id, a.user_id, ...SPEC_FIELDS.map((f) => a[f])]) + '\n');
  return `sha256:${hash.digest('hex')}`;
}

/** The saved form of one account plan: no credentials, the live list as a count and a digest. */
export interface SavedAccount {
  key: string;
  label: string;
  base_url: string;
  identity: string;
  scopes: Scope[];
  live_alerts: { count: number; digest: string };
  unchanged: number;
  warnings: Warning[];
  changes: Change[];
  /** Domains and subdomains to create first; absent when none (see AccountPlan.targetChanges). */
  target_changes?: TargetChange[];
  triggers: PlannedTrigger[];
  domains: ApiDomain[] | null;
  /** What the account's alert policies cover once applied, shown again at apply; absent without policies. */
  coverage?: CoverageReport;
}

export interface SavedPlan {
  format: string;
  format_version: string;
  ncalc_version: string;
  created_at: string;
  /** Whether report triggers were planned (they run at apply unless --no-triggers). */
  report_triggers: boolean;
  shard: Shard | null;
  accounts: SavedAccount[];
}

const checksumOf = (body: unknown) => `sha256:${createHash('sha256').update(JSON.stringify(body)).digest('hex')}`;

/**
 * The file `ncalc plan --save` writes. Only a complete plan is saved: the caller refuses a plan
 * with a failed account. The checksum covers the rest of the document, so an edit or a
 * truncated copy is refused at apply (it protects against accidents, not against someone who
 * recomputes it).
 */
export function savedPlanText(
  plans: readonly AccountPlan[],
  options: { triggers: boolean; shard: Shard | null; now?: Date },
): string {
  const failed = plans.filter((p) => p.status !== 'ok');
  if (failed.length)
    throw new ExpectedError(
      `a plan with failed accounts cannot be saved (${failed.map((p) => p.account.label).join(', ')})`,
    );
  const body: SavedPlan = {
    format: SAVED_PLAN_FORMAT,
    format_version: SAVED_PLAN_VERSION,
    ncalc_version: PACKAGE_VERSION,
    created_at: (options.now ?? new Date()).toISOString(),
    report_triggers: options.triggers,
    shard: options.shard,
    accounts: plans.map((p) => ({
      key: p.account.key,
      label: p.account.label,
      base_url: p.account.baseUrl,
      identity: p.account.identity,
      scopes: p.account.scopes,
      live_alerts: { count: p.live.length, digest: liveDigest(p.live) },
      unchanged: p.unchanged,
      warnings: [...p.warnings],
      changes: [...p.changes],
      ...(p.targetChanges?.length ? { target_changes: [...p.targetChanges] } : {}),
      triggers: [...p.triggers],
      domains: p.domains ? [...p.domains] : null,
      ...(p.coverage ? { coverage: p.coverage } : {}),
    })),
  };
  return JSON.stringify({ ...body, checksum: checksumOf(body) }, null, 2) + '\n';
}

// ---- reading ----

const isString = (v: unknown): v is string => typeof v === 'string';
const isStringOrNull = (v: unknown): v is string | null => v === null || typeof v === 'string';
const isInt = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v);
const isNumberOrNull = (v: unknown): v is number | null => v === null || (typeof v === 'number' && Number.isFinite(v));

/** Collects what is wrong with a document read back, each with its JSON path. */
class Checker {
  readonly problems: string[] = [];
  constructor(private readonly file: string) {}
  check(ok: boolean, where: string, expected: string): boolean {
    if (!ok && this.problems.length < 20) this.problems.push(`${this.file}: ${where} is not ${expected}`);
    return ok;
  }
}

function checkScope(c: Checker, s: unknown, where: string): void {
  if (!c.check(isObject(s), where, 'a scope')) return;
  const o = s as Json;
  for (const k of ['key', 'stack', 'providerKey'] as const) c.check(isString(o[k]), `${where}.${k}`, 'a string');
  // null: the block names no such variable (it names others, so the defaults do not apply).
  for (const k of ['alias', 'baseUrl', 'prefix', 'tokenEnv', 'clientIdEnv', 'clientSecretEnv'] as const)
    c.check(isStringOrNull(o[k]), `${where}.${k}`, 'a string or null');
  for (const k of ['maxRetries', 'timeoutSeconds'] as const)
    c.check(isNumberOrNull(o[k]), `${where}.${k}`, 'a number or null');
  c.check(
    (OWNERSHIP_MODES as readonly unknown[]).includes(o.ownership),
    `${where}.ownership`,
    `one of ${OWNERSHIP_MODES.join(', ')}`,
  );
}

function checkSpec(c: Checker, spec: unknown, where: string, placeholders: ReadonlySet<number>): void {
  if (!c.check(isObject(spec), where, 'an alert')) return;
  // A target the plan creates stands under its placeholder id; the rest of the alert is checked as usual.
  const targetId = (spec as Json).target_id;
  const problems = validateAlert(
    typeof targetId === 'number' && placeholders.has(targetId) ? { ...(spec as Json), target_id: 1 } : (spec as Json),
  );
  c.check(
    problems.length === 0 && isInt((spec as Json).target_id),
    where,
    `a valid alert (${problems.map((p) => p.message).join('; ') || 'target_id is not a whole number'})`,
  );
}

function checkChange(
  c: Checker,
  ch: unknown,
  where: string,
  scopeKeys: ReadonlySet<string>,
  placeholders: ReadonlySet<number>,
): void {
  if (!c.check(isObject(ch), where, 'a change')) return;
  const o = ch as Json;
  const action = o.action;
  c.check(
    action === 'create' || action === 'update' || action === 'delete',
    `${where}.action`,
    'create, update or delete',
  );
  c.check(
    ['missing', 'changed', 'renamed', 'undeclared', 'duplicate', 'destroy'].includes(o.reason as string),
    `${where}.reason`,
    'a reason',
  );
  c.check(isString(o.name), `${where}.name`, 'a string');
  c.check(
    action === 'create' ? o.id === null : isInt(o.id),
    `${where}.id`,
    action === 'create' ? 'null' : 'an alert id',
  );
  c.check(isString(o.scopeKey) && scopeKeys.has(o.scopeKey), `${where}.scopeKey`, "one of the account's scopes");
  c.check(isString(o.stack), `${where}.stack`, 'a string');
  c.check(isStringOrNull(o.logicalId) && isStringOrNull(o.path), `${where}.logicalId/path`, 'strings or null');
  c.check(Array.isArray(o.fields), `${where}.fields`, 'a list');
  if (action === 'create' || action === 'update') checkSpec(c, o.after, `${where}.after`, placeholders);
  if (action === 'create' && isObject(o.after))
    c.check(o.after.name === o.name, `${where}.after.name`, 'the name of the change');
}

/** A saved domain or subdomain create (its placeholder id is added to `placeholders`) or delete. */
function checkTargetChange(
  c: Checker,
  t: unknown,
  where: string,
  scopeKeys: ReadonlySet<string>,
  placeholders: Set<number>,
): void {
  if (!c.check(isObject(t), where, 'a domain or subdomain change')) return;
  const o = t as Json;
  c.check(o.action === 'create' || o.action === 'delete', `${where}.action`, 'create or delete');
  const sub = o.targetType === 'subdomain';
  c.check(o.targetType === 'domain' || sub, `${where}.targetType`, 'domain or subdomain');
  c.check(isString(o.name) && isValidHostName(o.name), `${where}.name`, 'a host name');
  c.check(isString(o.scopeKey) && scopeKeys.has(o.scopeKey), `${where}.scopeKey`, "one of the account's scopes");
  c.check(isString(o.stack), `${where}.stack`, 'a string');
  if (o.action === 'delete') {
    // A delete names a live target: its id (and a subdomain's domain id), and what we assume goes with it.
    c.check(isInt(o.id) && o.id > 0, `${where}.id`, 'a positive whole number');
    c.check(
      sub ? isInt(o.domainId) && o.domainId > 0 : o.domainId === null,
      `${where}.domainId`,
      sub ? 'a domain id' : 'null',
    );
    const takes = isObject(o.takes) ? o.takes : null;
    c.check(
      takes !== null && isInt(takes.alerts) && takes.alerts >= 0 && isInt(takes.subdomains) && takes.subdomains >= 0,
      `${where}.takes`,
      'counts of alerts and subdomains',
    );
    return;
  }
  c.check(isInt(o.placeholderId) && o.placeholderId < 0, `${where}.placeholderId`, 'a negative whole number');
  if (isInt(o.placeholderId)) placeholders.add(o.placeholderId);
  c.check(sub ? isString(o.prefix) : o.prefix === null, `${where}.prefix`, sub ? 'a string' : 'null');
  c.check(
    sub ? isInt(o.domainId) && (o.domainId > 0 || placeholders.has(o.domainId)) : o.domainId === null,
    `${where}.domainId`,
    sub ? 'a domain id, or the placeholder of a domain created before it' : 'null',
  );
  for (const k of ['resource', 'path'] as const) c.check(isString(o[k]), `${where}.${k}`, 'a string');
}

function checkTrigger(c: Checker, t: unknown, where: string, scopeKeys: ReadonlySet<string>): void {
  if (!c.check(isObject(t), where, 'a report trigger')) return;
  const o = t as Json;
  for (const k of ['stack', 'logicalId', 'path'] as const) c.check(isString(o[k]), `${where}.${k}`, 'a string');
  c.check(isString(o.scopeKey) && scopeKeys.has(o.scopeKey), `${where}.scopeKey`, "one of the account's scopes");
  c.check(o.targetType === 'domain' || o.targetType === 'subdomain', `${where}.targetType`, 'domain or subdomain');
  c.check(isInt(o.targetId), `${where}.targetId`, 'a whole number');
  c.check(isStringOrNull(o.targetName), `${where}.targetName`, 'a string or null');
  c.check(isObject(o.triggers) && Object.values(o.triggers).every(isString), `${where}.triggers`, 'a map of strings');
}

function checkAccount(c: Checker, a: unknown, where: string): void {
  if (!c.check(isObject(a), where, 'an account')) return;
  const o = a as Json;
  for (const k of ['key', 'label', 'base_url', 'identity'] as const)
    c.check(isString(o[k]), `${where}.${k}`, 'a string');
  if (c.check(Array.isArray(o.scopes) && o.scopes.length > 0, `${where}.scopes`, 'a list of scopes'))
    (o.scopes as unknown[]).forEach((s, i) => checkScope(c, s, `${where}.scopes[${i}]`));
  const scopeKeys = new Set(
    Array.isArray(o.scopes)
      ? (o.scopes as unknown[]).map((s) => (isObject(s) ? s.key : undefined)).filter(isString)
      : [],
  );
  const live = o.live_alerts;
  c.check(isObject(live) && isInt(live.count) && isString(live.digest), `${where}.live_alerts`, 'a count and a digest');
  c.check(isInt(o.unchanged), `${where}.unchanged`, 'a whole number');
  if (c.check(Array.isArray(o.warnings), `${where}.warnings`, 'a list')) {
    (o.warnings as unknown[]).forEach((w, i) =>
      c.check(
        isObject(w) &&
          isString(w.message) &&
          isStringOrNull(w.scopeKey) &&
          (w.guard === undefined || isObject(w.guard)),
        `${where}.warnings[${i}]`,
        'a warning',
      ),
    );
  }
  const placeholders = new Set<number>();
  if (o.target_changes !== undefined && c.check(Array.isArray(o.target_changes), `${where}.target_changes`, 'a list'))
    (o.target_changes as unknown[]).forEach((t, i) =>
      checkTargetChange(c, t, `${where}.target_changes[${i}]`, scopeKeys, placeholders),
    );
  if (c.check(Array.isArray(o.changes), `${where}.changes`, 'a list'))
    (o.changes as unknown[]).forEach((ch, i) => checkChange(c, ch, `${where}.changes[${i}]`, scopeKeys, placeholders));
  if (c.check(Array.isArray(o.triggers), `${where}.triggers`, 'a list'))
    (o.triggers as unknown[]).forEach((t, i) => checkTrigger(c, t, `${where}.triggers[${i}]`, scopeKeys));
  c.check(o.domains === null || Array.isArray(o.domains), `${where}.domains`, 'a list or null');
  c.check(
    o.coverage === undefined || (isObject(o.coverage) && Array.isArray(o.coverage.policies)),
    `${where}.coverage`,
    'a coverage report',
  );
}

/**
 * Reads a saved plan strictly: a file that is not one, of another major version, changed
 * after it was written (checksum) or of the wrong shape is a PlanFileError saying what to do.
 */
export function readSavedPlan(text: string, file: string): SavedPlan {
  const again = 'make a new one with ncalc plan --save';
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (e) {
    throw new PlanFileError([`${file} is not a saved plan: it is not valid JSON (${(e as Error).message}); ${again}`]);
  }
  if (!isObject(doc) || doc.format !== SAVED_PLAN_FORMAT) {
    throw new PlanFileError([
      `${file} is not a plan saved by ncalc plan --save (no "format": "${SAVED_PLAN_FORMAT}"); ${again}`,
    ]);
  }
  const version = doc.format_version;
  if (!isString(version) || version.split('.')[0] !== SAVED_PLAN_VERSION.split('.')[0]) {
    throw new PlanFileError([
      `${file} is a saved plan of format ${JSON.stringify(version)}; this ncalc (${PACKAGE_VERSION}) reads format ${SAVED_PLAN_VERSION.split('.')[0]}.x; ${again}`,
    ]);
  }
  const { checksum, ...body } = doc;
  if (checksum !== checksumOf(body)) {
    throw new PlanFileError([
      `${file} was changed after ncalc saved it (its checksum does not match its content); a saved plan is applied exactly as written, so ${again}`,
    ]);
  }
  const c = new Checker(file);
  c.check(isString(body.created_at), 'created_at', 'a string');
  c.check(typeof body.report_triggers === 'boolean', 'report_triggers', 'true or false');
  c.check(
    body.shard === null || (isObject(body.shard) && isInt(body.shard.index) && isInt(body.shard.count)),
    'shard',
    'null or a shard',
  );
  if (c.check(Array.isArray(body.accounts), 'accounts', 'a list'))
    (body.accounts as unknown[]).forEach((a, i) => checkAccount(c, a, `accounts[${i}]`));
  if (c.problems.length) throw new PlanFileError([...c.problems.map((p) => `${p}; ${again}`)]);
  return body as unknown as SavedPlan;
}

/**
 * The saved accounts with their credentials, read again from the environment by the variable
 * names the plan recorded, at the base URL it recorded. An account whose variables now hold
 * other credentials (another token, another client id) is a problem: it may be another account.
 */
export function bindCredentials(saved: SavedPlan, env: NodeJS.ProcessEnv): { accounts: Account[]; problems: string[] } {
  const accounts: Account[] = [];
  const problems: string[] = [];
  for (const a of saved.accounts) {
    let credentials: Credentials | undefined;
    for (const scope of a.scopes) {
      const found = resolveCredentials(scope, env, a.base_url);
      const where = `account ${a.label} (stack ${scope.stack}, provider ${scope.providerKey})`;
      if (isRefused(found)) problems.push(`${where}: ${found.problem}`);
      else if (found.identity !== a.identity) {
        problems.push(
          `${where}: the credentials in the environment are ${found.identity}, but the plan was made with ${a.identity}; apply with the credentials the plan was made with, or plan again`,
        );
      } else credentials ??= found.credentials;
    }
    if (credentials)
      accounts.push({
        key: a.key,
        label: a.label,
        baseUrl: a.base_url,
        identity: a.identity,
        credentials,
        scopes: a.scopes,
      });
  }
  return { accounts, problems };
}
