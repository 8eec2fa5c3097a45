import { FreshList } from '../../src/converge/fresh-list';

/** A list whose calls are answered by hand, in order: each answer is the number of the call. */
function manual() {
  const pending: Array<{ n: number; settle: (fail?: boolean) => void }> = [];
  let calls = 0;
  const list = () =>
    new Promise<number>((resolve, reject) => {
      const n = ++calls;
      pending.push({ n, settle: (fail) => (fail ? reject(new Error(`list ${n} failed`)) : resolve(n)) });
    });
  return { list, pending, calls: () => calls };
}

const tick = () => new Promise((r) => setImmediate(r));

describe('FreshList: one list for every proof asked for while one runs', () => {
  it('GIVEN a list in flight THEN later callers share one queued behind it, which starts when it ends', async () => {
    const m = manual();
    const lists = new FreshList(m.list);
    const first = lists.next();
    const second = lists.next();
    const third = lists.next();
    expect(m.calls()).toBe(1);
    expect(second).toBe(third);
    m.pending[0]!.settle();
    expect(await first).toBe(1);
    await tick();
    // The queued list started only after the first one ended: it shows every write before the callers asked.
    expect(m.calls()).toBe(2);
    // Asked for after the second list started: not answered by it.
    const fourth = lists.next();
    m.pending[1]!.settle();
    expect(await second).toBe(2);
    await tick();
    m.pending[2]!.settle();
    expect(await fourth).toBe(3);
    expect(lists.lists).toBe(3);
  });

  it('GIVEN a failed list THEN its callers get the failure and the next caller a new list', async () => {
    const m = manual();
    const lists = new FreshList(m.list);
    const first = lists.next();
    const queued = lists.next();
    m.pending[0]!.settle(true);
    await expect(first).rejects.toThrow('list 1 failed');
    await tick();
    m.pending[1]!.settle(true);
    await expect(queued).rejects.toThrow('list 2 failed');
    const after = lists.next();
    m.pending[2]!.settle();
    expect(await after).toBe(3);
  });
});
