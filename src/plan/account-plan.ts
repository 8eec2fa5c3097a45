/** The plan of one account as a value: what apply, the renderers and saved plans share. */
import type { TargetChange } from './target-changes';
import type { LiveAlert } from '../model';
import type { Account } from './accounts';
import type { CoverageReport } from './coverage';
import type { ErrorInfo } from './error-info';
import type { ApiDomain, Change, DeclaredAlert, PlannedTrigger, Warning } from './types';

/**
 * The plan of one account: a value. It holds no client and no results; apply reads it and
 * returns its own report, and a saved plan is this value written down (without secrets).
 */
export interface AccountPlan {
  readonly account: Account;
  /** `error`: the account could not be planned; see `error`. */
  readonly status: 'ok' | 'error';
  readonly error: ErrorInfo | null;
  readonly changes: readonly Change[];
  /**
   * Domains and subdomains the plan creates before the alert changes (domains first); absent
   * when none. Alert and trigger changes on them carry their placeholder ids.
   */
  readonly targetChanges?: readonly TargetChange[];
  readonly unchanged: number;
  readonly warnings: readonly Warning[];
  readonly triggers: readonly PlannedTrigger[];
  /** The account's list as the plan saw it: apply's baseline for creates and for its after-check. */
  readonly live: readonly LiveAlert[];
  /**
   * The account's domains as the plan listed them: when names are used, or for live alerts to
   * adopt (`liveTargetNames`); null when it listed none. Code written from the plan names
   * targets from it, so nothing lists them again.
   */
  readonly domains: readonly ApiDomain[] | null;
  /**
   * The account's declared alerts, target ids resolved and policies expanded (`fromPolicy`):
   * what `ncalc preview` evaluates and `drift --suggest` matches live alerts against.
   */
  readonly declared?: readonly DeclaredAlert[];
  /** What the account's alert policies cover once the changes are made; absent without policies (and for destroy). */
  readonly coverage?: CoverageReport;
}

/** The plan of an account that could not be planned: no changes, only the error. */
export function failedPlan(plan: Pick<AccountPlan, 'account' | 'live' | 'domains'>, error: ErrorInfo): AccountPlan {
  return {
    account: plan.account,
    status: 'error',
    error,
    changes: [],
    unchanged: 0,
    warnings: [],
    triggers: [],
    live: plan.live,
    domains: plan.domains,
  };
}
