/**
 * `ncalc coverage`: the targets × checks table of the app's alert policies, planned like
 * `drift` (one alerts list and one domains list per account, no write).
 */
import { appendFileSync } from 'node:fs';
import type { Command } from 'commander';
import { ConfigError } from '../contract/config-error';
import { sentence } from '../model/problems';
import { FORMAT_VERSION } from '../render/json';
import { accountHeading } from '../render/text';
import { planAll } from '../engine/plan-all';
import { certificateLifetimes } from '../preview';
import {
  coverageErrorMarkdown,
  coverageJson,
  coverageMarkdown,
  coverageSummaryJson,
  coverageText,
  fullyCovered,
} from '../render/coverage';
import {
  EXIT,
  clientFactory,
  reportFormat,
  load,
  reportError,
  styleFor,
  type FormatFlags,
  type Loaded,
} from './pipeline';
import type { CliIO } from './io';
import {
  SHARD_HELP,
  appOptions,
  formatGiven,
  formatOptions,
  lookupOptions,
  shardOption,
  withOptions,
  terraformConfigOption,
} from './options';
import { defineAction } from './contract';
import { UsageError } from './usage';

export type CoverageFlags = FormatFlags;

const COVERAGE_EXIT_HELP = `
Exit codes:
  0  every selected target is covered by a live alert for every check
  1  error: a usage error, an invalid configuration, no alert policy, or an account could not be reached
  2  some target is not covered (a gap, or an alert apply has yet to make)`;

export function register(program: Command, io: CliIO): void {
  defineAction(
    withOptions(
      program.command('coverage'),
      appOptions,
      shardOption,
      lookupOptions,
      formatOptions,
      terraformConfigOption,
    )
      .description(
        "Show which domains and subdomains the app's alert policies cover: a targets × checks table. Exit 0 covered, 2 not, 1 error.",
      )
      .addHelpText(
        'after',
        '\nWith $GITHUB_STEP_SUMMARY set, the markdown table is appended to that file as well.\n' +
          SHARD_HELP +
          COVERAGE_EXIT_HELP,
      ),
    (opts: CoverageFlags, cmd: Command) => coverageCommand(io, opts, formatGiven(cmd)),
  );
}

export async function coverageCommand(io: CliIO, opts: CoverageFlags, formatGiven = false): Promise<number> {
  let format: string;
  try {
    format = reportFormat(opts, formatGiven);
  } catch (e) {
    return reportError(io, 'coverage', e, !!opts.json);
  }
  // The markdown goes to the job summary whatever the format, errors included.
  const summary = (markdown: string) => {
    if (!io.env.GITHUB_STEP_SUMMARY) return;
    try {
      appendFileSync(io.env.GITHUB_STEP_SUMMARY, markdown + '\n');
    } catch (e) {
      io.stderr.write(`warning: could not append to $GITHUB_STEP_SUMMARY: ${(e as Error).message}\n`);
    }
  };
  let loaded: Loaded;
  try {
    loaded = await load(io, opts, format !== 'text');
    if (!loaded.desired.policies.length) {
      throw new ConfigError({
        problems: [
          sentence(
            'the app declares no alert policy, so there is no coverage to report; add an AlertPolicy (docs/constructs.md), or check the alerts with ncalc drift',
          ),
        ],
        summary: 'nothing to report: the app declares no alert policy; nothing was called.',
      });
    }
  } catch (e) {
    if (!(e instanceof UsageError))
      summary(
        coverageErrorMarkdown(e instanceof ConfigError ? e.problems : [String(e instanceof Error ? e.message : e)]),
      );
    return reportError(io, 'coverage', e, format === 'json');
  }
  // Only the accounts a policy belongs to: the others have nothing to report.
  const withPolicies = new Set(loaded.desired.policies.map((p) => p.scopeKey));
  const accounts = loaded.accounts.filter((a) => a.scopes.some((s) => withPolicies.has(s.key)));
  const plans = await planAll({ ...loaded, accounts }, clientFactory(io, !!opts.verbose), {
    triggers: false,
    certificateLifetime: certificateLifetimes(loaded.lookups),
  });
  const failed = plans.some((p) => p.status === 'error');
  const covered = !failed && fullyCovered(plans);
  if (format === 'json') {
    const doc = {
      format_version: FORMAT_VERSION,
      command: 'coverage',
      covered,
      summary: coverageSummaryJson(plans),
      accounts: plans.map((p) => ({
        label: p.account.label,
        base_url: p.account.baseUrl,
        identity: p.account.identity,
        status: p.status,
        error: p.error,
        policies: coverageJson(p.coverage),
      })),
    };
    io.stdout.write(JSON.stringify(doc, null, 2) + '\n');
  } else if (format === 'text') {
    io.stdout.write(coverageText(plans, styleFor(io, opts), accountHeading));
  }
  const markdown = coverageMarkdown(plans, (p) => p.account.label);
  if (format === 'markdown') io.stdout.write(markdown);
  summary(markdown);
  if (failed) return EXIT.ERROR;
  return covered ? EXIT.OK : EXIT.CHANGES;
}
