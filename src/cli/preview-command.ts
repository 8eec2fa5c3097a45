/**
 * `ncalc preview` (and `plan --preview`): plan as `plan` does (the same API requests, no
 * more), then evaluate every declared alert now with DNS and TLS lookups from this machine.
 */
import type { Command } from 'commander';
import { FORMAT_VERSION } from '../render/json';
import { planAll } from '../engine/plan-all';
import { planText } from '../render/text';
import { certificateLifetimes, previewPlans, previewTotals } from '../preview';
import { previewJson, previewMarkdown, previewText } from '../render/preview';
import {
  EXIT,
  anyFailed,
  clientFactory,
  reportFormat,
  load,
  reportError,
  shardJson,
  shardText,
  styleFor,
  writePlanJson,
  type FormatFlags,
  type Loaded,
} from './pipeline';
import type { CliIO } from './io';
import {
  appOptions,
  formatGiven,
  formatOptions,
  previewOptions,
  shardOption,
  withOptions,
  terraformConfigOption,
} from './options';
import { defineAction } from './contract';
import { lookupsFromFlags } from './lookup-flags';

export interface PreviewCommandFlags extends FormatFlags {
  changesOnly?: boolean;
  failOnFiring?: boolean;
}

export const PREVIEW_EXIT_HELP = `
Exit codes:
  0  every alert was evaluated or reported (with --fail-on-firing: and none fires now)
  1  error: a usage error, an invalid configuration, or an account could not be planned
  2  with --fail-on-firing: an alert evaluated fires now (use --changes-only to judge only
     what the plan creates or changes); "cannot evaluate" alone does not fail`;

export const PREVIEW_HELP = `
What is evaluated: DNS Record alerts against the records of their target (A, CNAME, MX, TXT);
SPF Record alerts against the target's one v=spf1 record, and validity per RFC 7208 (one
record, syntax, at most 10 DNS-querying terms, at most 2 void lookups, includes and redirects
that resolve); Certificate (TLS) alerts against the certificate served on port 443 with SNI
(subject, days until notAfter), with a warning when an expiry threshold fires before a renewal
at a third of the certificate's lifetime. Host names come from the plan's domains list and
live alerts: no API request is added. Lookups go to the system resolver unless --resolver.
`;

export function register(program: Command, io: CliIO): void {
  defineAction(
    withOptions(
      program.command('preview'),
      appOptions,
      shardOption,
      previewOptions,
      formatOptions,
      terraformConfigOption,
    )
      .description(
        'Evaluate every declared alert now, with DNS and TLS lookups from this machine: fires now, quiet, or cannot evaluate (why).',
      )
      .option('--fail-on-firing', 'exit 2 when an alert evaluated fires now (for CI)')
      .addHelpText('after', PREVIEW_HELP + PREVIEW_EXIT_HELP),
    (opts: PreviewCommandFlags, cmd: Command) => previewCommand(io, opts, formatGiven(cmd)),
  );
}

export async function previewCommand(io: CliIO, opts: PreviewCommandFlags, formatGiven = false): Promise<number> {
  let format: string;
  let loaded: Loaded;
  try {
    format = reportFormat(opts, formatGiven);
    loaded = await load(io, opts, format !== 'text', { lookups: lookupsFromFlags(opts, io.env) });
  } catch (e) {
    return reportError(io, 'preview', e, !!opts.json || opts.format === 'json');
  }
  // The same lookups read the certificates of "before renewal fails" policy checks: each host once.
  const plans = await planAll(loaded, clientFactory(io, !!opts.verbose), {
    triggers: false,
    certificateLifetime: certificateLifetimes(loaded.lookups),
  });
  const report = await previewPlans(plans, loaded.lookups, { changesOnly: opts.changesOnly });
  const style = styleFor(io, opts);
  if (format === 'json') {
    // Streamed as plan's document is: at 100,000 verdicts one account's text at a time.
    await writePlanJson(io, {
      format_version: FORMAT_VERSION,
      command: 'preview',
      ...shardJson(loaded),
      ...previewJson(report),
    });
  } else if (format === 'markdown') {
    io.stdout.write(previewMarkdown(report, plans));
  } else {
    io.stdout.write(
      shardText(loaded) +
        planText(plans, 'plan', style) +
        '\n' +
        previewText(report, style, loaded.accounts.length > 1),
    );
  }
  if (anyFailed(plans)) return EXIT.ERROR;
  return opts.failOnFiring && previewTotals(report).fires > 0 ? EXIT.CHANGES : EXIT.OK;
}
