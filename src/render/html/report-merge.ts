/**
 * `ncalc report --merge`: the `--json` documents of every shard of one run joined into the one
 * document of the fleet, which the page is drawn from as from any report. No I/O: the command
 * reads the files and hands them here. Documents of different apps, commits or shard counts,
 * overlapping shards and missing ones are refused, each in one sentence naming the files.
 */
import { certificateFigures } from './report-data';

type Json = Record<string, unknown>;

/** One document and the file it came from, as the user named it. */
export interface ShardDocument {
  file: string;
  doc: unknown;
}

interface Shard {
  file: string;
  doc: Json;
  index: number;
  count: number;
  totalAccounts: number;
  source: { app: string; commit: string | null };
}

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const isWhole = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v) && v >= 0;

/** The shard of one document, or the sentence saying why it is not one. */
function readShard({ file, doc }: ShardDocument): Shard | string {
  if (!isObject(doc) || doc.command !== 'report' || !Array.isArray(doc.accounts) || !isObject(doc.summary))
    return `${file} is not a report document; give the files that ncalc report --json --shard i/n printed`;
  const shard = doc.shard;
  if (!isObject(shard) || !isWhole(shard.index) || !isWhole(shard.count) || !isWhole(shard.total_accounts))
    return `${file} is not the document of a shard (it has no "shard"); make each with ncalc report --json --shard i/n`;
  const source = doc.source;
  if (!isObject(source) || typeof source.app !== 'string')
    return `${file} does not say which app it is of (no "source"); make it again with this version of ncalc report --json --shard i/n`;
  return {
    file,
    doc,
    index: shard.index,
    count: shard.count,
    totalAccounts: shard.total_accounts,
    source: { app: source.app, commit: typeof source.commit === 'string' ? source.commit : null },
  };
}

/** Why the shards are not every shard of one run, once each; null when they are. */
function joinProblem(shards: readonly Shard[]): string | null {
  const [first] = shards;
  if (!first) return 'give the report documents of every shard (ncalc report --merge shard-*.json)';
  const commit = (s: Shard) => s.source.commit ?? 'an unknown commit';
  const withPreview = (s: Shard) => s.doc.preview !== null;
  for (const s of shards.slice(1)) {
    if (s.source.app !== first.source.app || s.totalAccounts !== first.totalAccounts)
      return `${first.file} and ${s.file} are of different apps (their stacks or accounts differ); join the shards of one run of one app`;
    if (s.source.commit !== first.source.commit)
      return `${first.file} is of ${commit(first)} and ${s.file} of ${commit(s)}; join the shards of one run, all of one commit`;
    if (s.count !== first.count)
      return `${first.file} is shard ${first.index} of ${first.count} and ${s.file} shard ${s.index} of ${s.count}; join the shards of one run, all with the same --shard i/n count`;
    if (withPreview(s) !== withPreview(first))
      return `${withPreview(first) ? s.file : first.file} was made with --no-preview and ${withPreview(first) ? first.file : s.file} was not; make every shard alike`;
  }
  const byIndex = new Map<number, Shard>();
  for (const s of shards) {
    const seen = byIndex.get(s.index);
    if (seen) return `${seen.file} and ${s.file} are both shard ${s.index} of ${s.count}; give each shard once`;
    if (s.index < 1 || s.index > s.count) return `${s.file} is shard ${s.index} of ${s.count}, which no run makes`;
    byIndex.set(s.index, s);
  }
  const missing = Array.from({ length: first.count }, (_, i) => i + 1).filter((i) => !byIndex.has(i));
  if (missing.length)
    return `shard${missing.length === 1 ? '' : 's'} ${missing.join(', ')} of ${first.count} ${missing.length === 1 ? 'is' : 'are'} missing; give the documents of every shard, 1 to ${first.count}`;
  const owner = new Map<string, string>();
  for (const s of shards)
    for (const a of s.doc.accounts as Json[]) {
      const key = String(a.key ?? `${String(a.base_url)} ${String(a.label)}`);
      const other = owner.get(key);
      if (other)
        return `account ${String(a.label)} is in both ${other} and ${s.file}: the shards overlap; join the shards of one run`;
      owner.set(key, s.file);
    }
  const total = shards.reduce((n, s) => n + (s.doc.accounts as unknown[]).length, 0);
  if (total !== first.totalAccounts)
    return `the shards hold ${total} accounts but the app has ${first.totalAccounts}; join the shards of one run`;
  return null;
}

