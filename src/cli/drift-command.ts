/**
 * `ncalc drift`: plan without triggers, for CI (exit 0 in sync, 2 drift, 1 error), and with
 * `--suggest` the edits to the app that adopt the drift (`--write` makes them).
 */
import { appendFileSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import { writeFileAtomicSync } from '../support/atomic-write';
import * as path from 'node:path';
import type { Command } from 'commander';
import { SOURCE_LOCATIONS_ENV, parseSourceLocations, type SourceLocation } from '../contract/source-locations';
import { FORMAT_VERSION, jsonDocument } from '../render/json';
import { driftErrorMarkdown, driftMarkdown, DRIFT_MARKER, accountMarker } from '../render/markdown-report';
import { withinSummary } from '../github/limits';
import { driftText } from '../render/text';
import { textDetail } from '../render/grouping';
import { outDirOf } from '../read/synth';
import { type AccountPlan } from '../plan/account-plan';
import { coverageTotals } from '../plan/coverage';
import { suggestFromTerraformPlan } from '../codegen/suggest-hcl';
import { suggestJson, suggestMarkdown, suggestText, type SuggestReport } from '../render/suggestions';
import type { SourceSnapshot, Suggestion } from '../codegen/suggestion';
import { suggestTypeScript } from '../codegen/suggest-typescript';
import { suggestUndeclaredTargets } from '../codegen/suggest-targets';
import { combinedPatch, writeSuggestions } from '../codegen/write';
import type { Change } from '../plan/types';
import { certificateLifetimes } from '../preview';
import {
  EXIT,
  anyFailed,
  clientFactory,
  cwdOf,
  reportFormat,
  hasChanges,
  load,
  planAccounts,
  problemsOf,
  reportError,
  shardJson,
  shardText,
  styleFor,
  writeJson,
  writePlanJson,
  type FormatFlags,
  type Loaded,
} from './pipeline';
import type { CliIO } from './io';
import { SOURCES_FILE, readSynthSources } from './synth-sources';
import { scratchDirectory } from './files';
import {
  SHARD_HELP,
  appOptions,
  detailOption,
  formatGiven,
  formatOptions,
  lookupOptions,
  shardOption,
  withOptions,
  terraformConfigOption,
} from './options';
import { defineAction } from './contract';
import { UsageError } from './usage';

export interface DriftCommandFlags extends FormatFlags {
  suggest?: boolean;
  write?: boolean;
  force?: boolean;
  terraformPlan?: string;
  reportDir?: string;
}

const DRIFT_EXIT_HELP = `
Exit codes:
  0  in sync
  1  error (a usage error, an invalid configuration, an account not checked; with --write, an edit not made)
  2  drift: apply would change something, or an alert policy has a coverage gap`;

const DRIFT_SUGGEST_HELP = `
From drift to code (--suggest):
  An alert whose props are literals gets a diff of its declaration; a value from a variable,
  a loop or an alert policy gets one line naming where it comes from and the live value; a
  live alert the app lacks gets a declaration beside its account; one deleted live gets the
  choice (ncalc apply re-creates it, or the diff deletes it). --write applies the diffs
  (then ncalc plan shows no change for those alerts); or pipe --json's suggest.patch to git apply.
`;

export function register(program: Command, io: CliIO): void {
  defineAction(
    withOptions(
      program.command('drift'),
      appOptions,
      shardOption,
      detailOption,
      lookupOptions,
      formatOptions,
      terraformConfigOption,
    )
      .description('Check that the live alerts match the app (for CI). Exit 0 in sync, 2 drift, 1 error.')
      .option('--suggest', "also propose the edits to the app's source that adopt the live settings (diffs)")
      .option(
        '--write',
        'with --suggest: make those edits (refused when a file changed since, is read-only or untracked)',
      )
      .option('--force', 'with --write: also edit files that git does not track')
      .option(
        '--terraform-plan <file>',
        'with --suggest: adopt the drift of plain Terraform instead (terraform show -json of a plan -refresh-only), in the .tf files of -C',
      )
      .option(
        '--report-dir <dir>',
        'also write one markdown report per account there, with index.json (one issue per account)',
      )
      .addHelpText(
        'after',
        '\nWith $GITHUB_STEP_SUMMARY set, the markdown report is appended to that file as well.\n' +
          DRIFT_SUGGEST_HELP +
          SHARD_HELP +
          DRIFT_EXIT_HELP,
      ),
    (opts: DriftCommandFlags, cmd: Command) => driftCommand(io, opts, formatGiven(cmd)),
  );
}

/** The flag combinations that cannot work, before anything runs. */
function checkFlags(opts: DriftCommandFlags): void {
  const problems: string[] = [];
  if (opts.write && !opts.suggest) problems.push('--write writes the suggested edits; give --suggest with it');
  if (opts.force && !opts.write) problems.push('--force only lets --write edit files git does not track; give --write');
  if (opts.terraformPlan && !opts.suggest)
    problems.push(
      '--terraform-plan is read by --suggest; give --suggest with it (terraform plan -refresh-only shows the drift itself)',
    );
  if (problems.length) throw new UsageError(problems);
}

export async function driftCommand(io: CliIO, opts: DriftCommandFlags, formatGiven = false): Promise<number> {
  let format: string;
  try {
    format = reportFormat(opts, formatGiven);
    checkFlags(opts);
  } catch (e) {
    return reportError(io, 'drift', e, !!opts.json);
  }
  // The markdown report goes to stdout (--format markdown) and to the job summary, errors included.
  const report = (markdown: string) => {
    if (format === 'markdown') io.stdout.write(markdown);
    const summaryFile = io.env.GITHUB_STEP_SUMMARY;
    if (!summaryFile) return;
    try {
      appendFileSync(summaryFile, withinSummary(summaryFile, markdown + '\n'));
    } catch (e) {
      io.stderr.write(`warning: could not append to $GITHUB_STEP_SUMMARY: ${(e as Error).message}\n`);
    }
  };

  if (opts.terraformPlan) return terraformDrift(io, opts, format, report);

  let loaded: Loaded;
  let locations: SourceLocation[] = [];
  const synthStartedMs = Date.now();
  // The app writes where each construct was made here (src/contract/source-locations.ts).
  const scratch = opts.suggest && opts.synth ? scratchDirectory('ncalc-locations-') : null;
  try {
    const file = scratch ? path.join(scratch.dir, 'locations.json') : null;
    loaded = await load(io, opts, format !== 'text', { appEnv: file ? { [SOURCE_LOCATIONS_ENV]: file } : {} });
    if (file) locations = readLocations(file);
    if (opts.suggest && !opts.synth) locations = synthLocations(io, loaded.dir, opts);
  } catch (e) {
    if (!(e instanceof UsageError)) report(driftErrorMarkdown(problemsOf(e)));
    return reportError(io, 'drift', e, format === 'json');
  } finally {
    scratch?.remove();
  }
  // With --suggest the plans also list the domains that name the targets of live alerts to adopt.
  const plans = await planAccounts(
    io,
    loaded,
    clientFactory(io, !!opts.verbose),
    { triggers: false, certificateLifetime: certificateLifetimes(loaded.lookups), liveTargetNames: !!opts.suggest },
    format !== 'text',
  );
  let suggest: SuggestReport | null = null;
  if (opts.suggest) {
    try {
      const { dir } = loaded;
      const found = suggestTypeScript({ dir, plans: plans.map(renamesAsPairs), locations, synthStartedMs });
      // Domains and subdomains added in the console: the declaration to adopt each, in one line.
      found.suggestions.push(...suggestUndeclaredTargets(plans, loaded.desired.targets));
      suggest = finish(dir, found, opts);
    } catch (e) {
      return reportError(io, 'drift', e, format === 'json');
    }
  }
  const shard = loaded.shard ? shardText(loaded).trim() : undefined;
  if (format === 'json')
    await writePlanJson(io, {
      ...jsonDocument('drift', plans, undefined, shardJson(loaded)),
      ...(suggest ? { suggest: suggestJson(suggest) } : {}),
    });
  else if (format === 'text')
    io.stdout.write(
      shardText(loaded) +
        driftText(plans, styleFor(io, opts), textDetail(plans, opts.detail)) +
        (suggest ? '\n' + suggestText(suggest, styleFor(io, opts)) : ''),
    );
  report(driftMarkdown(plans, shard, suggest?.suggestions));
  if (opts.reportDir) {
    const problem = writeReportDir(loaded.dir, opts.reportDir, plans, suggest?.suggestions, {
      note: shard,
      shard: opts.shard ? `${opts.shard.index}/${opts.shard.count}` : null,
    });
    if (problem) {
      io.stderr.write(`Error: ${problem}\n`);
      return EXIT.ERROR;
    }
  }
  if (anyFailed(plans) || (suggest && suggest.problems.length && opts.write)) return EXIT.ERROR;
  // Coverage gaps of alert policies are drift too, though apply has nothing to change for them.
  return hasChanges(plans) || coverageTotals(plans.map((p) => p.coverage)).gaps > 0 ? EXIT.CHANGES : EXIT.OK;
}

/**
 * The TypeScript suggester finds a console rename as the pair it is made of: a declared alert
 * missing and an undeclared one with its settings. A plan names it one `renamed` update, so
 * it goes to the suggester as that pair.
 */
function renamesAsPairs(plan: AccountPlan): AccountPlan {
  if (!plan.changes.some((c) => c.reason === 'renamed')) return plan;
  const changes = plan.changes.flatMap((c): Change[] =>
    c.reason !== 'renamed'
      ? [c]
      : [
          { ...c, action: 'create', reason: 'missing', id: null, before: null, fields: [] },
          {
            ...c,
            action: 'delete',
            reason: 'undeclared',
            name: c.before!.name,
            logicalId: null,
            path: null,
            after: null,
            fields: [],
          },
        ],
  );
  return { ...plan, changes };
}

/**
 * --suggest --no-synth: the locations `ncalc synth` recorded in the output, its source files
 * unchanged since (the check a fresh synth makes by time).
 */
function synthLocations(io: CliIO, dir: string, opts: DriftCommandFlags): SourceLocation[] {
  const outdir = outDirOf({ cwd: dir, out: opts.out });
  const locations = readSynthSources(dir, outdir);
  if (!locations)
    throw new UsageError([
      `--suggest needs to know where each alert is declared: ${path.relative(io.cwd, outdir) || outdir} holds no ${SOURCES_FILE}, which ncalc synth writes; run ncalc synth --out ${opts.out ?? path.relative(io.cwd, outdir)}, or leave out --no-synth`,
    ]);
  return locations;
}

function readLocations(file: string): SourceLocation[] {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    // An app built with a copy of this package that records none: every declaration is "not found".
    return [];
  }
  return parseSourceLocations(text) ?? [];
}

