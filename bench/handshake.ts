/**
 * One start of a provider executable, timed as terraform waits for it: from exec to the
 * handshake line on stdout. Shared by bench/provider-startup.ts and bench/standalone-startup.ts.
 */
import { execFileSync, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';

const TIMEOUT_MS = 10_000;

/** Milliseconds per clock tick of /proc's CPU figures. */
export const TICK_MS = 1000 / Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim());

export interface HandshakeSample {
  wallMs: number;
  /** utime + stime of the process (all its threads) when the line arrived, from /proc. */
  cpuMs: number;
}

/** utime + stime of a process, in ms (fields 14 and 15 of /proc/<pid>/stat). */
function cpuOf(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * TICK_MS;
}

/** Starts `command args` with `env`, waits for a protocol-6 handshake line, then kills it. */
export function timeHandshake(command: string, args: string[], env: NodeJS.ProcessEnv): Promise<HandshakeSample> {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const child = spawn(command, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`no handshake within ${TIMEOUT_MS} ms`));
    }, TIMEOUT_MS);
    let out = '';
    let err = '';
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      if (!out.includes('\n')) return;
      const wallMs = Number(process.hrtime.bigint() - started) / 1e6;
      const cpuMs = cpuOf(child.pid!);
      clearTimeout(timer);
      child.kill('SIGKILL');
      if (!/^1\|6\|unix\|[^|]+\|grpc\|/.test(out)) reject(new Error(`bad handshake: ${out}`));
      else resolve({ wallMs, cpuMs });
    });
    child.on('exit', (code) => {
      if (!out.includes('\n')) {
        clearTimeout(timer);
        reject(new Error(`exited ${code} before the handshake: ${err}`));
      }
    });
  });
}
