/**
 * `ncalc report --html <file>`: the fleet at a glance, one self-contained HTML page for every
 * account (status, drift, what fires now, certificates expiring, coverage gaps), from one run
 * with the plan's requests (one alerts list, and one domains list where names or policies need
 * it, per account) and the preview's lookups (none with --no-preview). `--json` prints the
 * same document.
 */
import type { Command } from 'commander';
import * as path from 'node:path';
import { writeFileAtomicSync } from '../support/atomic-write';
import { certificateLifetimes, previewPlans } from '../preview';
import { reportDocument } from '../render/html/report-data';
import { reportHtml } from '../render/html/page';
import { fileErrorText, outputFileProblem } from './files';
import type { CliIO } from './io';
import {
  EXIT,
  anyFailed,
  clientFactory,
  load,
  planAccounts,
  reportError,
  shardJson,
  writeJson,
  type CommonOptions,
  type Loaded,
} from './pipeline';
import { appOptions, lookupOptions, shardOption, withOptions } from './options';
import { defineAction } from './contract';
import { UsageError } from './usage';
import { lookupsFromFlags } from './lookup-flags';

export interface ReportFlags extends CommonOptions {
  html?: string;
  json?: boolean;
  /** false with --no-preview: nothing is looked up. */
  preview: boolean;
}

export const REPORT_HELP = `
The page: a summary band (accounts in sync, drifted and failed; alerts that fire now;
certificates expiring within 14 and 30 days; coverage gaps), the accounts in a table you can
sort, filter and page, a certificate-expiry timeline (each host's expiry, its renewal at a
third of the lifetime left, and each alert's threshold), and per account its planned changes,
drift, preview verdicts with what was observed, and coverage gaps. One file: its style, script
and data are inside it, and it loads nothing from the network when opened. It holds no secret.
`;

export const REPORT_EXIT_HELP = `
Exit codes:
  0  the report was written (whatever it shows: drift, firing alerts and gaps are in it)
  1  error: a usage error, an invalid configuration, the file could not be written, or an
     account could not be planned (the report is still written, showing that account failed)`;

export function register(program: Command, io: CliIO): void {
  defineAction(
    withOptions(program.command('report'), appOptions, shardOption, lookupOptions)
      .description(
        'Write one self-contained HTML page for every account: status, drift, what fires now, certificates expiring, coverage gaps.',
      )
      .option('--html <file>', 'write the page to this file (its directory must exist)')
      .option('--json', 'print the report document on stdout (format in docs/cli.md)')
      .option(
        '--no-preview',
        'do not evaluate the alerts now: no DNS or TLS lookup (no verdicts, no certificate timeline)',
      )
      .addHelpText('after', REPORT_HELP + REPORT_EXIT_HELP),
    (opts: ReportFlags) => reportCommand(io, opts),
  );
}

export async function reportCommand(io: CliIO, opts: ReportFlags): Promise<number> {
  const json = !!opts.json;
  let loaded: Loaded;
  const file = opts.html !== undefined ? path.resolve(io.cwd, opts.html) : null;
  try {
    if (opts.html === undefined && !json)
      throw new UsageError(['ncalc report writes --html <file> or prints --json; give one of them (or both)']);
    // A page that cannot be written is found out before the app runs or any account is called.
    const fileProblem = file && outputFileProblem(file, opts.html!, '--html', 'report.html');
    if (fileProblem) throw new UsageError([fileProblem]);
    // With a preview, its lookup flags are checked before the app runs.
    loaded = await load(io, opts, json, { lookups: opts.preview ? lookupsFromFlags(opts, io.env) : undefined });
  } catch (e) {
    return reportError(io, 'report', e, json);
  }
  const plans = await planAccounts(
    io,
    loaded,
    clientFactory(io, !!opts.verbose),
    {
      triggers: false,
      // One set of lookups for the policies' certificates and the preview: each host read once.
      certificateLifetime: certificateLifetimes(loaded.lookups),
    },
    json,
  );
  const preview = opts.preview ? await previewPlans(plans, loaded.lookups) : null;
  const doc = reportDocument(plans, preview, { now: preview?.at ?? new Date(), extra: shardJson(loaded) });
  if (json) writeJson(io, doc);
  if (file) {
    const page = reportHtml(doc);
    try {
      writeFileAtomicSync(file, page);
    } catch (e) {
      io.stderr.write(`Error: the report was not written: ${fileErrorText(opts.html!, e)}.\n`);
      return EXIT.ERROR;
    }
    const t = doc.summary as Record<string, number>;
    const kb = Math.ceil(Buffer.byteLength(page) / 1024);
    // On stderr with --json, so stdout stays one document.
    (json ? io.stderr : io.stdout).write(
      `Wrote ${opts.html} (${kb.toLocaleString('en-US')} KB): ${t.accounts} account${t.accounts === 1 ? '' : 's'}, ${t.in_sync} in sync, ${t.drift} drifted, ${t.failed} failed; ${t.firing} alert${t.firing === 1 ? '' : 's'} firing now; ${t.coverage_gaps} coverage gap${t.coverage_gaps === 1 ? '' : 's'}.\n`,
    );
  }
  return anyFailed(plans) ? EXIT.ERROR : EXIT.OK;
}
