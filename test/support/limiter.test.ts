/** The one concurrency limit: of an account's writes, of a run's, of preview's lookups. */
import { Limiter } from '../../src/support/limiter';

describe('Limiter', () => {
  it('never runs more than its limit at once, and a lowered limit holds for what starts after', async () => {
    const limit = new Limiter(3);
    let active = 0;
    const peaks: number[] = [];
    const task = (i: number) =>
      limit.run(async () => {
        active++;
        peaks[i] = active;
        await new Promise((r) => setTimeout(r, 5));
        if (i === 2) limit.lower(1);
        active--;
      });
    await Promise.all(Array.from({ length: 12 }, (_, i) => task(i)));
    expect(Math.max(...peaks.slice(0, 3))).toBe(3);
    // Once the three started first have finished, one at a time.
    expect(Math.max(...peaks.slice(6))).toBe(1);
    expect(limit.concurrency).toBe(1);
  });

  test('never runs more than its limit, also when a task arrives just as one finishes', async () => {
    const limiter = new Limiter(1);
    let active = 0;
    let most = 0;
    const task = async () => {
      active++;
      most = Math.max(most, active);
      await new Promise((r) => setTimeout(r, 2));
      active--;
    };
    let first!: Promise<void>;
    const runs = [limiter.run(() => (first = task())), limiter.run(task)];
    // Registered after the limiter's own wait on `first`: runs after its slot is released and
    // before the waiting task resumes, the moment a newcomer could take the slot twice.
    runs.push(first.then(() => limiter.run(task)));
    await Promise.all(runs);
    expect(most).toBe(1);
  });
});
