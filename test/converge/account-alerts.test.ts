/**
 * Coalesced lists: the scheduling is plain logic, so it is driven here by a list function
 * whose answers the test releases by hand; the policy itself is tested against the emulator
 * (create-alert.int.test.ts).
 */
import { AccountAlerts, MAX_WINDOW_MS } from '../../src/converge';
import { type LiveAlert } from '../../src/model';
import { liveAlert, SPF_VALIDITY } from '../helpers/fixtures';

const alert = (id: number, name = `a${id}`): LiveAlert => liveAlert(id, { name, ...SPF_VALIDITY });

/** A list function whose calls stay pending until the test resolves them, in order. */
function manualList() {
  const pending: Array<{ resolve: (v: LiveAlert[]) => void; reject: (e: Error) => void }> = [];
  let answer: LiveAlert[] = [];
  const list = () => new Promise<LiveAlert[]>((resolve, reject) => pending.push({ resolve, reject }));
  return {
    list,
    calls: () => pending.length,
    set: (alerts: LiveAlert[]) => (answer = alerts),
    answer: (i: number) => pending[i]!.resolve(answer),
    fail: (i: number) => pending[i]!.reject(new Error('list failed')),
  };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('AccountAlerts', () => {
  test('GIVEN many callers WHEN a list is in flight THEN all who marked later share ONE queued list', async () => {
    const m = manualList();
    const alerts = new AccountAlerts(m.list, { gatherMs: 0 });
    const first = alerts.after(alerts.mark());
    await tick();
    expect(m.calls()).toBe(1);
    // 30 creates finish while the first list is in flight: they need a later list, one for all.
    const later = Array.from({ length: 30 }, () => alerts.after(alerts.mark()));
    await tick();
    expect(m.calls()).toBe(1);
    m.set([alert(1)]);
    m.answer(0);
    await first;
    await tick();
    expect(m.calls()).toBe(2);
    m.set([alert(1), alert(2)]);
    m.answer(1);
    const listings = await Promise.all(later);
    expect(new Set(listings).size).toBe(1);
    expect(listings[0]!.byId.has(2)).toBe(true);
    expect(alerts.lists).toBe(2);
  });

  test('GIVEN a mark taken before a list started THEN that list answers it; a mark after it waits for the next', async () => {
    const m = manualList();
    const alerts = new AccountAlerts(m.list, { gatherMs: 0 });
    const early = alerts.mark();
    const p1 = alerts.after(early);
    await tick();
    expect(alerts.after(early)).toBe(p1);
    const late = alerts.after(alerts.mark());
    expect(late).not.toBe(p1);
    m.answer(0);
    await p1;
    await tick();
    m.answer(1);
    await late;
    expect(alerts.lists).toBe(2);
  });

  test('GIVEN a failed list THEN its waiters fail, and a later mark starts a new one', async () => {
    const m = manualList();
    const alerts = new AccountAlerts(m.list, { gatherMs: 0 });
    const p = alerts.after(alerts.mark());
    await tick();
    m.fail(0);
    await expect(p).rejects.toThrow('list failed');
    const again = alerts.after(alerts.mark());
    await tick();
    m.set([alert(3)]);
    m.answer(1);
    expect((await again).byId.has(3)).toBe(true);
  });

  test('GIVEN a baseline THEN reads use it without a call until a write invalidates it', async () => {
    const m = manualList();
    const alerts = new AccountAlerts(m.list, { baseline: [alert(1)], gatherMs: 0 });
    expect(alerts.hasBaseline).toBe(true);
    expect((await alerts.current()).byId.has(1)).toBe(true);
    expect(m.calls()).toBe(0);
    alerts.invalidate();
    const fresh = alerts.current();
    await tick();
    expect(m.calls()).toBe(1);
    m.set([alert(1), alert(2)]);
    m.answer(0);
    expect((await fresh).alerts).toHaveLength(2);
    // Reads after that share the fresh list.
    expect(await alerts.current()).toBe(await fresh);
    expect(m.calls()).toBe(1);
  });

  test('GIVEN alerts listed before a point THEN they are not new since it; later ones are', async () => {
    const m = manualList();
    const alerts = new AccountAlerts(m.list, { baseline: [alert(1)], gatherMs: 0 });
    const before = alerts.completedMark();
    const p = alerts.after(alerts.mark());
    await tick();
    m.set([alert(1), alert(2)]);
    m.answer(0);
    await p;
    expect(alerts.isNewSince(1, before)).toBe(false);
    expect(alerts.isNewSince(2, before)).toBe(true);
    expect(alerts.isNewSince(2, alerts.completedMark())).toBe(false);
  });
});

/**
 * The coalescing window against a caller like terraform applying a large configuration, on a
 * virtual clock (so the machine's load cannot change the outcome): P lanes, and the caller's
 * own work serial (terraform's graph walk and state) and growing with every create it has
 * made, so it hands creates over more slowly as the run goes on (about 5 ms per create at
 * first, 35 ms at the end), in a burst after each list answers. Each create's POST and each
 * list take the latency.
 */
async function slowingCaller(opts: { n: number; lanes: number; latencyMs: number }) {
  const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
  const alerts = new AccountAlerts(async () => {
    await sleep(opts.latencyMs + 2);
    return [];
  });
  let callerFreeAt = 0;
  const callerWork = (ms: number) => {
    const now = Date.now();
    callerFreeAt = Math.max(now, callerFreeAt) + ms;
    return sleep(callerFreeAt - now);
  };
  let next = 0;
  let made = 0;
  let lastPostedAt = 0;
  let lastListedAt = 0;
  const lane = async () => {
    while (next < opts.n) {
      next++;
      const ownMs = 5 + (40 * made) / opts.n;
      await callerWork(ownMs / 2);
      const create = alerts.beginCreate();
      create.sending();
      await sleep(opts.latencyMs + 1);
      create.posted();
      lastPostedAt = Date.now();
      await alerts.after(alerts.mark());
      lastListedAt = Date.now();
      create.done();
      made++;
      await callerWork(ownMs / 2);
    }
  };
  let finished = false;
  const all = Promise.all(Array.from({ length: opts.lanes }, lane)).then(() => (finished = true));
  // Bounded: the run takes well under 100 virtual seconds.
  for (let step = 0; step < 10000 && !finished; step++) await jest.advanceTimersByTimeAsync(10);
  await all;
  // From the last create's answer to the answer of the list it waited for.
  return { lists: alerts.lists, made, lastWaitMs: lastListedAt - lastPostedAt };
}

describe('coalescing window, a caller that slows down as it goes', () => {
  beforeEach(() => jest.useFakeTimers({ doNotFake: ['nextTick', 'queueMicrotask'] }));
  afterEach(() => jest.useRealTimers());

  for (const lanes of [10, 30])
    for (const latencyMs of [0, 20, 50]) {
      // The window before this one (six of the caller's gaps, a short average of them) made 211
      // and 222 lists here at 10 lanes, 20 and 50 ms. Without the budget and the first window
      // that learns the lanes, 30 lanes made 95 / 76 / 72 lists at 0 / 20 / 50 ms (bound 68).
      test(`GIVEN ${lanes} lanes, ${latencyMs} ms latency THEN at most 2N/P + 2 lists, and the last create is not held to the longest window`, async () => {
        const n = 1000;
        const { lists, made, lastWaitMs } = await slowingCaller({ n, lanes, latencyMs });
        expect(made).toBe(n);
        expect(lists).toBeLessThanOrEqual((2 * n) / lanes + 2);
        // The end of the run is told from a pause: the budget's hold ends before the cap.
        expect(lastWaitMs).toBeLessThan(MAX_WINDOW_MS);
      });
    }
});
