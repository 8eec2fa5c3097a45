/**
 * `ncalc destroy`: delete the alerts the app declares (with --all-in-scope, every alert its
 * exclusive and prefix scopes own): a destroy plan, then apply's sequence without its guards.
 */
import type { CliIO } from './io';
import { applyPlans, freshPlan, type ApplyFlags } from './apply-flow';

export function destroyCommand(io: CliIO, opts: ApplyFlags): Promise<number> {
  return applyPlans(io, opts, 'destroy', (factory) => freshPlan(io, opts, 'destroy', factory));
}