/** The patch, and with --write the files written (all or nothing). */
function finish(
  dir: string,
  found: { suggestions: Suggestion[]; snapshots: SourceSnapshot[]; problems: string[] },
  opts: DriftCommandFlags,
): SuggestReport {
  const patch = combinedPatch(dir, found.suggestions, found.snapshots);
  if (!opts.write) return { ...found, patch, written: null };
  if (found.problems.length) return { ...found, patch, written: [] };
  const result = writeSuggestions(dir, found.suggestions, found.snapshots, { force: opts.force });
  return { ...found, patch, problems: result.problems, written: result.written };
}

/** `--terraform-plan`: the drift Terraform found (`terraform show -json` of a refresh-only plan). */
function terraformDrift(
  io: CliIO,
  opts: DriftCommandFlags,
  format: string,
  report: (markdown: string) => void,
): number {
  let dir: string;
  try {
    dir = cwdOf(io, opts);
  } catch (e) {
    return reportError(io, 'drift', e, format === 'json');
  }
  const file = path.resolve(io.cwd, opts.terraformPlan!);
  let plan: unknown;
  let mtimeMs: number;
  try {
    plan = JSON.parse(readFileSync(file, 'utf8'));
    mtimeMs = statSync(file).mtimeMs;
  } catch (e) {
    const why =
      e instanceof SyntaxError
        ? `is not JSON (${e.message})`
        : `cannot be read (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`;
    return reportError(
      io,
      'drift',
      new UsageError([
        `--terraform-plan ${opts.terraformPlan} ${why}; give the output of terraform show -json <plan file> of terraform plan -refresh-only -out=<plan file>`,
      ]),
      format === 'json',
    );
  }
  const found = suggestFromTerraformPlan(plan, dir, { planFileMtimeMs: mtimeMs });
  const suggest = finish(dir, found, opts);
  for (const w of found.warnings ?? []) io.stderr.write(`warning: ${w}\n`);
  if (format === 'json')
    writeJson(io, { format_version: FORMAT_VERSION, command: 'drift', suggest: suggestJson(suggest) });
  else if (format === 'text')
    io.stdout.write(
      suggestText(suggest, styleFor(io, opts)) || 'No drift of networkcalc_alert resources in the plan.\n',
    );
  else
    report(
      [
        DRIFT_MARKER,
        '## NetworkCalc alert drift (Terraform)',
        '',
        ...suggest.problems.map((p) => `- ❌ ${p}`),
        ...(found.warnings ?? []).map((w) => `- ⚠️ ${w}`),
        ...(suggest.suggestions.length
          ? suggestMarkdown(suggest.suggestions, true)
          : ['No drift of `networkcalc_alert` resources in the plan.']),
      ].join('\n') + '\n',
    );
  if (suggest.problems.length) return EXIT.ERROR;
  return suggest.suggestions.length ? EXIT.CHANGES : EXIT.OK;
}

