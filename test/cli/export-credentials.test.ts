/**
 * `ncalc export --account PREFIX` resolves credentials as every other command does: a token,
 * with the client credentials beside it when both are set.
 */
import { useEmulator } from '../helpers/emulator';
import { cliEnv, ncalc } from './support';

const emulator = useEmulator();

it('GIVEN a refused PREFIX_TOKEN and valid PREFIX_CLIENT_ID / SECRET THEN export falls back to the client credentials', async () => {
  await emulator().control.createAlert('demo', {
    name: 'apex A',
    type: 'DNS Record',
    subtype: 'A',
    filter: 'equals',
    filter_value: '192.0.2.1',
    target: 'example.com',
  });
  const env = cliEnv({
    ACME_TOKEN: 'revoked-or-expired',
    ACME_CLIENT_ID: 'demo-client',
    ACME_CLIENT_SECRET: 'demo-secret',
    ACME_BASE_URL: emulator().url,
  });
  const r = await ncalc(['export', '--account', 'ACME'], { cwd: process.cwd(), env });
  expect(r.stderr).toContain('Exported 1 alert of account ACME.');
  expect(r.code).toBe(0);
  expect(r.stdout).toContain("name: 'apex A'");
  const log = (await emulator().control.requests()).map((q) => `${q.method} ${q.path} ${q.status}`);
  expect(log).toContain('POST /api/auth/token 200');
  expect(log.filter((l) => l.endsWith(' 401')).length).toBeGreaterThan(0);
});

it('GIVEN half a credential pair under the prefix THEN the problem names the prefix variables, and nothing is sent', async () => {
  const env = cliEnv({ ACME_CLIENT_ID: 'demo-client', ACME_BASE_URL: emulator().url });
  const r = await ncalc(['export', '--account', 'ACME'], { cwd: process.cwd(), env });
  expect(r.code).toBe(1);
  expect(r.stderr).toContain(
    '--account ACME: no credentials (ACME_CLIENT_ID is set but ACME_CLIENT_SECRET is not); set ACME_TOKEN, or ACME_CLIENT_ID and ACME_CLIENT_SECRET',
  );
  expect(await emulator().control.requests()).toEqual([]);
});
