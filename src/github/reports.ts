/**
 * The input of `ncalc github`: the directories `ncalc drift --report-dir` wrote (one per
 * shard): `index.json`, the whole report (`index.md`) and one report per account.
 */
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { isObject } from '../support/json';
import { GitHubSetupError } from './context';

export type AccountStatus = 'drift' | 'in_sync' | 'error';

export interface AccountReport {
  account: string;
  /** `<!-- ncalc-drift account=… -->`: the account's identity on GitHub (no credential in it). */
  marker: string;
  status: AccountStatus;
  title: string;
  body: string;
}

export interface ShardReports {
  dir: string;
  shard: string | null;
  /** The whole report of the shard (its first line the drift marker). */
  report: string;
  accounts: AccountReport[];
}

const STATUSES = new Set<string>(['drift', 'in_sync', 'error']);
const MARKER = /^<!-- ncalc-drift account=[0-9a-f]+ -->$/;

/** One directory of `ncalc drift --report-dir`, checked whole before anything is posted. */
export function readReportDir(dir: string): ShardReports {
  const bad = (what: string) =>
    new GitHubSetupError(`${dir} ${what}; give the directory ncalc drift --report-dir wrote`);
  const read = (file: string) => {
    try {
      return readFileSync(path.join(dir, file), 'utf8');
    } catch (e) {
      throw bad(`holds no readable ${file} (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
    }
  };
  let index: unknown;
  try {
    index = JSON.parse(read('index.json'));
  } catch (e) {
    if (e instanceof GitHubSetupError) throw e;
    throw bad(`has an index.json that is not JSON (${(e as Error).message})`);
  }
  if (!isObject(index) || !Array.isArray(index.reports) || typeof index.report !== 'string')
    throw bad('has an index.json without "report" and "reports" (written by an older ncalc drift?)');
  const accounts = index.reports.map((r: unknown, i: number): AccountReport => {
    if (
      !isObject(r) ||
      typeof r.account !== 'string' ||
      typeof r.marker !== 'string' ||
      !MARKER.test(r.marker) ||
      typeof r.status !== 'string' ||
      !STATUSES.has(r.status) ||
      typeof r.title !== 'string' ||
      typeof r.file !== 'string' ||
      path.basename(r.file) !== r.file
    )
      throw bad(`has an index.json whose reports[${i}] lacks account, marker, status, title or file`);
    return {
      account: r.account,
      marker: r.marker,
      status: r.status as AccountStatus,
      title: r.title,
      body: read(r.file),
    };
  });
  const shard = typeof index.shard === 'string' ? index.shard : null;
  return { dir, shard, report: read(index.report), accounts };
}
