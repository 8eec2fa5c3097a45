import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CreateJournal } from '../../src/provider/create-journal';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'ncalc-journal-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

test('GIVEN a journal past its size limit THEN it is replaced whole by the unfinished records, owner-only', () => {
  const file = join(dir, 'networkcalc-creates-x.jsonl');
  const key = (n: number) => n.toString(16).padStart(32, '0');
  const lines: string[] = [];
  // Over 1 MiB of finished creates, and two that no state holds yet.
  for (let n = 0; n < 12_000; n++)
    lines.push(JSON.stringify({ t: 'intent', k: key(n), at: 1 }), JSON.stringify({ t: 'end', k: key(n), at: 2 }));
  lines.push(JSON.stringify({ t: 'intent', k: key(1e6), at: 3 }));
  lines.push(JSON.stringify({ t: 'created', k: key(1e6 + 1), id: 42, at: 4 }));
  writeFileSync(file, lines.join('\n') + '\n', { mode: 0o644 });
  expect(statSync(file).size).toBeGreaterThan(1024 * 1024);

  const journal = new CreateJournal(file, 'account');
  expect(journal.unfinished(key(1e6))).toEqual({ kind: 'interrupted' });
  expect(journal.unfinished(key(1e6 + 1))).toEqual({ kind: 'created', id: 42 });
  expect(journal.unfinished(key(7))).toBeUndefined();
  journal.close();

  const kept = readFileSync(file, 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as { t: string; k: string });
  expect(kept.map((r) => [r.t, r.k])).toEqual([
    ['intent', key(1e6)],
    ['created', key(1e6 + 1)],
  ]);
  expect(statSync(file).mode & 0o777).toBe(0o600);
  expect(readdirSync(dir)).toEqual(['networkcalc-creates-x.jsonl']);
  // A new process reads what the compaction kept.
  expect(new CreateJournal(file, 'account').unfinished(key(1e6 + 1))).toEqual({ kind: 'created', id: 42 });
});
