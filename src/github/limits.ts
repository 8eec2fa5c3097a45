/**
 * GitHub's size limits on what ncalc posts: a comment or issue body (65,536 characters) and a
 * step's job summary (1 MiB). What does not fit is cut at a line, with a pointer to where the
 * whole report is (the run's report artifact, or the job's log).
 */
import { statSync } from 'node:fs';
import { GITHUB_BODY_LIMIT, GITHUB_SUMMARY_LIMIT, withinLimit } from '../render/markdown-report';

/** Where the whole report is: the run's page (its artifacts) when known, else the job's log. */
export function reportPointer(runUrl: string | null): string {
  return runUrl ? `the report artifact of ${runUrl}` : "the job's log";
}

const cutNotice = (what: string, limit: string, where: string) => (k: number) =>
  `\n_… ${k} more line${k === 1 ? '' : 's'} not shown: ${what} is over GitHub's ${limit} limit; the whole report is in ${where}._\n`;

/** A comment or issue body within GitHub's 65,536 characters. */
export function withinBody(markdown: string, where: string): string {
  return withinLimit(markdown, GITHUB_BODY_LIMIT, cutNotice('the body', '65,536-character', where));
}

/**
 * What to append to the job summary `file` so that it stays within 1 MiB with what it holds
 * already (other steps' summaries): `markdown` whole, or cut with a pointer.
 */
export function withinSummary(file: string, markdown: string, where = reportPointer(null)): string {
  let held = 0;
  try {
    held = statSync(file).size;
  } catch {
    // Not there yet: appending creates it.
  }
  const room = Math.max(0, GITHUB_SUMMARY_LIMIT - held);
  return withinLimit(markdown, room, cutNotice('the job summary', '1 MiB', where), true);
}
