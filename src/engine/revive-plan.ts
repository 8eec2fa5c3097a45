/**
 * A saved plan brought back to life for `ncalc apply <file>`: its accounts bound to the
 * credentials of the environment, and each account listed once to show that its live alerts
 * are still what the plan saw (the file itself is read in src/read/saved-plan.ts).
 */
import type { LiveAlert } from '../model';
import { failedPlan, type AccountPlan } from '../plan/account-plan';
import { toErrorInfo } from '../plan/error-info';
import type { ClientFactory } from '../plan/types';
import { ConfigError } from '../contract/config-error';
import { sentence } from '../model/problems';
import { Limiter } from '../support/limiter';
import { PLAN_ACCOUNTS_AT_ONCE } from './plan-all';
import { bindCredentials, liveDigest, StalePlanError, type SavedPlan } from '../read/saved-plan';

/**
 * The saved plan as plan values, after one list call per account (PLAN_ACCOUNTS_AT_ONCE at
 * once, as when planning) shows that its live alerts are still what the plan saw (same digest). An account that changed makes the whole plan
 * stale: a StalePlanError names every such account, and nothing is written anywhere. An
 * account that cannot be listed fails alone, like one that cannot be planned.
 */
export async function revivePlan(
  saved: SavedPlan,
  env: NodeJS.ProcessEnv,
  factory: ClientFactory,
): Promise<AccountPlan[]> {
  const { accounts, problems } = bindCredentials(saved, env);
  if (problems.length) throw new ConfigError({ problems: problems.map(sentence) });
  const stale: string[] = [];
  const limit = new Limiter(PLAN_ACCOUNTS_AT_ONCE);
  const plans = await Promise.all(
    saved.accounts.map((a, i) =>
      limit.run(async (): Promise<AccountPlan> => {
        const account = accounts[i];
        let live: LiveAlert[] = [];
        try {
          live = await factory(account.credentials).listAlerts();
        } catch (e) {
          // Like an account that cannot be planned: it fails alone, and nothing is written to it.
          return failedPlan({ account, live, domains: a.domains }, toErrorInfo(e));
        }
        if (liveDigest(live) !== a.live_alerts.digest) {
          const counts =
            live.length === a.live_alerts.count
              ? `${live.length} live alerts then and now, but not the same`
              : `${a.live_alerts.count} live alerts then, ${live.length} now`;
          stale.push(
            `account ${a.label} changed since the plan was saved (${counts}): an alert was created, edited or deleted by hand, by another run or by another tool. ` +
              'The saved plan would no longer do what was reviewed; run ncalc plan --save again and review the new plan',
          );
        }
        return {
          account,
          status: 'ok',
          error: null,
          changes: a.changes,
          ...(a.target_changes?.length ? { targetChanges: a.target_changes } : {}),
          unchanged: a.unchanged,
          warnings: a.warnings,
          triggers: a.triggers,
          live,
          domains: a.domains,
          ...(a.coverage ? { coverage: a.coverage } : {}),
        };
      }),
    ),
  );
  if (stale.length) throw new StalePlanError(stale);
  return plans;
}
