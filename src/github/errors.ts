/** A failed GitHub request as one sentence that says what to fix. */
import type { GitHubContext } from './context';

interface RequestFailure {
  status?: number;
  message?: string;
  request?: { method?: string; url?: string };
  response?: { data?: unknown };
}

/** `what`: the step that failed ("listing the open issues", …). */
export function githubFailure(e: unknown, ctx: GitHubContext, what: string): string {
  const f = (e ?? {}) as RequestFailure;
  const repo = `${ctx.owner}/${ctx.repo}`;
  const said = messageOf(f);
  switch (f.status) {
    case 401:
      return `GitHub at ${ctx.apiUrl} refused the token while ${what} (401 ${said}): give the step GITHUB_TOKEN: \${{ github.token }}`;
    case 403:
      return `GitHub refused ${what} in ${repo} (403 ${said}): the token lacks the permission; give the job \`permissions: ${ctx.target.kind === 'issues' ? 'issues: write' : 'pull-requests: write'}\``;
    case 404:
      return `GitHub at ${ctx.apiUrl} has no repository ${repo}, or the token cannot see it (404 while ${what}): check $GITHUB_REPOSITORY and $GITHUB_API_URL`;
    case 422:
      return `GitHub did not accept ${what} in ${repo} (422 ${said})`;
    default:
      if (f.status !== undefined && f.status >= 500 && f.status !== 500)
        return `GitHub at ${ctx.apiUrl} failed while ${what} (${f.status} ${said}), also when asked again; the next run carries on`;
      // @octokit/request reports a failed fetch (no answer at all) as status 500.
      return `GitHub at ${ctx.apiUrl} could not be reached while ${what} (${causeOf(e)}), also when asked again; the next run carries on`;
  }
}

function messageOf(f: RequestFailure): string {
  const data = f.response?.data as { message?: unknown } | undefined;
  return typeof data?.message === 'string' ? data.message : (f.message ?? 'no message');
}

function causeOf(e: unknown): string {
  let cause: unknown = e;
  for (let i = 0; i < 5 && cause instanceof Error; i++) {
    // Octokit's own errors carry a status (500 for no answer) and the fetch failure as their cause.
    const code = 'status' in cause ? undefined : (cause as NodeJS.ErrnoException).code;
    if (code) return code;
    if (!cause.cause) return cause.message;
    cause = cause.cause;
  }
  return String(cause);
}
