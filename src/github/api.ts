/**
 * The few GitHub REST calls ncalc makes, through `@octokit/rest` with its throttling plugin
 * (one write at a time, a second apart, 3 s before each that notifies: an issue or comment; secondary rate limits waited out by `retry-after`,
 * primary ones by `x-ratelimit-reset`) and its retry plugin (server errors and network
 * failures, three times). `timeScale` shrinks every wait (tests and the benchmark run a scaled
 * clock); it is 1 in use.
 */
import { Octokit } from '@octokit/rest';
import { throttling } from '@octokit/plugin-throttling';
import { retry } from '@octokit/plugin-retry';
import Bottleneck from 'bottleneck';
import { PACKAGE_VERSION } from '../version';
import type { GitHubContext } from './context';

export interface Issue {
  number: number;
  title: string;
  body: string;
}
export interface Comment {
  id: number;
  body: string;
}

/** What the posting needs of GitHub; a dry run swaps the writes for printing them. */
export interface GitHubApi {
  openIssues(label: string): Promise<Issue[]>;
  createIssue(title: string, body: string, label: string): Promise<Issue>;
  updateIssue(number: number, title: string, body: string): Promise<void>;
  /** Comments `comment` on the issue, then closes it. */
  closeIssue(number: number, comment: string): Promise<void>;
  ensureLabel(label: string, description: string): Promise<void>;
  comments(issue: number): Promise<Comment[]>;
  createComment(issue: number, body: string): Promise<void>;
  updateComment(id: number, body: string): Promise<void>;
}

export interface ApiOptions {
  /** Multiplies every wait of the plugins (1 in use). */
  timeScale?: number;
  /** Retries of one request after a rate limit (secondary or primary). */
  rateLimitRetries?: number;
  /** Told of every wait for a rate limit, in seconds (unscaled). */
  onWait?: (seconds: number, kind: 'secondary' | 'primary') => void;
}

const ThrottledOctokit = Octokit.plugin(throttling, retry);

export function octokitApi(ctx: GitHubContext, options: ApiOptions = {}): GitHubApi {
  const scale = options.timeScale ?? 1;
  const retries = options.rateLimitRetries ?? 10;
  const wait = (kind: 'secondary' | 'primary') => (seconds: number, _o: unknown, _k: unknown, count: number) => {
    if (count >= retries) return false;
    options.onWait?.(seconds, kind);
    return true;
  };
  const octokit = new ThrottledOctokit({
    auth: ctx.token,
    baseUrl: ctx.apiUrl,
    userAgent: `ncalc/${PACKAGE_VERSION}`,
    // Octokit logs every retry and deprecation to the console; ncalc reports what matters itself.
    log: { debug: () => {}, info: () => {}, warn: () => {}, error: () => {} },
    throttle: {
      onSecondaryRateLimit: wait('secondary'),
      onRateLimit: wait('primary'),
      retryAfterBaseValue: 1000 * scale,
      write: new Bottleneck.Group({ maxConcurrent: 1, minTime: 1000 * scale }),
      // Creating an issue or a comment notifies people: GitHub asks for 3 s between those.
      notifications: new Bottleneck.Group({ maxConcurrent: 1, minTime: 3000 * scale }),
    },
    retry: { retryAfterBaseValue: 1000 * scale },
  });
  const repo = { owner: ctx.owner, repo: ctx.repo };
  return stepsNamed({
    async openIssues(label) {
      const all = await octokit.paginate(octokit.rest.issues.listForRepo, {
        ...repo,
        state: 'open',
        labels: label,
        per_page: 100,
      });
      // The list holds pull requests too; they are never ours.
      return all.filter((i) => !i.pull_request).map((i) => ({ number: i.number, title: i.title, body: i.body ?? '' }));
    },
    async createIssue(title, body, label) {
      const { data } = await octokit.rest.issues.create({ ...repo, title, body, labels: [label] });
      return { number: data.number, title: data.title, body: data.body ?? '' };
    },
    async updateIssue(number, title, body) {
      await octokit.rest.issues.update({ ...repo, issue_number: number, title, body });
    },
    async closeIssue(number, comment) {
      await octokit.rest.issues.createComment({ ...repo, issue_number: number, body: comment });
      await octokit.rest.issues.update({ ...repo, issue_number: number, state: 'closed', state_reason: 'completed' });
    },
    async ensureLabel(label, description) {
      try {
        await octokit.rest.issues.getLabel({ ...repo, name: label });
      } catch (e) {
        if ((e as { status?: number }).status !== 404) throw e;
        await octokit.rest.issues.createLabel({ ...repo, name: label, color: 'd93f0b', description });
      }
    },
    async comments(issue) {
      const all = await octokit.paginate(octokit.rest.issues.listComments, {
        ...repo,
        issue_number: issue,
        per_page: 100,
      });
      return all.map((c) => ({ id: c.id, body: c.body ?? '' }));
    },
    async createComment(issue, body) {
      await octokit.rest.issues.createComment({ ...repo, issue_number: issue, body });
    },
    async updateComment(id, body) {
      await octokit.rest.issues.updateComment({ ...repo, comment_id: id, body });
    },
  });
}

/** A request that failed, with what it was for ("listing the open issues"). */
export class GitHubStepError extends Error {
  constructor(
    readonly what: string,
    override readonly cause: unknown,
  ) {
    super(`${what}: ${(cause as Error).message}`);
    this.name = 'GitHubStepError';
  }
}

const STEPS: Record<keyof GitHubApi, string> = {
  openIssues: 'listing the open issues',
  createIssue: 'opening an issue',
  updateIssue: 'editing an issue',
  closeIssue: 'closing an issue',
  ensureLabel: 'making sure the label exists',
  comments: "listing the pull request's comments",
  createComment: 'commenting on the pull request',
  updateComment: 'editing the pull request comment',
};

/** Every failure of `api` as a GitHubStepError naming its step. */
function stepsNamed(api: GitHubApi): GitHubApi {
  const named = {} as Record<string, unknown>;
  for (const key of Object.keys(STEPS) as (keyof GitHubApi)[]) {
    named[key] = async (...args: unknown[]) => {
      try {
        return await (api[key] as (...a: unknown[]) => Promise<unknown>).apply(api, args);
      } catch (e) {
        throw new GitHubStepError(STEPS[key], e);
      }
    };
  }
  return named as unknown as GitHubApi;
}

/**
 * `--dry-run`: reads what GitHub holds (with a token; without one, as if it held nothing) and
 * prints each write instead of making it.
 */
export function dryRunApi(reads: GitHubApi | null, print: (text: string) => void): GitHubApi {
  const show = (what: string, body?: string) =>
    print(`would ${what}${body === undefined ? '' : ` (${body.length} characters):\n${body.replace(/\n?$/, '\n')}`}\n`);
  let next = 1;
  return {
    openIssues: async (label) => (reads ? reads.openIssues(label) : []),
    comments: async (issue) => (reads ? reads.comments(issue) : []),
    ensureLabel: async (label) => show(`make sure the label ${label} exists`),
    createIssue: async (title, body) => {
      show(`open an issue "${title}"`, body);
      return { number: -next++, title, body };
    },
    updateIssue: async (number, title, body) => show(`edit issue #${number} "${title}"`, body),
    closeIssue: async (number, comment) => show(`close issue #${number} with the comment`, comment),
    createComment: async (issue, body) => show(`comment on pull request #${issue}`, body),
    updateComment: async (id, body) => show(`edit comment ${id}`, body),
  };
}
