/**
 * Coalesced lists: the scheduling is plain logic, so it is driven here by a list function
 * whose answers the test releases by hand; the policy itself is tested against the emulator
 * (create-alert.test.ts).
 */
import { AccountAlerts } from '../../src/converge';
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
