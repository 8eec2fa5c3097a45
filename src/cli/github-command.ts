/**
 * `ncalc github <report-dir>...`: posts what `ncalc drift --report-dir` found to GitHub from a
 * GitHub Actions job: one comment per shard on a pull request, one issue per account on
 * schedule, push and workflow_dispatch, and a line in the job summary. Exit 0 when GitHub holds
 * the result, 1 when it could not be posted (the drift result is printed either way; drift's
 * own exit code is its step's).
 */
import { appendFileSync } from 'node:fs';
import * as path from 'node:path';
import type { Command } from 'commander';
import type { ApiOptions, GitHubApi } from '../github/api';
import { githubContext, GitHubSetupError, type GitHubContext } from '../github/context';
import { githubFailure } from '../github/errors';
import { reportPointer, withinSummary } from '../github/limits';
import { nothingPosted, postComments, postIssues, type Posted } from '../github/post';
import { readReportDir, type ShardReports } from '../github/reports';
import { defineAction } from './contract';
import { ERROR_PREFIX, type CliIO } from './io';
import { EXIT } from './pipeline';

export interface GithubCommandFlags {
  dryRun?: boolean;
}

const GITHUB_HELP = `
Reads the directories ncalc drift --report-dir wrote (one per shard) and the standard
environment of a GitHub Actions job: GITHUB_TOKEN, GITHUB_REPOSITORY, GITHUB_EVENT_NAME,
GITHUB_EVENT_PATH, GITHUB_API_URL (GitHub Enterprise Server too), GITHUB_SERVER_URL and
GITHUB_RUN_ID (the link to the report artifact), GITHUB_STEP_SUMMARY.

  pull_request                   one comment per shard, edited in place; says so once in sync
                                 (permissions: pull-requests: write)
  schedule, push,                one issue per account (label networkcalc-drift): opened on
  workflow_dispatch              drift or an error, edited while it lasts, closed with a
                                 comment once in sync (permissions: issues: write)

Bodies are cut to 65,536 characters and the job summary to 1 MiB, pointing to the report
artifact. Rate limits are waited out; a run cut short is finished by the next one.

Exit codes:
  0  GitHub holds the result (or --dry-run printed it)
  1  nothing or not all of it was posted: no report directory, no GITHUB_TOKEN, a refused or
     failed request (the drift result is printed all the same)`;

export function register(program: Command, io: CliIO): void {
  const command = program
    .command('github')
    .description('Post the result of ncalc drift --report-dir to GitHub: pull request comments, one issue per account.')
    .argument('<report-dir...>', 'directories written by ncalc drift --report-dir (one per shard)')
    .option('--dry-run', 'print what would be posted instead (reads GitHub only when GITHUB_TOKEN is set)')
    .addHelpText('after', GITHUB_HELP);
  defineAction(command, (dirs: string[], opts: GithubCommandFlags) => githubCommand(io, dirs, opts));
}

export async function githubCommand(
  io: CliIO,
  dirs: readonly string[],
  opts: GithubCommandFlags,
  apiOptions: ApiOptions = {},
): Promise<number> {
  const fail = (message: string) => {
    io.stderr.write(`${ERROR_PREFIX}${message}\n`);
    return EXIT.ERROR;
  };
  let shards: ShardReports[];
  try {
    shards = dirs.map((d) => readReportDir(path.resolve(io.cwd, d)));
  } catch (e) {
    if (e instanceof GitHubSetupError) return fail(e.message);
    throw e;
  }
  io.stdout.write(driftResult(shards));
  let ctx: GitHubContext;
  try {
    ctx = githubContext(io.env, !!opts.dryRun);
  } catch (e) {
    if (e instanceof GitHubSetupError) return fail(`${e.message}; nothing was posted`);
    throw e;
  }
  const where = reportPointer(ctx.runUrl);
  // Octokit is loaded by this command only: every other command starts without it.
  const { dryRunApi, GitHubStepError, octokitApi } = await import('../github/api');
  const real = ctx.token ? octokitApi(ctx, apiOptions) : null;
  const api: GitHubApi = opts.dryRun ? dryRunApi(real, (t) => io.stdout.write(t)) : real!;
  const posted = nothingPosted();
  const say = (line: string) => io.stdout.write(`${line}\n`);
  try {
    if (ctx.target.kind === 'comment') await postComments(api, ctx.target.pullRequest, shards, where, posted, say);
    else
      await postIssues(
        api,
        shards.flatMap((s) => s.accounts),
        where,
        posted,
        say,
      );
  } catch (e) {
    if (!(e instanceof GitHubStepError)) throw e;
    const left = posted.left ? `; ${posted.left} account${posted.left === 1 ? '' : 's'} not handled yet` : '';
    return fail(`${githubFailure(e.cause, ctx, e.what)} (${postedText(posted)}${left})`);
  }
  const line = `${opts.dryRun ? 'Dry run, nothing posted' : 'Posted to GitHub'}: ${postedText(posted)}.\n`;
  io.stdout.write(line);
  if (ctx.summaryFile && !opts.dryRun) appendSummary(io, ctx.summaryFile, `\n${line}`, where);
  return EXIT.OK;
}

function appendSummary(io: CliIO, file: string, text: string, where: string): void {
  try {
    appendFileSync(file, withinSummary(file, text, where));
  } catch (e) {
    io.stderr.write(`warning: could not append to $GITHUB_STEP_SUMMARY: ${(e as Error).message}\n`);
  }
}

/** The drift result the reports hold, printed before anything is posted. */
function driftResult(shards: readonly ShardReports[]): string {
  const accounts = shards.flatMap((s) => s.accounts);
  const count = (status: string) => accounts.filter((a) => a.status === status).length;
  const lines = accounts.map((a) => `  ${a.status === 'in_sync' ? 'in sync' : a.status}  ${a.account}`);
  return (
    `Drift: ${accounts.length} account${accounts.length === 1 ? '' : 's'}, ${count('drift')} drifted, ` +
    `${count('error')} not checked, ${count('in_sync')} in sync\n${lines.join('\n')}\n`
  );
}

function postedText(p: Posted): string {
  return [
    `${p.created} issue${p.created === 1 ? '' : 's'} opened`,
    `${p.updated} edited`,
    `${p.closed} closed`,
    `${p.unchanged} unchanged`,
    `${p.comments} pull request comment${p.comments === 1 ? '' : 's'} written`,
  ].join(', ');
}
