/** `ncalc plan`: what apply would change, optionally evaluated now (--preview) and saved (--save). */
import { writeFileAtomicSync } from '../support/atomic-write';
import * as path from 'node:path';
import { planText } from '../render/text';
import { textDetail } from '../render/grouping';
import { jsonDocument } from '../render/json';
import { savedPlanText } from '../read/saved-plan';
import { certificateLifetimes, lookupsFromFlags, previewPlans } from '../preview';
import { previewJson, previewText } from '../render/preview';
import { fileErrorText, outputFileProblem } from './files';
import type { CliIO } from './io';
import {
  EXIT,
  anyFailed,
  certificateLookups,
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
import { UsageError } from './usage';

export interface PlanFlags extends CommonOptions {
  json?: boolean;
  /** Also evaluate the alerts now (`ncalc preview`); `changesOnly`: only those the plan changes. */
  preview?: boolean;
  changesOnly?: boolean;
  detailedExitcode?: boolean;
  /** Write the plan to this file for `ncalc apply <file>`. */
  save?: string;
}

export async function planCommand(io: CliIO, opts: PlanFlags): Promise<number> {
  const json = !!opts.json;
  let loaded: Loaded;
  const lookups = opts.preview ? lookupsFromFlags(opts, io.env) : null;
  try {
    // A plan that cannot be saved is found out before the app runs or any account is called.
    const saveProblem =
      opts.save !== undefined && outputFileProblem(path.resolve(io.cwd, opts.save), opts.save, '--save', 'plan.json');
    if (saveProblem) throw new UsageError([saveProblem]);
    if (lookups && 'problems' in lookups) throw new UsageError(lookups.problems);
    if (!opts.preview && opts.changesOnly)
      throw new UsageError(['--changes-only chooses what --preview evaluates; give --preview with it']);
    loaded = await load(io, opts, json);
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
      certificateLifetime:
        lookups && !('problems' in lookups) ? certificateLifetimes(() => lookups) : certificateLookups(io, opts),
    },
    json,
  );
  const preview =
    lookups && !('problems' in lookups) ? await previewPlans(plans, lookups, { changesOnly: opts.changesOnly }) : null;
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
