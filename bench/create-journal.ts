/**
 * The provider's create journal: the records of N creates at parallelism P, as the provider
 * writes them (an intent before each POST, an end after it), timed with a POST of `postMs`.
 * "before" is an earlier version of src/provider/create-journal.ts given as a file (it opened,
 * appended and closed the file per record, without fsync: intent, created, and done at the
 * next refresh); "after" is the current one (one open file, intents fsynced in shared batches,
 * ends written lazily). Alternating runs, one process.
 *
 *   npx tsx bench/create-journal.ts [--before <file>] [--creates 1000] [--parallelism 10] [--post-ms 5] [--runs 5]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { parseArgs } from 'node:util';
import { canonicalAlert, type AlertSpec } from '../src/model';
import { CreateJournal } from '../src/provider/create-journal';

const { values } = parseArgs({
  options: {
    before: { type: 'string' },
    creates: { type: 'string', default: '1000' },
    parallelism: { type: 'string', default: '10' },
    'post-ms': { type: 'string', default: '5' },
    runs: { type: 'string', default: '5' },
  },
});
const N = Number(values.creates);
const P = Number(values.parallelism);
const POST_MS = Number(values['post-ms']);

const spec = (i: number): AlertSpec =>
  canonicalAlert({
    name: `alert ${i}`,
    type: 'SPF Record',
    filter: 'validity',
    target_type: 'domain',
    target_id: 1,
  });
const post = () => new Promise((resolve) => setTimeout(resolve, POST_MS));

/** The old journal's calls per create: intent, created (after the POST), done (at the refresh). */
interface OldJournal {
  keyOf(spec: AlertSpec): string;
  intent(key: string): void;
  created(key: string, id: number): void;
  done(id: number): void;
}

async function pool(run: (i: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: P }, async () => {
      while (next < N) await run(next++);
    }),
  );
}

interface Timing {
  wallMs: number;
  cpuMs: number;
  /** Writes that reached the file (after: one per batch, each with an fsync). */
  writes?: number;
}

function measure(): () => { wallMs: number; cpuMs: number } {
  const t0 = process.hrtime.bigint();
  const c0 = process.cpuUsage();
  return () => {
    const c = process.cpuUsage(c0);
    return { wallMs: Number(process.hrtime.bigint() - t0) / 1e6, cpuMs: (c.user + c.system) / 1000 };
  };
}

async function timeAfter(dir: string): Promise<Timing> {
  const journal = new CreateJournal(path.join(dir, 'after.jsonl'), 'acct');
  const done = measure();
  await pool(async (i) => {
    const key = journal.keyOf(spec(i));
    await journal.intent(key);
    await post();
    journal.end(key);
  });
  journal.close();
  return { ...done(), writes: journal.writes };
}

async function timeBefore(dir: string, Old: new (file: string, account: string) => OldJournal): Promise<Timing> {
  const journal = new Old(path.join(dir, 'before.jsonl'), 'acct');
  const done = measure();
  await pool(async (i) => {
    const key = journal.keyOf(spec(i));
    journal.intent(key);
    await post();
    journal.created(key, i + 1);
  });
  for (let i = 0; i < N; i++) journal.done(i + 1);
  return done();
}

async function main(): Promise<void> {
  const Old = values.before
    ? ((await import(path.resolve(values.before))) as { CreateJournal: new (f: string, a: string) => OldJournal })
        .CreateJournal
    : undefined;
  const floor = Math.ceil(N / P) * POST_MS;
  console.log(`${N} creates at parallelism ${P}, POST ${POST_MS} ms (floor ${floor} ms): wall ms / CPU ms per run`);
  const show = (t: Timing | undefined) =>
    t
      ? `${t.wallMs.toFixed(0)} / ${t.cpuMs.toFixed(0)}${t.writes === undefined ? '' : ` (${t.writes} fsynced writes)`}`
      : '-';
  for (let r = 0; r < Number(values.runs); r++) {
    const dir = mkdtempSync(path.join(tmpdir(), 'nc-journal-bench-'));
    try {
      const before = Old ? await timeBefore(dir, Old) : undefined;
      const after = await timeAfter(dir);
      console.log(`run ${r + 1}: before ${show(before)}  after ${show(after)}`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
}

void main();
