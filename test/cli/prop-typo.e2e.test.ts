/**
 * A mistyped prop in an app run by tsx (which does not type-check): `ncalc validate` names it,
 * with the prop meant, and says nothing of the problems it causes.
 */
import { requireBuild } from '../helpers/build';
import { HEADER, TsApp } from '../codegen/support';
import { cliEnv, ncalc } from './support';

jest.setTimeout(120_000);

let app: TsApp | undefined;
afterAll(() => app?.remove());

it('names `dnsRecrod` and the prop meant, and exits 1', async () => {
  requireBuild('dist/index.js');
  app = new TsApp({
    'main.ts': `${HEADER}
new Alert(stack, 'ExampleMx', {
  name: 'example.com MX',
  target: AlertTarget.domain('example.com'),
  dnsRecrod: { record: 'MX', filter: 'contains', value: 'mail.example.com' },
} as never);
app.synth();
`,
  });
  const r = await ncalc(['validate'], { cwd: app.dir, env: cliEnv({}) });
  expect(r.stderr.split('\n')).toEqual([
    'Error: the configuration is not valid; nothing was changed.',
    '  - [main/ExampleMx] unknown property `dnsRecrod` (did you mean `dnsRecord`?)',
    '',
  ]);
  expect(r.code).toBe(1);
});
