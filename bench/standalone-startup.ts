/**
 * Start-up of the standalone provider executable (release/build.ts) beside today's wrapper of
 * `ncalc provider install` (a shell script that execs node on dist/provider/bin.js): exec to the
 * handshake line, wall time and CPU time (user + system of the process, all its threads, read
 * from /proc when the line arrives). The kinds run interleaved, N times each after a warm-up.
 * Linux only (/proc).
 *
 *   npm run build && npm ci --force --prefix release/node24 && npx tsx bench/standalone-startup.ts [N]
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { artifactNames, buildRelease } from '../release/build';
import { platformNamed } from '../release/platforms';
import { installProvider, PACKAGE_NAME } from '../src/cli/provider-command';
import { MAGIC_COOKIE_KEY, MAGIC_COOKIE_VALUE } from '../src/provider/handshake';
import { PROVIDER_VERSION } from '../src/schema';
import { generateServerCertificate } from '../src/provider/tls';
import { type HandshakeSample, TICK_MS, timeHandshake } from './handshake';
import { benchEnv, ROOT } from './support';

const N = Number(process.argv[2] ?? 20);
const once = (executable: string, env: NodeJS.ProcessEnv) => timeHandshake(executable, [], env);

/** The three executables: the wrapper, and the standalone one with and without a V8 code cache. */
async function executables(root: string): Promise<Record<string, string>> {
  mkdirSync(path.join(root, 'node_modules'));
  symlinkSync(ROOT, path.join(root, 'node_modules', PACKAGE_NAME), 'dir');
  const wrapper = installProvider({ dir: path.join(root, 'mirror') }).binaryPath;
  const linux = platformNamed('linux_amd64');
  const names = artifactNames(PROVIDER_VERSION);
  const standalone = async (label: string, codeCache: boolean) => {
    const out = path.join(root, label);
    await buildRelease({ outDir: out, platforms: [linux], codeCache });
    execFileSync('unzip', ['-q', path.join(out, names.zip(linux)), '-d', out]);
    return path.join(out, names.executable(linux));
  };
  return {
    'wrapper (sh → node dist/provider/bin.js)': wrapper,
    'standalone, no code cache': await standalone('plain', false),
    'standalone, V8 code cache (useCodeCache)': await standalone('cached', true),
  };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const p95 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.ceil(0.95 * xs.length) - 1)]!;

async function main(): Promise<void> {
  const root = mkdtempSync(path.join(tmpdir(), 'nc-startup-'));
  try {
    const kinds = await executables(root);
    // The provider's socket folders: a killed provider leaves its own behind.
    const childTmp = path.join(root, 'tmp');
    mkdirSync(childTmp);
    const env = benchEnv({
      TMPDIR: childTmp,
      [MAGIC_COOKIE_KEY]: MAGIC_COOKIE_VALUE,
      PLUGIN_PROTOCOL_VERSIONS: '5,6',
      PLUGIN_CLIENT_CERT: generateServerCertificate().certPem,
    });
    const samples = new Map<string, HandshakeSample[]>(Object.keys(kinds).map((k) => [k, []]));
    for (const exe of Object.values(kinds)) await once(exe, env); // warm the file cache
    for (let i = 0; i < N; i++)
      for (const [kind, exe] of Object.entries(kinds)) samples.get(kind)!.push(await once(exe, env));
    console.log(`N=${N} each, interleaved; node ${process.version} for the wrapper; CPU resolution ${TICK_MS} ms\n`);
    console.log('| executable | wall, median / p95 | CPU (user + sys), median / p95 |');
    console.log('|---|---|---|');
    for (const [kind, xs] of samples) {
      const wall = xs.map((s) => s.wallMs);
      const cpu = xs.map((s) => s.cpuMs);
      console.log(
        `| ${kind} | ${median(wall).toFixed(0)} / ${p95(wall).toFixed(0)} ms | ${median(cpu).toFixed(0)} / ${p95(cpu).toFixed(0)} ms |`,
      );
    }
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
