/**
 * The client's retries against the emulator's faults: how often a call gives up, against what
 * independent faults predict, and whether the attempt after a fault fails more often than a
 * first attempt (it would if a dropped connection left a dead socket in the pool).
 * Reproduce: `npx tsx bench/client-faults.ts` (about 50 s).
 */
import { NetworkCalcClient } from '../src/client';
import { startEmulator, type FaultSpec } from '../src/emulator';

type Emulator = Awaited<ReturnType<typeof startEmulator>>;

interface Run {
  calls: number;
  gaveUp: number;
  /** Outcome of every attempt of every call: the status, or the network error code. */
  attempts: string[][];
  ms: number;
}

/** `calls` lists, `concurrency` at a time, each started no earlier than `startAt(i)` ms. */
async function lists(
  emu: Emulator,
  calls: number,
  concurrency: number,
  startAt: (i: number) => number = () => 0,
): Promise<Run> {
  const attempts: string[][] = [];
  let gaveUp = 0;
  let next = 0;
  const t0 = Date.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < calls) {
        const i = next++;
        const wait = t0 + startAt(i) - Date.now();
        if (wait > 0) await new Promise((r) => setTimeout(r, wait));
        const lines: string[] = [];
        attempts[i] = lines;
        const client = new NetworkCalcClient({
          baseUrl: emu.url,
          token: 'demo-token',
          logger: (l) => lines.push(l.split(' ')[2]!),
        });
        await client.listAlerts().catch(() => gaveUp++);
      }
    }),
  );
  return { calls, gaveUp, attempts, ms: Date.now() - t0 };
}

const pct = (n: number, d: number) => (d === 0 ? '–' : `${((100 * n) / d).toFixed(1)} %`);

/** Share of failed attempts among first attempts, and among attempts following each kind of failure. */
function conditional(run: Run): Record<string, string> {
  const first = run.attempts.map((a) => a[0]!);
  const out: Record<string, string> = {
    'first attempt': `${pct(first.filter((r) => r !== '200').length, first.length)} of ${first.length}`,
  };
  for (const kind of ['500', '429', 'UND_ERR_SOCKET']) {
    const after = run.attempts.flatMap((a) => a.slice(1).filter((_, i) => a[i] === kind));
    out[`after ${kind}`] = `${pct(after.filter((r) => r !== '200').length, after.length)} of ${after.length}`;
  }
  return out;
}

function faultsAt(rate: number, retryAfterSeconds: number): FaultSpec[] {
  const match = { path: '/api/alerts' };
  return [
    { kind: 'status', status: 500, rate, match },
    { kind: 'rate_limit', retryAfterSeconds, rate, match },
    { kind: 'drop', rate, match },
  ];
}

async function main(): Promise<void> {
  const emu = await startEmulator({ port: 0, randomSeed: 1 });
  try {
    const rows: string[] = [];
    const row = (what: string, run: Run, predicted: number, extra = '') => {
      const tried = run.attempts.flat();
      const faulty = tried.filter((r) => r !== '200').length;
      rows.push(
        `| ${what} | ${run.calls} | ${pct(faulty, tried.length)} | ${run.gaveUp} | ${Number.isNaN(predicted) ? '–' : predicted.toFixed(2)} | ${(run.ms / 1000).toFixed(1)} s | ${extra} |`,
      );
      return faulty / tried.length;
    };

    // 1. Three faults at rate 0.2 each, as first measured: the rates compose to 1 - 0.8^3.
    for (const f of faultsAt(0.2, 1)) await emu.control.addFault(f);
    const each = await lists(emu, 300, 300);
    const p1 = each.attempts.flat().filter((r) => r !== '200').length / each.attempts.flat().length;
    row('3 faults at rate 0.2 each, Retry-After 1 s, 300 at once', each, 300 * p1 ** 5);

    // 2. A true 20 %: each of the three faults at 1 - 0.8^(1/3).
    await emu.control.reset();
    for (const f of faultsAt(1 - Math.pow(0.8, 1 / 3), 0)) await emu.control.addFault(f);
    const twenty = await lists(emu, 3000, 8);
    const p2 = twenty.attempts.flat().filter((r) => r !== '200').length / twenty.attempts.flat().length;
    const cond = conditional(twenty);
    row(
      '20 % in all (5xx, 429, drop), 8 at a time',
      twenty,
      3000 * p2 ** 5,
      Object.entries(cond)
        .map(([k, v]) => `${k}: ${v}`)
        .join('; '),
    );

    // 3. Outages: every request fails for 2 s in every 4 s; 600 calls start over 10 s.
    await emu.control.reset();
    let stop = false;
    const outages = (async () => {
      while (!stop) {
        await new Promise((r) => setTimeout(r, 2000));
        if (stop) break;
        const id = await emu.control.addFault({ kind: 'status', status: 503, match: { path: '/api/alerts' } });
        await new Promise((r) => setTimeout(r, 2000));
        await emu.control.removeFault(id);
      }
    })();
    const burst = await lists(emu, 600, 600, (i) => (i / 600) * 10_000);
    stop = true;
    await outages;
    row('2 s outages every 4 s, 600 calls over 10 s', burst, Number.NaN);

    console.log(
      '| faults | calls | attempts faulted | gave up | independent faults predict | time | fault rate of the next attempt |',
    );
    console.log('| --- | --- | --- | --- | --- | --- | --- |');
    for (const r of rows) console.log(r);
  } finally {
    await emu.close();
  }
}

void main();
