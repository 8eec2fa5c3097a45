/**
 * Both doors on one account: an alert that a local Terraform state holds is Terraform's, and
 * `ncalc` does not change or delete it behind the state's back. The rule, no I/O: the states
 * are read by src/read/terraform-state.ts, and `planAll` adds the warnings this returns to the
 * account's plan; apply and destroy refuse a plan carrying them unless given the flag.
 */
import { groupBy } from '../support/group-by';
import { scopeKey, type Account } from './accounts';
import type { Change, HeldAlert, Warning } from './types';

/** The flag that lets apply and destroy write to alerts a Terraform state holds. */
export const IGNORE_TERRAFORM_STATE_FLAG = '--ignore-terraform-state';

/**
 * The held alerts that belong to this account: those of a provider configuration (stack and
 * provider key) of the account, and those of a configuration the app no longer has in a stack
 * whose scopes the account holds (their account cannot be told apart: when in doubt, held).
 * Those of a configuration outside the app belong to every account: its provider blocks are
 * not in its state (nor always readable), so which account an alert is in shows only when its
 * id turns up in that account's list (`terraformStateWarnings`). Ids are numbered per
 * service: two services that both have an alert of that id both see it held (when in doubt, held).
 */
export function heldByAccount(account: Account, held: HeldByStack, appScopeKeys: ReadonlySet<string>): HeldAlert[] {
  if (!held.size) return [];
  const keys = new Set(account.scopes.map((s) => s.key));
  const stacks = [...new Set(account.scopes.map((s) => s.stack))];
  const ofStacks = stacks.flatMap((stack) =>
    (held.get(stack) ?? []).filter((h) => {
      const key = scopeKey(stack, h.providerKey);
      return keys.has(key) || !appScopeKeys.has(key);
    }),
  );
  const outside = held.get(null) ?? [];
  return outside.length ? [...ofStacks, ...outside] : ofStacks;
}

/**
 * The held alerts by stack (null: configurations outside the app), gathered once per run so
 * that each account reads its own stacks' only.
 */
export type HeldByStack = ReadonlyMap<string | null, readonly HeldAlert[]>;

/** The state a held alert is in, for sentences. */
export const holderText = (h: Pick<HeldAlert, 'file' | 'stack'>) =>
  h.stack === null
    ? `the Terraform state of the configuration ${h.file} (outside the app)`
    : `the Terraform state ${h.file} (stack ${h.stack})`;

export function heldByStack(held: readonly HeldAlert[]): HeldByStack {
  return groupBy(held, (h) => h.stack);
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/**
 * One warning per state file whose alerts the changes update or delete (matched by id; by name
 * for an alert the state holds without an id, an outside configuration's too: when in doubt,
 * held). Creates touch no held alert.
 */
export function terraformStateWarnings(changes: readonly Change[], held: readonly HeldAlert[]): Warning[] {
  if (!held.length) return [];
  const byId = new Map<number, HeldAlert>();
  const byName = new Map<string, HeldAlert>();
  for (const h of held) {
    // Domains and subdomains are numbered apart from alerts (src/plan/target-changes.ts checks them).
    if (h.kind !== undefined) continue;
    if (h.id !== null) byId.set(h.id, h);
    else if (h.name !== null) byName.set(h.name, h);
  }
  const touched = new Map<string, Array<{ change: Change; held: HeldAlert }>>();
  for (const c of changes) {
    if (c.action === 'create' || c.id === null) continue;
    const h = byId.get(c.id) ?? byName.get(c.name);
    if (!h) continue;
    const list = touched.get(h.file);
    if (list) list.push({ change: c, held: h });
    else touched.set(h.file, [{ change: c, held: h }]);
  }
  const warnings: Warning[] = [];
  for (const [file, list] of touched) {
    const verbs = new Set(list.map((t) => (t.change.action === 'delete' ? 'delete' : 'change')));
    const what = [...verbs].sort().join(' and ');
    const shown = list
      .slice(0, 5)
      .map((t) => `${JSON.stringify(t.change.name)} (id ${t.change.id}, ${t.held.address})`)
      .join(', ');
    const more = list.length > 5 ? ` and ${list.length - 5} more` : '';
    warnings.push({
      scopeKey: list[0]!.change.scopeKey,
      message:
        `${holderText(list[0]!.held)} holds ${plural(list.length, 'alert')} this plan would ${what}: ${shown}${more}. ` +
        `ncalc apply and destroy refuse to write to them: use one door per stack (terraform or cdktn deploy for it, ` +
        `or ncalc after terraform state rm of those addresses), or pass ${IGNORE_TERRAFORM_STATE_FLAG} to write anyway`,
      terraformState: { file, ids: list.map((t) => t.change.id!) },
    });
  }
  return warnings;
}
