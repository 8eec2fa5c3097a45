/**
 * What ncalc needs to know of the GitHub Actions run it posts from, read only from the standard
 * environment of a job (`GITHUB_API_URL`, `GITHUB_REPOSITORY`, `GITHUB_EVENT_NAME`,
 * `GITHUB_EVENT_PATH`, `GITHUB_TOKEN`, …), so that it works on GitHub Enterprise Server too.
 */
import { readFileSync } from 'node:fs';

/** Where the drift result goes: one comment on the pull request, or one issue per account. */
export type Target = { kind: 'comment'; pullRequest: number } | { kind: 'issues' };

export interface GitHubContext {
  apiUrl: string;
  owner: string;
  repo: string;
  event: string;
  target: Target;
  /** Empty in a dry run without one. */
  token: string;
  /** The run's page (its artifacts hold the whole report), when the environment names it. */
  runUrl: string | null;
  summaryFile: string | null;
}

/** A run that cannot post, said in one sentence that names what to fix. */
export class GitHubSetupError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'GitHubSetupError';
  }
}

/** Events whose result is one comment on their pull request. */
const PULL_REQUEST_EVENTS = new Set(['pull_request', 'pull_request_target']);
/** Events whose result is one issue per account. */
const ISSUE_EVENTS = new Set(['schedule', 'workflow_dispatch', 'push']);

/** The run's context from `env`; `dryRun` lets the token be missing. */
export function githubContext(env: NodeJS.ProcessEnv, dryRun: boolean): GitHubContext {
  const need = (name: string): string => {
    const value = env[name]?.trim();
    if (!value)
      throw new GitHubSetupError(
        `$${name} is not set: run ncalc github in a GitHub Actions job, which sets it (or set it yourself, e.g. with --dry-run)`,
      );
    return value;
  };
  const token = env.GITHUB_TOKEN?.trim() ?? '';
  if (!token && !dryRun)
    throw new GitHubSetupError(
      '$GITHUB_TOKEN is not set: give the step `env: GITHUB_TOKEN: ${{ github.token }}` and the job the permission it needs (issues: write, or pull-requests: write on pull requests), or add --dry-run',
    );
  const [owner, repo, ...rest] = need('GITHUB_REPOSITORY').split('/');
  if (!owner || !repo || rest.length)
    throw new GitHubSetupError(`$GITHUB_REPOSITORY is ${env.GITHUB_REPOSITORY}; it must be owner/name`);
  const event = need('GITHUB_EVENT_NAME');
  const apiUrl = (env.GITHUB_API_URL?.trim() || 'https://api.github.com').replace(/\/+$/, '');
  const server = env.GITHUB_SERVER_URL?.trim().replace(/\/+$/, '');
  const runUrl = server && env.GITHUB_RUN_ID ? `${server}/${owner}/${repo}/actions/runs/${env.GITHUB_RUN_ID}` : null;
  return {
    apiUrl,
    owner,
    repo,
    event,
    target: targetOf(event, env),
    token,
    runUrl,
    summaryFile: env.GITHUB_STEP_SUMMARY?.trim() || null,
  };
}

function targetOf(event: string, env: NodeJS.ProcessEnv): Target {
  if (ISSUE_EVENTS.has(event)) return { kind: 'issues' };
  if (!PULL_REQUEST_EVENTS.has(event))
    throw new GitHubSetupError(
      `ncalc github posts for pull_request (a comment) and for schedule, push and workflow_dispatch (one issue per account), not for the event ${event}`,
    );
  const file = env.GITHUB_EVENT_PATH?.trim();
  if (!file) throw new GitHubSetupError('$GITHUB_EVENT_PATH is not set: it names the pull request to comment on');
  let payload: unknown;
  try {
    payload = JSON.parse(readFileSync(file, 'utf8'));
  } catch (e) {
    throw new GitHubSetupError(`$GITHUB_EVENT_PATH ${file} cannot be read as JSON (${(e as Error).message})`);
  }
  const number = (payload as { pull_request?: { number?: unknown } } | null)?.pull_request?.number;
  if (typeof number !== 'number' || !Number.isInteger(number) || number < 1)
    throw new GitHubSetupError(`$GITHUB_EVENT_PATH ${file} holds no pull_request.number for the ${event} event`);
  return { kind: 'comment', pullRequest: number };
}
