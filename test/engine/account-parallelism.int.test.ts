/**
 * Concurrency per account: every write goes through its account's limit, then the run's. An
 * account the service rate limits holds at most its own share of the run's slots, drops to
 * one write at a time, and its failures name it; the other accounts are not slowed.
 */
import { NetworkCalcClient } from '../../src/client';
import type { EmulatorSeed } from '../../src/emulator';
import { applyAll, type ApplyEvent } from '../../src/engine/apply';
import { defaultAccountParallelism } from '../../src/engine/account-limit';
import { planAll, prepare } from '../../src/engine/plan-all';
import { type Credentials } from '../../src/plan/types';
import { useEmulator } from '../helpers/emulator';
import { alert, stack } from '../cli/support';

const seed: EmulatorSeed = {
  accounts: [
    { name: 'slow', user_id: 1, tokens: [{ access_token: 'slow-token' }], domains: [{ id: 1, domain: 's.example' }] },
    { name: 'fast', user_id: 2, tokens: [{ access_token: 'fast-token' }], domains: [{ id: 2, domain: 'f.example' }] },
  ],
};
const emulator = useEmulator({ seed });

const factory = (c: Credentials) =>
  new NetworkCalcClient({ baseUrl: c.baseUrl, token: c.token, retry: { maxAttempts: c.maxAttempts } });

function alerts(n: number, prefix: string, targetId: number) {
  return Object.fromEntries(
    Array.from({ length: n }, (_, i) => [`A${i}`, alert({ name: `${prefix}-${i}`, target_id: targetId })]),
  );
}

function app() {
  const provider = (tokenEnv: string) => ({ token_env: tokenEnv, base_url: emulator().url, max_retries: 2 });
  return prepare(
    [
      // The throttled account comes first, so its writes are queued before the other's: with
      // one limit of 4 for the run, its 4 writes took every slot for the length of a Retry-After.
      { name: 'slow', json: stack({ provider: provider('SLOW_TOKEN'), alerts: alerts(4, 'slow', 1) }) },
      { name: 'fast', json: stack({ provider: provider('FAST_TOKEN'), alerts: alerts(6, 'fast', 2) }) },
    ],
    { SLOW_TOKEN: 'slow-token', FAST_TOKEN: 'fast-token' },
  );
}

describe('per-account limits', () => {
  it('defaults: the whole budget for one account, half of it for more', () => {
    expect(defaultAccountParallelism(8, 1)).toBe(8);
    expect(defaultAccountParallelism(8, 50)).toBe(4);
    expect(defaultAccountParallelism(1, 2)).toBe(1);
    expect(defaultAccountParallelism(5, 2)).toBe(3);
  });
});

describe('an account at 429 slows only itself', () => {
  it('GIVEN every write of account slow rate limited THEN fast finishes first, untouched; slow’s errors name it', async () => {
    await emulator().control.addFault({
      kind: 'rate_limit',
      retryAfterSeconds: 1,
      match: { account: 'slow', method: 'POST' },
    });
    const plans = await planAll(app(), factory, {});
    const events: Array<{ label: string; status: string; message?: string }> = [];
    const report = await applyAll(plans, factory, {
      parallelism: 4,
      onEvent: (e: ApplyEvent) => {
        if (e.kind === 'change')
          events.push({ label: e.account.account.label, status: e.result.status, message: e.result.error?.message });
      },
    });
    const [slow, fast] = plans.map((p) => report.get(p)!);
    expect(fast.results.map((r) => r.status)).toEqual(Array(6).fill('ok'));
    expect(slow.results.map((r) => r.status)).toEqual(Array(4).fill('failed'));
    // Default 2 per account of 4: fast had its own two slots from the start, so every one of
    // its writes ended before the first of slow's (each waits out a Retry-After of 1 s).
    const firstSlow = events.findIndex((e) => e.label === 'slow');
    expect(events.slice(0, firstSlow).map((e) => e.label)).toEqual(Array(6).fill('fast'));
    expect(events.find((e) => e.label === 'slow')!.message).toContain(
      'account slow is rate limited by the service: its remaining writes run one at a time (was 2), the other accounts are not slowed',
    );
    // The service saw no 429 for fast.
    const log = await emulator().control.requests();
    expect(log.filter((r) => r.claimedAccount === 'fast' && r.status !== 200)).toEqual([]);
    expect(log.filter((r) => r.claimedAccount === 'slow' && r.status === 429).length).toBeGreaterThan(0);
  }, 30_000);
});
