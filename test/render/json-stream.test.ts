import { FORMAT_VERSION, jsonDocument, toJson, writeJsonDocument } from '../../src/render/json';
import type { ApplyReport } from '../../src/engine/apply';
import { written as handedOn } from '../../src/cli/io';
import type { Change } from '../../src/plan/types';
import { account, accountPlan, spec } from '../helpers/fixtures';

const create = (stack: string, i: number): Change => ({
  action: 'create',
  reason: 'missing',
  name: `${stack} "quoted"\n${i}`,
  id: null,
  scopeKey: `${stack}.networkcalc`,
  stack,
  logicalId: `Alert${i}`,
  path: `${stack}/Alert${i}`,
  before: null,
  after: spec(`${stack} ${i}`),
  fields: [],
});

const plans = ['a', 'b', 'c'].map((label, n) =>
  accountPlan(account(label), { changes: Array.from({ length: n * 2 }, (_, i) => create(label, i)) }),
);
const report: ApplyReport = new Map(
  plans.map((p) => [
    p,
    { results: p.changes.map((_, i) => ({ status: 'ok' as const, id: 100 + i })), triggerResults: [] },
  ]),
);

/** Every write, as the CLI's stdout receives them. */
async function written(doc: Record<string, unknown>): Promise<string[]> {
  const chunks: string[] = [];
  await writeJsonDocument((text) => void chunks.push(text), doc);
  return chunks;
}

describe('the --json document written account by account', () => {
  it.each([
    ['plan', undefined],
    ['apply', report],
    ['drift', undefined],
  ] as const)('%s: the same bytes as JSON.stringify of the whole document', async (command, withReport) => {
    // GIVEN the document with its accounts made as they are written, and fields after them
    const doc = { ...jsonDocument(command, plans, withReport, { shard: { index: 1 } }), after: [1, { x: 'y' }] };
    // WHEN it is written
    const text = (await written(doc)).join('');
    // THEN it is exactly what stringifying the whole document gives, and parses to toJson's
    expect(text).toBe(
      JSON.stringify(
        { ...toJson(command, plans, withReport, { shard: { index: 1 } }), after: [1, { x: 'y' }] },
        null,
        2,
      ) + '\n',
    );
    expect(JSON.parse(text)).toMatchObject({ format_version: FORMAT_VERSION, command, accounts: [{}, {}, {}] });
  });

  it('writes an empty list and a document without accounts as JSON.stringify does', async () => {
    expect((await written(jsonDocument('plan', []))).join('')).toBe(JSON.stringify(toJson('plan', []), null, 2) + '\n');
    const plain = { format_version: FORMAT_VERSION, command: 'plan', accounts: [] };
    expect(await written(plain)).toEqual([JSON.stringify(plain, null, 2) + '\n']);
  });

  it('writes a large document in chunks, never the whole of it at once', async () => {
    // GIVEN 4 accounts of 1,000 changes each
    const big = ['w', 'x', 'y', 'z'].map((label) =>
      accountPlan(account(label), { changes: Array.from({ length: 1000 }, (_, i) => create(label, i)) }),
    );
    const chunks = await written(jsonDocument('plan', big));
    const whole = chunks.join('');
    // THEN a write per account at least, none near the whole document, which is still valid
    expect(chunks.length).toBeGreaterThanOrEqual(4);
    expect(Math.max(...chunks.map((c) => c.length))).toBeLessThan(whole.length / 3);
    expect(JSON.parse(whole).accounts[3].changes).toHaveLength(1000);
  });
});

describe('a stream that asks to wait', () => {
  it('gets the next chunk only once it has handed on the one before', async () => {
    // GIVEN stdout as a pipe whose reader is slow: every write says "wait", and hands the chunk on a turn later
    const big = ['w', 'x', 'y'].map((label) =>
      accountPlan(account(label), { changes: Array.from({ length: 1000 }, (_, i) => create(label, i)) }),
    );
    const chunks: string[] = [];
    let busy = false;
    let overlapping = 0;
    const stream = {
      write: (chunk: string, done?: () => void) => {
        if (busy) overlapping++;
        busy = true;
        chunks.push(chunk);
        setImmediate(() => {
          busy = false;
          done!();
        });
        return false;
      },
    };
    // WHEN the document is written through it
    await writeJsonDocument((text) => handedOn(stream, text), jsonDocument('plan', big));
    // THEN no chunk was given while the one before waited, and the chunks make the whole document
    expect(overlapping).toBe(0);
    expect(chunks.length).toBeGreaterThan(1);
    expect(JSON.parse(chunks.join(''))).toEqual(toJson('plan', big));
  });
});
