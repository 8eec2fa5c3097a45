/**
 * Text output at scale: above a threshold of changes, the text renderers (plan, apply, destroy,
 * drift) group by account: each account's counts and its first lines, then "… N more". The
 * thresholds and that decision live here only; JSON and markdown always keep everything.
 */
import type { AccountPlan } from '../plan/account-plan';
import { renamedCount } from './totals';

/** More changes than this in one account groups the text output. */
export const GROUP_PER_ACCOUNT = 50;
/** More changes than this in all accounts groups the text output. */
export const GROUP_IN_ALL = 2000;
/** When grouped: lines shown per account (changes, report triggers, apply results), one line each. */
export const GROUP_FIRST_LINES = 10;

/** How much of each account the text shows: `null` is everything (today's output). */
export type Detail = { firstLines: number } | null;

/**
 * Everything with `--detail`, or while no account has more than GROUP_PER_ACCOUNT changes and
 * all have no more than GROUP_IN_ALL; grouped otherwise. Report triggers count as changes.
 */
export function textDetail(plans: readonly Pick<AccountPlan, 'changes' | 'triggers'>[], detail = false): Detail {
  if (detail) return null;
  let all = 0;
  let most = 0;
  for (const p of plans) {
    const n = p.changes.length + p.triggers.length;
    all += n;
    most = Math.max(most, n);
  }
  return most > GROUP_PER_ACCOUNT || all > GROUP_IN_ALL ? { firstLines: GROUP_FIRST_LINES } : null;
}

/** `  … 50 more (`--detail` for all)`: the line that stands for what a grouped account leaves out. */
export function moreLine(n: number): string {
  return `  … ${n} more (\`--detail\` for all)`;
}

/**
 * The lines of `items`: each item's full lines when not grouped; when grouped, the first line
 * of each of the first `firstLines` items, then one `moreLine` for the rest.
 */
export function firstLines<T>(items: readonly T[], lines: (item: T) => string[], detail: Detail): string[] {
  if (!detail) return items.flatMap(lines);
  const shown = items.slice(0, detail.firstLines).map((item) => lines(item)[0]!);
  const rest = items.length - shown.length;
  return rest > 0 ? [...shown, moreLine(rest)] : shown;
}

/** `  60 changes: 60 to create, 0 to update, 0 to delete`: a grouped account's counts. */
export function accountCounts(
  p: Pick<AccountPlan, 'changes' | 'triggers'>,
  words: Readonly<Record<'create' | 'update' | 'delete', string>>,
  noun: 'change' | 'difference',
): string {
  const n = { create: 0, update: 0, delete: 0 };
  for (const c of p.changes) n[c.action]++;
  const triggers = p.triggers.length
    ? `; ${p.triggers.length} report trigger${p.triggers.length === 1 ? '' : 's'}`
    : '';
  const total = p.changes.length;
  // Drift names a rename as its own kind (docs/cli.md), though apply makes it an update.
  const renamed = noun === 'difference' ? renamedCount(p.changes) : 0;
  const renames = renamed ? `${renamed} renamed, ` : '';
  return `  ${total} ${noun}${total === 1 ? '' : 's'}: ${n.create} ${words.create}, ${n.update - renamed} ${words.update}, ${renames}${n.delete} ${words.delete}${triggers}`;
}