const sum = (docs: readonly Json[], pick: (summary: Json) => unknown): number =>
  docs.reduce((n, d) => n + (Number(pick(d.summary as Json)) || 0), 0);

/** Counts by key, added. */
function addCounts(into: Record<string, number>, from: unknown): void {
  if (isObject(from)) for (const [k, n] of Object.entries(from)) into[k] = (into[k] ?? 0) + (Number(n) || 0);
}

/** Each host once: its alerts from every shard (accounts renumbered), the soonest expiry read. */
function joinCertificates(docs: readonly Json[], offsets: readonly number[]): Json[] | null {
  if (docs.every((d) => d.certificates === null)) return null;
  const byHost = new Map<string, Json & { alerts: Json[]; days_left: number }>();
  docs.forEach((d, i) => {
    for (const c of (d.certificates as Array<Json & { alerts: Json[]; days_left: number }> | null) ?? []) {
      const alerts = c.alerts.map((a) => ({ ...a, account: Number(a.account) + offsets[i]! }));
      const seen = byHost.get(String(c.host));
      // A host read by several shards keeps the soonest reading, and every shard's alerts.
      const kept = !seen ? { ...c, alerts: [] } : c.days_left < seen.days_left ? { ...c, alerts: seen.alerts } : seen;
      kept.alerts.push(...alerts);
      byHost.set(String(c.host), kept);
    }
  });
  return [...byHost.values()].sort((x, y) => x.days_left - y.days_left || (String(x.host) < String(y.host) ? -1 : 1));
}

/** The whole run's preview totals: each shard's added; null when made with --no-preview. */
function joinPreview(docs: readonly Json[]): Json | null {
  const previews = docs.map((d) => (d.summary as Json).preview).filter(isObject);
  if (!previews.length) return null;
  const out: Record<string, number> = {};
  for (const p of previews) addCounts(out, p);
  return out;
}

function joinSummary(docs: readonly Json[], accounts: readonly Json[], certs: Json[] | null): Json {
  const firingByKind: Record<string, number> = {};
  for (const d of docs) addCounts(firingByKind, (d.summary as Json).firing_by_kind);
  const status = (s: string) => accounts.filter((a) => a.status === s).length;
  const everyFiringUnknown = docs.every((d) => (d.summary as Json).firing === null);
  const notEvaluated = sum(docs, (s) => (isObject(s.certificates) ? s.certificates.not_evaluated : 0));
  return {
    accounts: accounts.length,
    in_sync: status('in_sync'),
    drift: status('drift'),
    failed: status('failed'),
    create: sum(docs, (s) => s.create),
    update: sum(docs, (s) => s.update),
    delete: sum(docs, (s) => s.delete),
    unchanged: sum(docs, (s) => s.unchanged),
    firing: everyFiringUnknown ? null : sum(docs, (s) => s.firing),
    firing_by_kind: firingByKind,
    firing_not_evaluated: sum(docs, (s) => s.firing_not_evaluated),
    preview: joinPreview(docs),
    certificates: certs ? certificateFigures(certs as Array<{ days_left: number }>, notEvaluated) : null,
    coverage_gaps: sum(docs, (s) => s.coverage_gaps),
  };
}

/**
 * One document of the fleet from the documents of every shard of one run, or the sentence
 * saying why they cannot be joined. Accounts follow shard order; every figure is the shards'
 * added, certificates are each host once.
 */
export function mergeReports(given: readonly ShardDocument[]): { doc: Json } | { problem: string } {
  const shards: Shard[] = [];
  for (const g of given) {
    const s = readShard(g);
    if (typeof s === 'string') return { problem: s };
    shards.push(s);
  }
  const problem = joinProblem(shards);
  if (problem) return { problem };
  const ordered = [...shards].sort((a, b) => a.index - b.index);
  const docs = ordered.map((s) => s.doc);
  const offsets: number[] = [];
  const accounts: Json[] = [];
  for (const d of docs) {
    offsets.push(accounts.length);
    accounts.push(...(d.accounts as Json[]));
  }
  const certs = joinCertificates(docs, offsets);
  const latest = docs
    .map((d) => String(d.generated_at))
    .sort()
    .at(-1)!;
  const { shard: _, ...head } = docs[0]!;
  return {
    doc: {
      ...head,
      generated_at: latest,
      merged: { shards: ordered.length, files: ordered.map((s) => s.file), commit: ordered[0]!.source.commit },
      summary: joinSummary(docs, accounts, certs),
      accounts,
      certificates: certs,
    },
  };
}
