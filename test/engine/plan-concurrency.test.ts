/**
 * Listing is bounded across accounts: a plan of many accounts has at most
 * PLAN_ACCOUNTS_AT_ONCE accounts (one alerts list and one domains list each) in flight, counted
 * at the emulator's HTTP server, and an account answered 429 waits in its own slot.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { NetworkCalcClient } from '../../src/client';
import type { EmulatorSeed } from '../../src/emulator';
import { PLAN_ACCOUNTS_AT_ONCE, planAll, prepare } from '../../src/engine/plan-all';
import { type Credentials } from '../../src/plan/types';
import { useEmulator } from '../helpers/emulator';
import { alert, stack } from '../cli/support';

const ACCOUNTS = 40;
const name = (i: number) => `a${String(i).padStart(2, '0')}`;
const seed: EmulatorSeed = {
  accounts: Array.from({ length: ACCOUNTS }, (_, i) => ({
    name: name(i),
    user_id: i + 1,
    tokens: [{ access_token: `${name(i)}-token` }],
    domains: [{ id: i + 1, domain: `${name(i)}.example` }],
  })),
};
const emulator = useEmulator({ seed });

const factory = (c: Credentials) =>
  new NetworkCalcClient({ baseUrl: c.baseUrl, token: c.token, retry: { maxAttempts: c.maxAttempts } });

/** One stack per account; alerts target their domain by name, so each plan lists alerts and domains. */
function app() {
  const env: Record<string, string> = {};
  const stacks = Array.from({ length: ACCOUNTS }, (_, i) => {
    env[`${name(i).toUpperCase()}_TOKEN`] = `${name(i)}-token`;
    return {
      name: name(i),
      json: stack({
        provider: { token_env: `${name(i).toUpperCase()}_TOKEN`, base_url: emulator().url, max_retries: 3 },
        alerts: { A: alert({ name: `${name(i)} a`, target_id: '${data.networkcalc_domain.D.id}' }) },
        data: { networkcalc_domain: { D: { name: `${name(i)}.example` } } },
      }),
    };
  });
  return prepare(stacks, env);
}

/** Counts the API requests in flight at the emulator's server, and the most at once. */
function countInFlight() {
  const server = emulator().app.server;
  const seen = { now: 0, peak: 0, total: 0 };
  const onRequest = (req: IncomingMessage, res: ServerResponse) => {
    if (!req.url?.startsWith('/api/')) return;
    seen.total++;
    seen.peak = Math.max(seen.peak, ++seen.now);
    res.on('close', () => seen.now--);
  };
  server.on('request', onRequest);
  return { seen, stop: () => server.off('request', onRequest) };
}

describe('plan lists a bounded number of accounts at once', () => {
  it.each([
    [undefined, PLAN_ACCOUNTS_AT_ONCE],
    [4, 4],
  ])(
    'GIVEN 40 accounts and 40 ms per request WHEN planned (accountsAtOnce %s) THEN at most 2 requests per account in flight',
    async (accountsAtOnce, slots) => {
      await emulator().control.addFault({ kind: 'latency', latencyMs: 40, match: { path: '/api/' } });
      const counter = countInFlight();
      try {
        const prepared = app();
        const plans = await planAll(prepared, factory, { accountsAtOnce });
        // Every account, in the order given, planned.
        expect(plans.map((p) => p.account)).toEqual(prepared.accounts);
        expect(plans.map((p) => p.status)).toEqual(plans.map(() => 'ok'));
        expect(plans.every((p) => p.changes.length === 1)).toBe(true);
        // Every account listed its alerts and its domains once.
        expect(counter.seen.total).toBe(2 * ACCOUNTS);
        expect(counter.seen.peak).toBeLessThanOrEqual(2 * slots);
        // And it did use its slots: more than one account at a time.
        expect(counter.seen.peak).toBeGreaterThan(2);
      } finally {
        counter.stop();
      }
    },
    30_000,
  );

  it('GIVEN one account answered 429 THEN it waits in its own slot and every other account is planned first', async () => {
    await emulator().control.addFault({
      kind: 'rate_limit',
      retryAfterSeconds: 1,
      count: 2,
      match: { account: name(0), method: 'GET' },
    });
    const order: string[] = [];
    const plans = await planAll(app(), factory, { onPlanned: (p) => order.push(p.account.scopes[0]!.stack) });
    expect(plans.every((p) => p.status === 'ok')).toBe(true);
    expect(order).toHaveLength(ACCOUNTS);
    expect(order[order.length - 1]).toBe(name(0));
  }, 30_000);
});
