import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { CLI, cliEnv } from '../cli/support';
import { alive, waitFor } from '../helpers/processes';

describe('the app ncalc runs ends with ncalc', () => {
  let dir: string;
  let appPid = 0;
  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'ncalc-orphans-'));
    // An app that never finishes and says who it is: the shell ncalc starts runs node in it.
    writeFileSync(
      path.join(dir, 'cdktf.json'),
      JSON.stringify({
        app: `node -e "require('fs').writeFileSync('app.pid', String(process.pid)); setInterval(() => {}, 1000)"`,
      }),
    );
    appPid = 0;
  });
  afterEach(() => {
    if (appPid && alive(appPid)) process.kill(appPid, 'SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  });

  /**
   * A killed ncalc cannot remove its own temporary folder (the app's problems file), so its
   * TMPDIR is inside the test's folder, removed after each test.
   */
  function killedCliEnv(): NodeJS.ProcessEnv {
    const tmp = path.join(dir, 'tmp');
    mkdirSync(tmp, { recursive: true });
    return cliEnv({ TMPDIR: tmp });
  }

  /** Starts `ncalc plan` on the app and waits until the app runs. */
  async function started() {
    const child = spawn(process.execPath, [CLI, 'plan'], { cwd: dir, env: killedCliEnv(), stdio: 'ignore' });
    const closed = new Promise<void>((resolve) => child.on('close', () => resolve()));
    const pidFile = path.join(dir, 'app.pid');
    await waitFor('the app starting', () => existsSync(pidFile) && readFileSync(pidFile, 'utf8') !== '', 15_000);
    appPid = Number(readFileSync(pidFile, 'utf8'));
    expect(alive(appPid)).toBe(true);
    return { child, closed };
  }

  it.each(['SIGKILL', 'SIGTERM', 'SIGINT'] as const)(
    'GIVEN a synth in progress WHEN ncalc gets %s THEN the app is gone within seconds',
    async (signal) => {
      const { child, closed } = await started();
      child.kill(signal);
      await closed;
      await waitFor('the app ending with ncalc', () => !alive(appPid), 5_000);
    },
    30_000,
  );

  it('GIVEN a synth that ends THEN its watchdog leaves without a kill', async () => {
    // The app notes its process group (field 5 of /proc/self/stat), which the watchdog names.
    const pgrp = `require('fs').readFileSync('/proc/self/stat', 'utf8').split(') ')[1].split(' ')[2]`;
    writeFileSync(
      path.join(dir, 'cdktf.json'),
      JSON.stringify({ app: `node -e "require('fs').writeFileSync('app.pgid', ${pgrp}); process.exit(3)"` }),
    );
    const child = spawn(process.execPath, [CLI, 'plan'], { cwd: dir, env: killedCliEnv(), stdio: 'ignore' });
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(code).toBe(1);
    const pgid = readFileSync(path.join(dir, 'app.pgid'), 'utf8').trim();
    expect(pgid).toMatch(/^\d+$/);
    await waitFor(
      'the watchdog shell leaving',
      () => !readProcesses().some((p) => p.includes('ncalc-synth-watchdog') && p.endsWith(` ${pgid} `)),
      5_000,
    );
  }, 30_000);
});

/** Command lines of the processes of this machine (Linux /proc). */
function readProcesses(): string[] {
  const out: string[] = [];
  for (const pid of readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      out.push(readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' '));
    } catch {
      /* gone */
    }
  }
  return out;
}
