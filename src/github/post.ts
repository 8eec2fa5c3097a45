/**
 * Keeps GitHub in step with a drift run, as often as it runs and however runs overlap:
 * - a pull request gets one comment per shard, found by its marker and edited in place; once
 *   the branch is in sync again the comment says so (none is opened for a branch in sync);
 * - every account gets one issue, found by its marker (a hash of the account's base URL and
 *   stack, no credential) among the open issues with the label: opened on drift or an error,
 *   edited while it lasts (only when its text changed), closed with a comment once in sync.
 *   Each run reconciles from what GitHub holds, so a run cut short is finished by the next;
 *   and after its creates a run lists again and closes all but the oldest issue of an account,
 *   so two overlapping runs leave one.
 */
import type { GitHubApi, Issue } from './api';
import { withinBody } from './limits';
import type { AccountReport, ShardReports } from './reports';

export const DRIFT_LABEL = 'networkcalc-drift';
const LABEL_DESCRIPTION = 'NetworkCalc alerts differ from the code';
export const IN_SYNC_COMMENT = 'In sync again: the live alerts match the code. Closed by `ncalc github`.';

/** What a run did, counted as it goes (also when it stops half-way). */
export interface Posted {
  created: number;
  updated: number;
  closed: number;
  unchanged: number;
  comments: number;
  /** The accounts not handled yet when a request failed. */
  left: number;
}

export const nothingPosted = (): Posted => ({ created: 0, updated: 0, closed: 0, unchanged: 0, comments: 0, left: 0 });

/** The marker of the pull request comment of one shard (or of the whole run). */
export const commentMarker = (shard: string | null) => `<!-- ncalc-drift comment${shard ? ` shard=${shard}` : ''} -->`;

/** The pull request's comment of each shard: created on drift, edited while it is there. */
export async function postComments(
  api: GitHubApi,
  pullRequest: number,
  shards: readonly ShardReports[],
  where: string,
  posted: Posted,
  say: (line: string) => void,
): Promise<void> {
  const existing = await api.comments(pullRequest);
  for (const s of shards) {
    const marker = commentMarker(s.shard);
    // The report's own first line is the run's drift marker; the comment's is the shard's.
    const body = withinBody([marker, ...s.report.split('\n').slice(1)].join('\n'), where);
    const inSync = s.accounts.every((a) => a.status === 'in_sync');
    const found = existing.find((c) => c.body.startsWith(marker + '\n'));
    const name = s.shard ? `shard ${s.shard}` : 'the run';
    if (found && found.body === body) {
      say(`comment of ${name}: unchanged`);
    } else if (found) {
      await api.updateComment(found.id, body);
      posted.comments++;
      say(`comment of ${name}: updated${inSync ? ' (in sync again)' : ''}`);
    } else if (!inSync) {
      await api.createComment(pullRequest, body);
      posted.comments++;
      say(`comment of ${name}: created`);
    } else {
      say(`comment of ${name}: in sync, none posted`);
    }
  }
}

/** One issue per account (see the top of this file). */
export async function postIssues(
  api: GitHubApi,
  accounts: readonly AccountReport[],
  where: string,
  posted: Posted,
  say: (line: string) => void,
): Promise<void> {
  posted.left = accounts.length;
  await api.ensureLabel(DRIFT_LABEL, LABEL_DESCRIPTION);
  const open = byMarker(await api.openIssues(DRIFT_LABEL));
  let createdAny = false;
  for (const a of accounts) {
    const issues = open.get(a.marker) ?? [];
    const body = withinBody(a.body, where);
    if (a.status === 'in_sync') {
      for (const i of issues) {
        await api.closeIssue(i.number, IN_SYNC_COMMENT);
        posted.closed++;
        say(`${a.account}: in sync, issue #${i.number} closed`);
      }
    } else if (issues[0]) {
      const [first, ...more] = issues;
      if (first.title === a.title && first.body === body) posted.unchanged++;
      else {
        await api.updateIssue(first.number, a.title, body);
        posted.updated++;
        say(`${a.account}: ${a.status}, issue #${first.number} updated`);
      }
      await closeDuplicates(api, a, first, more, posted, say);
    } else {
      const made = await api.createIssue(a.title, body, DRIFT_LABEL);
      createdAny = true;
      posted.created++;
      say(`${a.account}: ${a.status}, issue #${made.number} opened`);
    }
    posted.left--;
  }
  if (createdAny) await recheck(api, accounts, posted, say);
}

/** After creating: another run may have created the same account's issue meanwhile. */
async function recheck(
  api: GitHubApi,
  accounts: readonly AccountReport[],
  posted: Posted,
  say: (line: string) => void,
): Promise<void> {
  const open = byMarker(await api.openIssues(DRIFT_LABEL));
  for (const a of accounts) {
    const [first, ...more] = open.get(a.marker) ?? [];
    if (first && a.status !== 'in_sync') await closeDuplicates(api, a, first, more, posted, say);
  }
}

async function closeDuplicates(
  api: GitHubApi,
  a: AccountReport,
  kept: Issue,
  more: readonly Issue[],
  posted: Posted,
  say: (line: string) => void,
): Promise<void> {
  for (const d of more) {
    await api.closeIssue(
      d.number,
      `Duplicate of #${kept.number} (two runs overlapped): that issue follows this account.`,
    );
    posted.closed++;
    say(`${a.account}: issue #${d.number} closed as a duplicate of #${kept.number}`);
  }
}

/** Open issues by the marker on their first line, oldest first. */
function byMarker(issues: readonly Issue[]): Map<string, Issue[]> {
  const out = new Map<string, Issue[]>();
  for (const i of [...issues].sort((x, y) => x.number - y.number)) {
    const marker = i.body.split('\n', 1)[0]!.trim();
    if (!marker.startsWith('<!-- ncalc-drift account=')) continue;
    out.set(marker, [...(out.get(marker) ?? []), i]);
  }
  return out;
}
