/**
 * The floor of the write path on this machine: N POSTs over P lanes with nothing around them
 * (no plan, no bookkeeping, no output, no list), one undici request after another per lane,
 * as ncalc's transport sends them (a check phase before each, so that connections are
 * reused). `bench/writes.ts` runs it in a process of its own against the same emulator as
 * `ncalc apply`, so that both pay the same per-request cost of the emulator and the loopback.
 *
 *   BARE_URL=… BARE_TOKEN=… BARE_BODY='{"name":"NAME",…}' BARE_N=1000 BARE_P=64 npx tsx bench/bare-posts.ts
 */
import { request } from 'undici';

async function main(): Promise<void> {
  const url = `${process.env.BARE_URL}/api/alerts/`;
  const headers = {
    accept: 'application/json',
    authorization: `Bearer ${process.env.BARE_TOKEN}`,
    'content-type': 'application/json',
  };
  const template = process.env.BARE_BODY!;
  const n = Number(process.env.BARE_N);
  const lanes = Number(process.env.BARE_P);
  let next = 0;
  let ok = 0;
  const lane = async () => {
    while (next < n) {
      const i = next++;
      await new Promise<void>((resolve) => setImmediate(resolve));
      const res = await request(url, { method: 'POST', headers, body: template.replace('NAME', `bare ${i}`) });
      await res.body.text();
      if (res.statusCode >= 200 && res.statusCode < 300) ok++;
    }
  };
  await Promise.all(Array.from({ length: lanes }, lane));
  if (ok !== n) {
    console.error(`${n - ok} of ${n} POSTs failed`);
    process.exitCode = 1;
  }
}

void main();