/** The whole report of a `--report-dir` run, beside the reports of its accounts. */
const REPORT_FILE = 'index.md';

/** Longest file name stem of a report; labels longer than this are cut (the hash keeps them apart). */
const REPORT_NAME_MAX = 80;

/**
 * The file of each account's report, named by its label (`acct07.md`, the stack or alias,
 * reduced to letters, digits, `.`, `_` and `-`). Labels that reduce to the same name, also
 * when case is ignored (macOS, Windows), get the account's marker hash appended.
 */
export function reportFileNames(accounts: ReadonlyArray<{ label: string; id: string }>): string[] {
  const stem = (label: string) =>
    label
      .replace(/[^A-Za-z0-9._-]+/g, '-')
      .replace(/^[.-]+|[.-]+$/g, '')
      .slice(0, REPORT_NAME_MAX) || 'account';
  const key = (label: string) => stem(label).toLowerCase();
  // index.md is the whole report (--report-dir): an account named so gets its hash too.
  const count = new Map<string, number>([[key(REPORT_FILE.replace(/\.md$/, '')), 1]]);
  for (const a of accounts) count.set(key(a.label), (count.get(key(a.label)) ?? 0) + 1);
  return accounts.map((a) => `${stem(a.label)}${count.get(key(a.label))! > 1 ? `-${a.id}` : ''}.md`);
}

