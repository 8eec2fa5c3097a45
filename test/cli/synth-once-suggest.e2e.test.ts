/**
 * `drift --suggest` in a shard that reads the output of `ncalc synth` made in another
 * checkout (another CI job): the declarations come from what the synth recorded, the files are
 * checked unchanged by content, and the edit it writes makes the next plan empty.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { NetworkCalcClient } from '../../src/client';
import { requireBuild } from '../helpers/build';
import { useEmulator } from '../helpers/emulator';
import { HEADER, TsApp } from '../codegen/support';
import { cliEnv, ncalc } from './support';

jest.setTimeout(120_000);

const emulator = useEmulator();
let app: TsApp;
let elsewhere: string;
beforeAll(() => {
  requireBuild('dist/index.js');
  app = new TsApp({
    'main.ts': `${HEADER}
new Alert(stack, 'WwwCertificate', {
  name: 'www certificate expiry',
  target: AlertTarget.subdomain('www.example.com'),
  certificate: { expiresInDays: 21 },
});
app.synth();
`,
  });
});
afterAll(() => {
  app?.remove();
  if (elsewhere) rmSync(elsewhere, { recursive: true, force: true });
});

const env = () => cliEnv({ NETWORKCALC_TOKEN: 'demo-token', NETWORKCALC_BASE_URL: emulator().url });

it('suggests and writes the edit from a synth output made in another checkout, and refuses once the code changed', async () => {
  expect((await ncalc(['apply', '--auto-approve'], { cwd: app.dir, env: env() })).code).toBe(0);
  const [cert] = await new NetworkCalcClient({ baseUrl: emulator().url, token: 'demo-token' }).listAlerts();
  await emulator().control.patchAlert('demo', cert!.id, { filter_value: '30' });

  // The synth job: runs the app once and records where each construct is declared.
  const synth = await ncalc(['synth', '--out', 'shared'], { cwd: app.dir, env: cliEnv({}) });
  expect(synth.code).toBe(0);
  const sources = JSON.parse(readFileSync(path.join(app.dir, 'shared', 'ncalc-sources.json'), 'utf8'));
  expect(Object.keys(sources.sources)).toEqual(['main.ts']);
  expect(sources.locations.every((l: { file: string }) => l.file === 'main.ts')).toBe(true);

  // A shard job: another checkout of the same commit, with the output as an artifact.
  elsewhere = mkdtempSync(path.join(tmpdir(), 'ncalc-shard-'));
  cpSync(app.dir, elsewhere, { recursive: true, verbatimSymlinks: true });
  const shard = (...args: string[]) =>
    ncalc(['drift', '--suggest', '--no-synth', '--out', 'shared', ...args], { cwd: elsewhere, env: env() });
  const r = await shard('--json');
  expect(r.stderr).toBe('');
  expect(r.code).toBe(2);
  const { suggest } = JSON.parse(r.stdout);
  expect(suggest.problems).toEqual([]);
  expect(
    suggest.suggestions.map((s: { kind: string; file: string; line: number }) => [s.kind, s.file, s.line]),
  ).toEqual([
    ['changed', 'main.ts', app.read('main.ts').split('\n').indexOf("new Alert(stack, 'WwwCertificate', {") + 1],
  ]);
  expect((await shard('--write')).code).toBe(2);
  expect(readFileSync(path.join(elsewhere, 'main.ts'), 'utf8')).toContain('expiresInDays: 30');
  const plan = await ncalc(['plan', '--detailed-exitcode'], { cwd: elsewhere, env: env() });
  expect(plan.stdout).toContain('No changes');
  expect(plan.code).toBe(0);

  // The code changed since the synth: a suggestion would edit what the output did not come from.
  const again = await shard();
  expect(again.code).toBe(1);
  expect(again.stderr).toContain(
    'main.ts changed since ncalc synth wrote ' + path.join(elsewhere, 'shared') + '; --suggest would edit code',
  );
});
