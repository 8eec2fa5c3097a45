/** `ncalc plan`: what apply would change, optionally evaluated now (--preview) and saved (--save). */
import { writeFileAtomicSync } from '../support/atomic-write';
import * as path from 'node:path';
import type { Command } from 'commander';
import { planText } from '../render/text';
import { textDetail } from '../render/grouping';
import { jsonDocument } from '../render/json';
import { savedPlanText } from '../read/saved-plan';
import { certificateLifetimes, previewPlans } from '../preview';
import { previewJson, previewText } from '../render/preview';
import { fileErrorText, outputFileProblem } from './files';
import type { CliIO } from './io';
import {
  EXIT,
  anyFailed,
  clientFactory,
  hasChanges,
  load,
  planAccounts,
  reportError,
  shardJson,
  shardText,
  styleFor,
  writePlanJson,
  type CommonOptions,
  type Loaded,
} from './pipeline';
import {
  SAVED_PLAN_HELP,
  SHARD_HELP,
  TERRAFORM_STATE_HELP,
  appOptions,
  detailOption,
  previewOptions,
  shardOption,
  terraformConfigOption,
} from './options';
import { defineAction } from './contract';
import { UsageError } from './usage';
import { lookupsFromFlags } from './lookup-flags';

export interface PlanFlags extends CommonOptions {
  json?: boolean;
  /** Also evaluate the alerts now (`ncalc preview`); `changesOnly`: only those the plan changes. */
  preview?: boolean;
  changesOnly?: boolean;
  detailedExitcode?: boolean;
  /** Write the plan to this file for `ncalc apply <file>`. */
  save?: string;
}

const PLAN_EXIT_HELP = `
Exit codes:
  0  planned (with --detailed-exitcode: and there are no changes)
  1  error: a usage error, an invalid configuration, an account could not be planned, or --save not written
  2  with --detailed-exitcode: there are changes`;

export function register(program: Command, io: CliIO): void {
  defineAction(
    terraformConfigOption(previewOptions(detailOption(shardOption(appOptions(program.command('plan'))))))
      .description('Show what apply would change: one list call per account, then a diff by alert name.')
      .option('--preview', 'also evaluate every declared alert now (see ncalc preview --help)')
      .option('--json', 'machine-readable output (format in docs/cli.md)')
      .option('--detailed-exitcode', 'exit 2 when there are changes, 0 when none, 1 on error')
      .option('--save <file>', 'also write the plan to this file, for ncalc apply <file> (holds no secret)')
      .addHelpText('after', SAVED_PLAN_HELP + TERRAFORM_STATE_HELP + SHARD_HELP + PLAN_EXIT_HELP),
    (opts: PlanFlags) => planCommand(io, opts),
  );
}

export async function planCommand(io: CliIO, opts: PlanFlags): Promise<number> {
  const json = !!opts.json;
  let loaded: Loaded;
  try {
    // A plan that cannot be saved is found out before the app runs or any account is called.
    const saveProblem =
      opts.save !== undefined && outputFileProblem(path.resolve(io.cwd, opts.save), opts.save, '--save', 'plan.json');
    if (saveProblem) throw new UsageError([saveProblem]);
    // With --preview, its lookup flags are checked before its other flags.
    const lookups = opts.preview ? lookupsFromFlags(opts, io.env) : undefined;
    if (!opts.preview && opts.changesOnly)
      throw new UsageError(['--changes-only chooses what --preview evaluates; give --preview with it']);
    loaded = await load(io, opts, json, { lookups });
  } catch (e) {
    return reportError(io, 'plan', e, json);
  }
  const plans = await planAccounts(
    io,
    loaded,
    clientFactory(io, !!opts.verbose),
    {
      triggers: true,
      // One set of lookups for the policies' certificates and the preview: each host read once.
      certificateLifetime: certificateLifetimes(loaded.lookups),
    },
    json,
  );
  const preview = opts.preview ? await previewPlans(plans, loaded.lookups, { changesOnly: opts.changesOnly }) : null;
  if (json)
    await writePlanJson(io, {
      ...jsonDocument('plan', plans, undefined, shardJson(loaded)),
      ...(preview ? { preview: previewJson(preview) } : {}),
    });
  else
    io.stdout.write(
      shardText(loaded) +
        planText(plans, 'plan', styleFor(io, opts), textDetail(plans, opts.detail)) +
        (preview ? '\n' + previewText(preview, styleFor(io, opts), loaded.accounts.length > 1) : ''),
    );
  if (opts.save !== undefined) {
    const file = path.resolve(io.cwd, opts.save);
    // A plan that missed an account would apply as if that account needed nothing.
    if (anyFailed(plans)) {
      io.stderr.write(
        `Error: the plan was not saved to ${opts.save}: some accounts could not be planned (see above); nothing is saved until every account is.\n`,
      );
      return EXIT.ERROR;
    }
    try {
      // Whole or not at all, and on disk before `ncalc apply <file>` may read it.
      writeFileAtomicSync(file, savedPlanText(plans, { triggers: true, shard: loaded.shard }));
    } catch (e) {
      io.stderr.write(`Error: the plan was not saved: ${fileErrorText(opts.save, e)}.\n`);
      return EXIT.ERROR;
    }
    // On stderr with --json, so stdout stays one document.
    (json ? io.stderr : io.stdout).write(
      `\nSaved the plan to ${opts.save}. To apply exactly this plan: ncalc apply ${opts.save}\n`,
    );
  }
  if (anyFailed(plans)) return EXIT.ERROR;
  return opts.detailedExitcode && hasChanges(plans) ? EXIT.CHANGES : EXIT.OK;
}
