/**
 * An AlertPolicy check "expires before renewal fails": the construct writes it for ncalc, and
 * ncalc chooses the days per target at plan time from the certificate each target serves
 * (local TLS servers with 47-, 100-, 200- and 398-day certificates, a local DNS server, the
 * emulator's domains), falling back to the longest lifetime allowed today when it cannot read one.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { TerraformStack } from 'cdktf';
import { NetworkcalcAccount } from '../../src/constructs';
import { AlertPolicy, PolicyMode } from '../../src/constructs/alert-policy';
import type { EmulatorSeed } from '../../src/emulator';
import { largestQuietThreshold, maxLifetimeDays } from '../../src/model/renewal';
import { TLS_PORT_ENV } from '../../src/preview';
import { synthError, tempApp } from '../constructs/support';
import { startDnsServer, type RunningDns } from '../helpers/dns-server';
import { useEmulator } from '../helpers/emulator';
import { SERVES, STALLS, lifetimeCertificate, startTlsServers, type RunningTls } from '../helpers/tls-servers';
import { FixtureApp, cliEnv, ncalc, stack } from './support';

describe('the construct', () => {
  test('writes the check with threshold "before renewal fails" and no value', () => {
    const { app, outdir } = tempApp();
    const s = new TerraformStack(app, 'main');
    new NetworkcalcAccount(s, 'Account');
    new AlertPolicy(s, 'Certs', {
      mode: PolicyMode.GENERATE,
      checks: [{ certificate: { expiresBeforeRenewalFails: true } }],
    });
    app.synth();
    const json = JSON.parse(fs.readFileSync(path.join(outdir, 'stacks', 'main', 'cdk.tf.json'), 'utf8'));
    const policy = Object.values(json['//'].networkcalc_alert_policies)[0] as { checks: unknown[] };
    expect(policy.checks).toEqual([
      {
        label: 'certificate expiry',
        type: 'Certificate (TLS)',
        filter: 'expires in (days)',
        threshold: 'before renewal fails',
      },
    ]);
  });

  test('refuses it beside expiresInDays or subject, and a value that is not a boolean', () => {
    const { app } = tempApp();
    const s = new TerraformStack(app, 'main');
    new NetworkcalcAccount(s, 'Account');
    new AlertPolicy(s, 'Certs', {
      mode: PolicyMode.GENERATE,
      checks: [
        { certificate: { expiresBeforeRenewalFails: true, expiresInDays: 21 } },
        { certificate: { expiresBeforeRenewalFails: 'yes' as unknown as boolean } },
      ],
    });
    const message = synthError(app);
    expect(message).toContain(
      'checks[0].certificate has expiresBeforeRenewalFails with expiresInDays; give expiresBeforeRenewalFails alone (it chooses the days per target)',
    );
    expect(message).toContain('checks[1].certificate.expiresBeforeRenewalFails is a string "yes"; give true or false');
  });
});

describe('ncalc at plan time', () => {
  const TOKEN = 'renewal-token-9e0a';
  const SEED: EmulatorSeed = {
    accounts: [
      {
        name: 'rn',
        user_id: 31,
        tokens: [{ access_token: TOKEN }],
        domains: ['c47', 'c100', 'c200', 'c398', 'stall'].map((h, i) => ({ id: i + 1, domain: `${h}.test` })),
      },
    ],
  };
  const emulator = useEmulator({ seed: SEED });
  let dns: RunningDns;
  let tls: RunningTls;
  let app: FixtureApp;
  beforeAll(async () => {
    dns = await startDnsServer({
      'c47.test': { A: [SERVES] },
      'c100.test': { A: [SERVES] },
      'c200.test': { A: [SERVES] },
      'c398.test': { A: [SERVES] },
      'stall.test': { A: [STALLS] },
    });
    tls = await startTlsServers({
      'c47.test': lifetimeCertificate('c47.test', 47, 10),
      'c100.test': lifetimeCertificate('c100.test', 100, 10),
      'c200.test': lifetimeCertificate('c200.test', 200, 10),
      'c398.test': lifetimeCertificate('c398.test', 398, 10),
    });
    const json = stack({ provider: {} });
    json['//'] = {
      networkcalc_alert_policies: {
        Certs: {
          path: 'main/Certs',
          mode: 'generate',
          checks: [
            {
              label: 'cert',
              type: 'Certificate (TLS)',
              filter: 'expires in (days)',
              threshold: 'before renewal fails',
            },
          ],
        },
      },
    };
    app = new FixtureApp({ main: json });
  });
  afterAll(async () => {
    app?.remove();
    await Promise.all([dns?.close(), tls?.close()]);
  });

  // Long enough for a handshake on two loaded cores (400 ms was not); the stalling host waits it out.
  const LOOKUP_MS = '3000';

  test('GIVEN 47/100/200/398-day certificates THEN 15/33/66/132 days; an unreadable one gets the longest lifetime allowed today, with a warning', async () => {
    const env = cliEnv({
      NETWORKCALC_TOKEN: TOKEN,
      NETWORKCALC_BASE_URL: emulator().url,
      [TLS_PORT_ENV]: String(tls.port),
    });
    const r = await ncalc(['plan', '--json', '--resolver', dns.address, '--lookup-timeout', LOOKUP_MS], {
      cwd: app.dir,
      env,
    });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const doc = JSON.parse(r.stdout);
    const days = Object.fromEntries(
      doc.accounts[0].changes.map((c: { name: string; after: { filter_value: string } }) => [
        c.name,
        c.after.filter_value,
      ]),
    );
    const fallback = largestQuietThreshold(maxLifetimeDays(new Date()));
    expect(days).toEqual({
      'cert · c47.test': '15',
      'cert · c100.test': '33',
      'cert · c200.test': '66',
      'cert · c398.test': '132',
      'cert · stall.test': String(fallback),
    });
    expect(doc.accounts[0].warnings).toEqual([
      `the certificate of stall.test could not be read (stall.test (${STALLS}:${tls.port}) did not complete a TLS handshake within ${LOOKUP_MS} ms); its "before renewal fails" threshold is ${fallback} days, for the longest lifetime allowed today (${maxLifetimeDays(new Date())} days)`,
    ]);

    // Applied, then planned again: the same days, no change.
    expect(
      (
        await ncalc(['apply', '--auto-approve', '--resolver', dns.address, '--lookup-timeout', LOOKUP_MS], {
          cwd: app.dir,
          env,
        })
      ).code,
    ).toBe(0);
    const again = await ncalc(['plan', '--resolver', dns.address, '--lookup-timeout', LOOKUP_MS], {
      cwd: app.dir,
      env,
    });
    expect(again.stdout).toContain('Plan: 0 to create, 0 to update, 0 to delete.');
  }, 120_000);
});
