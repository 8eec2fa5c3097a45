/**
 * Provider start-up: time from exec to the handshake line on stdout, as terraform sees it
 * (it starts 2–5 provider processes per command). Spawns the built provider N times with
 * the magic cookie and a fresh client certificate, and prints median and p95.
 *
 *   npx tsc -p tsconfig.build.json && npx tsx bench/provider-startup.ts [N] [script]
 */
import { spawn } from 'node:child_process';
import * as path from 'node:path';
import { MAGIC_COOKIE_KEY, MAGIC_COOKIE_VALUE } from '../src/provider/handshake';
import { generateServerCertificate } from '../src/provider/tls';
import { timeHandshake } from './handshake';

const N = Number(process.argv[2] ?? 20);
const script = path.resolve(process.argv[3] ?? path.join(__dirname, '..', 'dist', 'provider', 'bin.js'));

async function once(clientCertPem: string, disableTls = false): Promise<number> {
  const env = {
    ...process.env,
    [MAGIC_COOKIE_KEY]: MAGIC_COOKIE_VALUE,
    PLUGIN_PROTOCOL_VERSIONS: '5,6',
    PLUGIN_CLIENT_CERT: clientCertPem,
    ...(disableTls ? { TF_DISABLE_PLUGIN_TLS: '1' } : {}),
  };
  return (await timeHandshake(process.execPath, [script], env)).wallMs;
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;

async function series(label: string, disableTls: boolean): Promise<void> {
  const clientCert = generateServerCertificate().certPem; // terraform's client cert has the same shape
  await once(clientCert, disableTls); // warm the file cache, as any second terraform run would be
  const times: number[] = [];
  for (let i = 0; i < N; i++) times.push(await once(clientCert, disableTls));
  times.sort((a, b) => a - b);
  const f = (n: number) => `${n.toFixed(0)} ms`;
  console.log(
    `${label}: N=${N} median ${f(percentile(times, 50))}, p95 ${f(percentile(times, 95))}, min ${f(times[0]!)}, max ${f(times[times.length - 1]!)}`,
  );
}

async function main(): Promise<void> {
  console.log(`script: ${path.relative(process.cwd(), script)}; node ${process.version}`);
  const boot: number[] = [];
  for (let i = 0; i < 5; i++) {
    const t = process.hrtime.bigint();
    await new Promise<void>((res) => spawn(process.execPath, ['-e', '0']).on('exit', () => res()));
    boot.push(Number(process.hrtime.bigint() - t) / 1e6);
  }
  boot.sort((a, b) => a - b);
  console.log(`bare node boot: median ${boot[2]!.toFixed(0)} ms`);
  await series('exec → handshake (mTLS)', false);
  await series('exec → handshake (TF_DISABLE_PLUGIN_TLS=1)', true);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
