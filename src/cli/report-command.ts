/**
 * `ncalc report --html <file>`: the fleet at a glance, one self-contained HTML page for every
 * account (status, drift, what fires now, certificates expiring, coverage gaps), from one run
 * with the plan's requests (one alerts list, and one domains list where names or policies need
 * it, per account) and the preview's lookups (none with --no-preview). `--json` prints the
 * same document.
 */
import type { Command } from 'commander';
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { writeFileAtomicSync } from '../support/atomic-write';
import { ConfigError } from '../contract/config-error';
import { sentence } from '../model/problems';
import { certificateLifetimes, previewPlans } from '../preview';
import { reportDocument } from '../render/html/report-data';
import { reportHtml } from '../render/html/page';
import { mergeReports, type ShardDocument } from '../render/html/report-merge';
import { JsonItems } from '../render/json';
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
  writePlanJson,
  type CommonOptions,
  type Loaded,
} from './pipeline';
import { appOptions, lookupOptions, shardOption, withOptions, terraformConfigOption } from './options';
import { defineAction } from './contract';
import { UsageError } from './usage';
import { lookupsFromFlags } from './lookup-flags';

export interface ReportFlags extends CommonOptions {
  html?: string;
  json?: boolean;
  /** false with --no-preview: nothing is looked up. */
  preview: boolean;
  /** The --json documents of every shard of a run, joined into one page. */
  merge?: string[];
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
    withOptions(program.command('report'), appOptions, shardOption, lookupOptions, terraformConfigOption)
      .description(
        'Write one self-contained HTML page for every account: status, drift, what fires now, certificates expiring, coverage gaps.',
      )
      .option('--html <file>', 'write the page to this file (its directory must exist)')
      .option('--json', 'print the report document on stdout (format in docs/cli.md)')
      .option(
        '--no-preview',
        'do not evaluate the alerts now: no DNS or TLS lookup (no verdicts, no certificate timeline)',
      )
      .option(
        '--merge <files...>',
        'join the --json documents of every shard of one run into one page (no app run, no API call)',
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
    if (opts.merge) return await writeReport(io, opts, mergedDocument(io, opts));
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
  const doc = reportDocument(plans, preview, {
    now: preview?.at ?? new Date(),
    extra: { ...shardJson(loaded), source: sourceOf(loaded) },
  });
  const code = await writeReport(io, opts, doc);
  return anyFailed(plans) ? EXIT.ERROR : code;
}

/**
 * Which app and commit a document is of, so that `--merge` joins only the shards of one run:
 * a digest of the names of every stack the run read, and the commit checked out in the app's
 * directory (null outside a git work tree, or without git).
 */
function sourceOf(loaded: Loaded): { app: string; commit: string | null } {
  const app = createHash('sha256')
    .update(JSON.stringify([...loaded.stackNames].sort()))
    .digest('hex')
    .slice(0, 16);
  const git = spawnSync('git', ['rev-parse', '--verify', 'HEAD'], {
    cwd: loaded.dir,
    encoding: 'utf8',
    timeout: 10_000,
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  const commit = git.status === 0 ? git.stdout.trim() : '';
  return { app, commit: /^[0-9a-f]{40,64}$/.test(commit) ? commit : null };
}

/** The documents of `--merge` joined; a ConfigError (one sentence) when they cannot be. */
function mergedDocument(io: CliIO, opts: ReportFlags): Record<string, unknown> {
  if (opts.shard !== undefined)
    throw new UsageError(['--merge joins the documents the shards printed; give it without --shard']);
  const given: ShardDocument[] = opts.merge!.map((file) => {
    let text: string;
    try {
      text = readFileSync(path.resolve(io.cwd, file), 'utf8');
    } catch (e) {
      throw new ConfigError({ problems: [sentence(`--merge ${file}: ${fileErrorText(file, e)}`)] });
    }
    try {
      return { file, doc: JSON.parse(text) as unknown };
    } catch {
      return { file, doc: null };
    }
  });
  const merged = mergeReports(given);
  if ('problem' in merged)
    throw new ConfigError({
      problems: [sentence(merged.problem)],
      summary: 'the shards cannot be joined; nothing was written.',
    });
  return merged.doc;
}

/** The document printed (--json) and the page written (--html); exit 1 when the page was not written. */
async function writeReport(io: CliIO, opts: ReportFlags, doc: Record<string, unknown>): Promise<number> {
  const json = !!opts.json;
  // Streamed as plan's document is: one account's text at a time, not the whole report at once.
  const accounts = doc.accounts as unknown[];
  if (json) await writePlanJson(io, { ...doc, accounts: new JsonItems(accounts.length, (i) => accounts[i]) });
  if (opts.html === undefined) return EXIT.OK;
  const page = reportHtml(doc);
  try {
    writeFileAtomicSync(path.resolve(io.cwd, opts.html), page);
  } catch (e) {
    io.stderr.write(`Error: the report was not written: ${fileErrorText(opts.html, e)}.\n`);
    return EXIT.ERROR;
  }
  const t = doc.summary as Record<string, number | null>;
  const kb = Math.ceil(Buffer.byteLength(page) / 1024);
  const firing = t.firing === null ? 'unknown how many alerts are' : `${t.firing} alert${t.firing === 1 ? '' : 's'}`;
  // On stderr with --json, so stdout stays one document.
  (json ? io.stderr : io.stdout).write(
    `Wrote ${opts.html} (${kb.toLocaleString('en-US')} KB): ${t.accounts} account${t.accounts === 1 ? '' : 's'}, ${t.in_sync} in sync, ${t.drift} drifted, ${t.failed} failed; ${firing} firing now; ${t.coverage_gaps} coverage gap${t.coverage_gaps === 1 ? '' : 's'}.\n`,
  );
  return EXIT.OK;
}
