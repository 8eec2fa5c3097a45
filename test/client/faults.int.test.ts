/**
 * Retries against the emulator's random faults: independent faults give independent
 * attempts (no dead pooled socket makes the next attempt fail), and retries outlast a short
 * outage instead of landing inside it. Figures and the experiment: bench/client-faults.ts.
 */
import { startEmulator } from '../../src/emulator';
import { NetworkCalcClient } from '../../src/client';

type Emulator = Awaited<ReturnType<typeof startEmulator>>;

let emu: Emulator;
beforeAll(async () => {
  emu = await startEmulator({ port: 0, randomSeed: 7 });
});
afterAll(() => emu.close());
beforeEach(async () => {
  await emu.control.reset();
});

/**
 * Each fault's `rate` is drawn on its own, in order: three faults at rate r hit a request
 * with probability 1 - (1 - r)^3. For 20 % in all, each gets r = 1 - 0.8^(1/3) ≈ 7.2 %.
 */
async function mixedFaults(total: number): Promise<void> {
  const rate = 1 - Math.pow(1 - total, 1 / 3);
  await emu.control.addFault({ kind: 'status', status: 500, rate, match: { path: '/api/alerts' } });
  await emu.control.addFault({ kind: 'rate_limit', retryAfterSeconds: 0, rate, match: { path: '/api/alerts' } });
  await emu.control.addFault({ kind: 'drop', rate, match: { path: '/api/alerts' } });
}

it('at a 20 % fault rate (5xx, 429, drops), 300 lists give up about as rarely as independent faults predict', async () => {
  await mixedFaults(0.2);
  const attempts: string[][] = [];
  let gaveUp = 0;
  let next = 0;
  // 8 at a time, each call on a fresh client sharing undici's pool, as the provider's are.
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      while (next < 300) {
        const lines: string[] = [];
        attempts[next++] = lines;
        const c = new NetworkCalcClient({
          baseUrl: emu.url,
          token: 'demo-token',
          logger: (l) => lines.push(l.split(' ')[2]!),
        });
        await c.listAlerts().catch(() => gaveUp++);
      }
    }),
  );
  // Independent 20 % faults: 300 × 0.2^5 ≈ 0.1 calls give up; 3 or more would be ~1 in 7,000.
  expect(gaveUp).toBeLessThanOrEqual(2);
  // The attempt after a dropped connection fails no more often than any other: a socket
  // the server destroyed is not reused.
  const afterDrop = attempts.flatMap((a) => a.slice(1).filter((_, i) => a[i] === 'UND_ERR_SOCKET'));
  expect(afterDrop.length).toBeGreaterThan(5);
  expect(afterDrop.filter((r) => r !== '200').length / afterDrop.length).toBeLessThan(0.5);
  const requests = await emu.control.requests();
  expect(requests.filter((r) => r.status === 0).length).toBe(
    attempts.flat().filter((r) => r === 'UND_ERR_SOCKET').length,
  );
});

it('retries outlast a 1.5 s outage: every call started at its beginning succeeds', async () => {
  const outage = await emu.control.addFault({ kind: 'status', status: 503, match: { path: '/api/alerts' } });
  const ended = new Promise<void>((resolve) =>
    setTimeout(() => void emu.control.removeFault(outage).then(() => resolve()), 1500),
  );
  // With the default policy the first four waits take at least 1.875 s together.
  const calls = Array.from({ length: 8 }, () =>
    new NetworkCalcClient({ baseUrl: emu.url, token: 'demo-token' }).listAlerts(),
  );
  const results = await Promise.allSettled(calls);
  await ended;
  expect(results.filter((r) => r.status === 'rejected')).toEqual([]);
});
