/**
 * What is firing already: the live alerts whose `current_status` is `triggered`, read from the
 * list `plan` and `drift` fetch anyway. The interface names `healthy` and `triggered` as
 * examples of the field's values; any other value is not taken as firing.
 */
import type { LiveAlert } from '../model';
import type { AccountPlan } from '../plan/account-plan';
import { code, md } from './markdown';
import type { Style } from './style';
import { quoteText } from '../support/terminal-text';

export function triggeredAlerts(plan: Pick<AccountPlan, 'live'>): LiveAlert[] {
  return plan.live.filter((a) => a.current_status?.trim().toLowerCase() === 'triggered');
}

const since = (a: LiveAlert) =>
  a.last_triggered_at ? `last triggered ${a.last_triggered_at}` : 'last triggered: not given';

/** Lines under an account's plan or drift: `  ▲ triggered: "apex MX" (id 4), last triggered 2026-11-25T08:00:00Z`. */
export function triggeredLines(plan: Pick<AccountPlan, 'live'>, s: Style): string[] {
  return triggeredAlerts(plan).map((a) => s.red(`  ▲ triggered now: ${quoteText(a.name)} (id ${a.id}), ${since(a)}`));
}

/** The `triggered` array of an account in `--json`. */
export function triggeredJson(plan: Pick<AccountPlan, 'live'>): Array<Record<string, unknown>> {
  return triggeredAlerts(plan).map((a) => ({ id: a.id, name: a.name, last_triggered_at: a.last_triggered_at }));
}

/** A markdown block for the drift report; empty when nothing is triggered. */
export function triggeredMarkdown(plan: Pick<AccountPlan, 'live'>): string[] {
  const firing = triggeredAlerts(plan);
  if (!firing.length) return [];
  return [
    `🔺 **Triggered now** (${firing.length}): ${firing.map((a) => `${code(a.name)} (id ${a.id}, ${md(since(a))})`).join(', ')}`,
    '',
  ];
}
