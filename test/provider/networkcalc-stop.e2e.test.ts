/**
 * Ctrl-C during apply: terraform calls StopProvider and waits for the calls in flight. The
 * provider must not keep them waiting on retries (here a 429 asking for 30 s).
 */
import { spawn } from 'node:child_process';
import { DEMO_ACCOUNT, startEmulator, type RunningEmulator } from '../../src/emulator';
import {
  expectStatus,
  NetworkcalcSandbox,
  REQUIRED_PROVIDERS,
  requirePrerequisites,
  type TfResult,
} from './nc-harness';

jest.setTimeout(120_000);

const config = `${REQUIRED_PROVIDERS}
provider "networkcalc" {}

resource "networkcalc_alert" "slow" {
  name        = "slow"
  type        = "SPF Record"
  filter      = "validity"
  target_type = "domain"
  target_id   = 1
}
`;

/** Runs terraform and sends SIGINT to its process group (as a terminal's Ctrl-C does) once `when` shows in its output. */
function interrupted(
  sb: NetworkcalcSandbox,
  args: string[],
  when: string,
  delayMs: number,
): Promise<TfResult & { afterInterruptMs: number }> {
  return new Promise((resolve, reject) => {
    const child = spawn('terraform', [...args, '-no-color'], {
      cwd: sb.workDir,
      env: sb.env,
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    let stdout = '';
    let stderr = '';
    let sentAt: number | undefined;
    const kill = setTimeout(() => process.kill(-child.pid!, 'SIGKILL'), 90_000);
    child.stdout.on('data', (d: Buffer) => {
      stdout += d.toString();
      if (sentAt === undefined && stdout.includes(when)) {
        sentAt = Infinity;
        setTimeout(() => {
          sentAt = Date.now();
          process.kill(-child.pid!, 'SIGINT');
        }, delayMs);
      }
    });
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (status) => {
      clearTimeout(kill);
      resolve({
        status,
        stdout,
        stderr,
        output: `${stdout}\n${stderr}`,
        afterInterruptMs: Date.now() - (sentAt ?? NaN),
      });
    });
  });
}

describe('stop during apply', () => {
  let emu: RunningEmulator;
  let sb: NetworkcalcSandbox;

  beforeAll(async () => {
    requirePrerequisites();
    emu = await startEmulator();
    sb = new NetworkcalcSandbox({ NETWORKCALC_BASE_URL: emu.url, NETWORKCALC_TOKEN: DEMO_ACCOUNT.token });
    sb.writeConfig(config);
    expectStatus(await sb.terraform(['init']), 0);
  });
  afterAll(async () => {
    sb?.dispose();
    await emu?.close();
  });

  test('Ctrl-C while a create waits to retry a 429 ends the apply at once, with the error and no second POST', async () => {
    await emu.control.addFault({
      kind: 'rate_limit',
      retryAfterSeconds: 30,
      match: { method: 'POST', path: '/api/alerts' },
    });
    const r = await interrupted(sb, ['apply', '-auto-approve'], 'Creating...', 1000);
    expect(r.output).toContain('Interrupt received');
    expect(r.afterInterruptMs).toBeLessThan(10_000);
    expect(r.status).toBe(1);
    expect(r.output.replace(/\s+/g, ' ')).toContain('RATE_LIMITED (HTTP 429)');
    expect(r.output.replace(/\s+/g, ' ')).toContain('not retried: asked to stop');
    const posts = (await emu.control.requests()).filter((q) => q.method === 'POST' && q.path.startsWith('/api/alerts'));
    expect(posts).toHaveLength(1);
    expect((await emu.control.state()).accounts[0]!.alerts).toEqual([]);
  });
});
