/**
 * `ncalc destroy`: delete the alerts the app declares (with --all-in-scope, every alert its
 * exclusive and prefix scopes own): a destroy plan, then apply's sequence without its guards.
 */
import type { Command } from 'commander';
import type { CliIO } from './io';
import {
  APPLY_EXIT_HELP,
  TERRAFORM_STATE_HELP,
  appOptions,
  detailOption,
  terraformStateOption,
  withOptions,
  writeOptions,
  terraformConfigOption,
} from './options';
import { defineAction } from './contract';
import { applyPlans, freshPlan, type ApplyFlags } from './apply-flow';
import { INCLUDE_TARGETS_FLAG } from '../plan/target-changes';

export function destroyCommand(io: CliIO, opts: ApplyFlags): Promise<number> {
  return applyPlans(io, opts, 'destroy', (factory) => freshPlan(io, opts, 'destroy', factory));
}

export function register(program: Command, io: CliIO): void {
  const destroy = withOptions(program.command('destroy'), appOptions, detailOption).description(
    'Delete the alerts the app declares (and, with --all-in-scope, every alert its exclusive/prefix scopes own).',
  );
  writeOptions(destroy)
    .option('--all-in-scope', 'also delete undeclared alerts in exclusive and prefix scopes (never in additive ones)')
    .option(
      INCLUDE_TARGETS_FLAG,
      'also delete the domains and subdomains the app declares, after their alerts (refused while an alert outside the plan is on one)',
    );
  defineAction(
    terraformConfigOption(terraformStateOption(destroy))
      .option('--json', 'machine-readable result (needs --auto-approve)')
      .addHelpText('after', TERRAFORM_STATE_HELP + APPLY_EXIT_HELP('destroy')),
    (opts: ApplyFlags) => destroyCommand(io, opts),
  );
}