/**
 * `--report-dir`: one markdown report per account (`<account>.md`, the account's marker on
 * its first line) and `index.json` listing them, for a workflow that keeps one issue or
 * comment per account up to date.
 */
function writeReportDir(
  cwd: string,
  dir: string,
  plans: readonly AccountPlan[],
  suggestions: readonly Suggestion[] | undefined,
  run: { note: string | undefined; shard: string | null },
): string | null {
  const out = path.resolve(cwd, dir);
  try {
    mkdirSync(out, { recursive: true });
    const markers = plans.map((p) => accountMarker(p));
    const files = reportFileNames(
      plans.map((p, i) => ({ label: p.account.label, id: /account=([0-9a-f]+)/.exec(markers[i]!)![1]! })),
    );
    const index = plans.map((p, i) => {
      const marker = markers[i]!;
      const file = files[i]!;
      const drift =
        p.status === 'error'
          ? 'error'
          : p.changes.length || p.targetChanges?.length || (p.coverage && coverageTotals([p.coverage]).gaps)
            ? 'drift'
            : 'in_sync';
      writeFileAtomicSync(path.join(out, file), driftMarkdown([p], undefined, suggestions, marker));
      return {
        account: p.account.label,
        stacks: [...new Set(p.account.scopes.map((sc) => sc.stack))],
        base_url: p.account.baseUrl,
        marker,
        file,
        status: drift,
        title: `NetworkCalc alert drift: ${p.account.label}`,
      };
    });
    // The whole report of the run (its shard), for the one pull request comment per shard.
    writeFileAtomicSync(path.join(out, REPORT_FILE), driftMarkdown(plans, run.note, suggestions));
    const document = { shard: run.shard, report: REPORT_FILE, reports: index };
    writeFileAtomicSync(path.join(out, 'index.json'), JSON.stringify(document, null, 2) + '\n');
    return null;
  } catch (e) {
    return `--report-dir ${dir}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}; nothing more was written there`;
  }
}
