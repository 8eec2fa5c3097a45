/**
 * One schema, two consumers: what terraform reads from the running provider must be exactly
 * what `ncalc provider schema` prints and what the bindings are generated from.
 */
import { terraformSchemaJson } from '../../src/schema';
import { NetworkcalcSandbox, REQUIRED_PROVIDERS, expectStatus, requirePrerequisites } from './nc-harness';

let sandbox: NetworkcalcSandbox;

beforeAll(() => {
  requirePrerequisites();
  sandbox = new NetworkcalcSandbox({});
  sandbox.writeConfig(REQUIRED_PROVIDERS);
});
afterAll(() => sandbox?.dispose());

it('terraform providers schema -json equals the schema the package defines', async () => {
  expectStatus(await sandbox.terraform(['init']), 0);
  const r = await sandbox.terraform(['providers', 'schema', '-json']);
  expectStatus(r, 0);
  expect(JSON.parse(r.stdout)).toEqual(terraformSchemaJson());
}, 120_000);
