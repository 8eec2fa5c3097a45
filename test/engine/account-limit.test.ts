/** One account's writes: its own slots, then the run's; handed over as slots free up. */
import { AccountLimit } from '../../src/engine/account-limit';
import { Limiter } from '../../src/support/limiter';
import type { AccountPlan } from '../../src/plan/account-plan';

const account = { label: 'prod' } as AccountPlan['account'];
const tick = () => new Promise((r) => setTimeout(r, 1));

describe('AccountLimit.map', () => {
  it('gives the results in the items order and calls work for an item only once a slot is free', async () => {
    const run = new Limiter(8);
    const limit = new AccountLimit(account, 3, run);
    let called = 0;
    let finished = 0;
    let mostAhead = 0;
    const items = Array.from({ length: 50 }, (_, i) => i);
    const results = await limit.map(items, async (item, index) => {
      called++;
      // Never more items at work than the account has slots.
      mostAhead = Math.max(mostAhead, called - finished);
      await tick();
      finished++;
      return `${item}:${index}`;
    });
    expect(results).toEqual(items.map((i) => `${i}:${i}`));
    expect(mostAhead).toBe(3);
  });

  it('holds to the run limit the accounts share', async () => {
    const run = new Limiter(4);
    let active = 0;
    let most = 0;
    const work = async (i: number) => {
      active++;
      most = Math.max(most, active);
      await tick();
      active--;
      return i;
    };
    const items = Array.from({ length: 20 }, (_, i) => i);
    const [a, b] = [new AccountLimit(account, 3, run), new AccountLimit(account, 3, run)];
    await Promise.all([a.map(items, work), b.map(items, work)]);
    expect(most).toBe(4);
  });

  it('runs one write at a time once the account is rate limited; the writes in flight finish', async () => {
    const limit = new AccountLimit(account, 3, new Limiter(8));
    let active = 0;
    let lowered = false;
    const startsAfter: number[] = [];
    await limit.map(
      Array.from({ length: 20 }, (_, i) => i),
      async (i) => {
        active++;
        if (lowered) startsAfter.push(active);
        await tick();
        if (i === 2 && !lowered) {
          expect(limit.rateLimited()).toMatch(/^account prod is rate limited by the service: .* \(was 3\)/);
          lowered = true;
        }
        active--;
      },
    );
    expect(startsAfter.length).toBeGreaterThan(10);
    expect(Math.max(...startsAfter)).toBe(1);
  });

  it('an empty list is done at once', async () => {
    await expect(new AccountLimit(account, 2, new Limiter(2)).map([], async () => 1)).resolves.toEqual([]);
  });
});
