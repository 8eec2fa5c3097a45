/**
 * `ncalc apply`: converge the accounts on the app (or apply a saved plan), through the
 * sequence it shares with destroy (apply-flow.ts).
 */
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import type { Command } from 'commander';
import { MASS_DELETE } from '../plan/plan';
import { PlanFileError, readSavedPlan } from '../read/saved-plan';
import { revivePlan } from '../engine/revive-plan';
import type { ClientFactory } from '../plan/types';
import type { CliIO } from './io';
import { applyPlans, freshPlan, type ApplyFlags, type ApplySource } from './apply-flow';
import {
  APPLY_EXIT_HELP,
  SAVED_PLAN_HELP,
  SHARD_HELP,
  TERRAFORM_STATE_HELP,
  appOptions,
  detailOption,
  lookupOptions,
  shardOption,
  terraformStateOption,
  withOptions,
  writeOptions,
  terraformConfigOption,
} from './options';
import { defineAction } from './contract';
import { UsageError } from './usage';

/**
 * Flags that choose what to plan. A saved plan has fixed all of that, so they are refused
 * with one (the others still apply: how to write, what the guards allow, what to print).
 */
const PLAN_CHOOSING_FLAGS = [
  '--chdir',
  '--app',
  '--out',
  '--no-synth',
  '--synth-timeout',
  '--synth-workers',
  '--stack',
  '--base-url',
  '--shard',
] as const;

async function savedPlan(
  io: CliIO,
  opts: ApplyFlags,
  file: string,
  given: readonly string[],
  factory: ClientFactory,
): Promise<ApplySource> {
  const fixed = PLAN_CHOOSING_FLAGS.filter((f) => given.includes(f));
  if (fixed.length) {
    throw new UsageError([
      `${fixed.join(', ')} cannot be used with a saved plan: ${file} already fixes the app, its stacks and accounts; drop ${fixed.length === 1 ? 'it' : 'them'}, or plan again with ${fixed.length === 1 ? 'it' : 'them'} (ncalc plan --save)`,
    ]);
  }
  let text: string;
  try {
    text = readFileSync(path.resolve(io.cwd, file), 'utf8');
  } catch (e) {
    throw new PlanFileError([
      `cannot read the saved plan ${file}: ${(e as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (e as Error).message}; save one with ncalc plan --save ${file}`,
    ]);
  }
  const saved = readSavedPlan(text, file);
  const revived = await revivePlan(saved, io.env, factory);
  const triggers = saved.report_triggers && opts.triggers !== false;
  // --no-triggers: the same plan without its report triggers.
  const plans = triggers ? revived : revived.map((p) => ({ ...p, triggers: [] }));
  const shard = saved.shard ? ` (shard ${saved.shard.index}/${saved.shard.count})` : '';
  const heading = `Applying the plan saved in ${file} at ${saved.created_at}${shard}; every account still holds the alerts it saw.\n\n`;
  return { plans, heading, json: { plan_file: file }, triggers, saved: true };
}

/**
 * `ncalc apply`: plan (or read a saved plan and check it is current), then `applyPlans`.
 * `given`: the long names of the flags given on the command line.
 */
export function applyCommand(
  io: CliIO,
  opts: ApplyFlags,
  planFile?: string,
  given: readonly string[] = [],
): Promise<number> {
  return applyPlans(io, opts, 'apply', (factory) =>
    planFile !== undefined ? savedPlan(io, opts, planFile, given, factory) : freshPlan(io, opts, 'apply', factory),
  );
}

const DELETE_GUARD_HELP = `
Delete guards: apply shows the plan, then refuses (exit 1, nothing changed) when a scope that
declares no alerts would delete live ones (--allow-empty), or when one run would delete more than
${MASS_DELETE.share * 100} % and more than ${MASS_DELETE.moreThan} of a scope's live alerts (--allow-mass-delete). destroy is not guarded:
deleting is what it is asked for.
`;

/** Long names of the options given on the command line (not defaults). */
const givenFlags = (cmd: Command) =>
  cmd.options.filter((o) => cmd.getOptionValueSource(o.attributeName()) === 'cli').map((o) => o.long ?? '');

export function register(program: Command, io: CliIO): void {
  const apply = withOptions(
    program.command('apply'),
    appOptions,
    shardOption,
    detailOption,
    lookupOptions,
    writeOptions,
  )
    .argument(
      '[plan-file]',
      'a plan saved by ncalc plan --save: apply exactly it (refused when an account changed since)',
    )
    .description('Create, update and delete alerts to match the app, then run its report triggers.')
    .option('--no-triggers', 'do not run report triggers')
    .option('--allow-empty', 'let a scope that declares no alerts delete every live alert it owns (refused otherwise)')
    .option(
      '--allow-mass-delete',
      `let one apply delete more than ${MASS_DELETE.share * 100} % (and more than ${MASS_DELETE.moreThan}) of a scope's live alerts (refused otherwise)`,
    );
  defineAction(
    terraformConfigOption(terraformStateOption(apply))
      .option('--json', 'machine-readable result (needs --auto-approve, except with a saved plan)')
      .addHelpText(
        'after',
        DELETE_GUARD_HELP + TERRAFORM_STATE_HELP + SAVED_PLAN_HELP + SHARD_HELP + APPLY_EXIT_HELP('apply'),
      ),
    (planFile: string | undefined, opts: ApplyFlags, cmd: Command) => applyCommand(io, opts, planFile, givenFlags(cmd)),
  );
}
