/**
 * Reading the app's local Terraform states (src/read/terraform-state.ts) and the rule over
 * them (src/plan/terraform-held.ts): where each stack's state is, what of it is kept, which
 * files are refused (without quoting them), and which planned changes the warning names.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { ConfigError } from '../../src/contract/config-error';
import { readStateFile, readTerraformStates, stateLocations } from '../../src/read/terraform-state';
import { heldByAccount, heldByStack, terraformStateWarnings } from '../../src/plan/terraform-held';
import type { Account } from '../../src/plan/accounts';
import type { Change, HeldAlert } from '../../src/plan/types';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'ncalc-tfstate-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const PROVIDER = 'provider["registry.terraform.io/networkcalc/networkcalc"]';

function state(resources: unknown[]): string {
  return JSON.stringify({ version: 4, terraform_version: '1.11.4', serial: 3, lineage: 'x', outputs: {}, resources });
}

describe('stateLocations', () => {
  it('the local backend path (absolute, or relative to the stack directory), terraform.tfstate without one, the app default without a backend, none for a remote backend', () => {
    const out = path.join(dir, 'cdktf.out');
    const stack = (name: string, terraform?: unknown) => ({ name, json: terraform ? { terraform } : {} });
    expect(
      stateLocations(
        [
          stack('abs', { backend: { local: { path: '/somewhere/terraform.abs.tfstate' } } }),
          stack('rel', { backend: { local: { path: '../../rel.tfstate' } } }),
          stack('nopath', { backend: { local: {} } }),
          stack('none'),
          stack('remote', { backend: { s3: { bucket: 'b' } } }),
        ],
        dir,
        out,
      ),
    ).toEqual([
      { stack: 'abs', file: '/somewhere/terraform.abs.tfstate' },
      { stack: 'rel', file: path.join(out, 'rel.tfstate') },
      { stack: 'nopath', file: path.join(out, 'stacks', 'nopath', 'terraform.tfstate') },
      { stack: 'none', file: path.join(dir, 'terraform.none.tfstate') },
    ]);
  });
});

describe('readStateFile', () => {
  const at = (text: string | null) => {
    const file = path.join(dir, 'terraform.prod.tfstate');
    if (text !== null) writeFileSync(file, text);
    return { stack: 'prod', file };
  };

  it('a missing or empty file holds nothing', () => {
    expect(readStateFile(at(null))).toEqual([]);
    expect(readStateFile(at('  \n'))).toEqual([]);
  });

  it('keeps the alerts only: address (with index key), provider key, id (string or number), name', () => {
    const loc = at(
      state([
        {
          mode: 'managed',
          type: 'networkcalc_alert',
          name: 'Www_1A2B',
          provider: PROVIDER,
          instances: [{ attributes: { id: '42', name: 'www', token: 'not-kept' } }],
        },
        {
          mode: 'managed',
          type: 'networkcalc_alert',
          name: 'each',
          provider: `${PROVIDER}.staging`,
          instances: [
            { index_key: 'a', attributes: { id: 7, name: 'a' } },
            { index_key: 0, attributes: { id: null, name: 'b' } },
          ],
        },
        { mode: 'data', type: 'networkcalc_alert', name: 'x', instances: [{ attributes: { id: '1' } }] },
        { mode: 'managed', type: 'networkcalc_report_trigger', name: 'r', instances: [{ attributes: { id: '2' } }] },
      ]),
    );
    const base = { file: loc.file, stack: 'prod' };
    expect(readStateFile(loc)).toEqual([
      { ...base, providerKey: 'networkcalc', address: 'networkcalc_alert.Www_1A2B', id: 42, name: 'www' },
      { ...base, providerKey: 'networkcalc.staging', address: 'networkcalc_alert.each["a"]', id: 7, name: 'a' },
      { ...base, providerKey: 'networkcalc.staging', address: 'networkcalc_alert.each[0]', id: null, name: 'b' },
    ]);
  });

  it.each([
    ['not JSON', '{"version": 4, "token": "s3cr3t" oops', 'is not JSON'],
    ['not an object', '[1, 2]', 'holds an array, not a state'],
    ['another format version', '{"version": 3, "modules": []}', 'is a state of format version 3, not 4'],
    ['resources not a list', '{"version": 4, "resources": {}}', 'has no list of resources'],
  ])('%s: an error naming the file and the ways out, quoting none of it', (_what, text, why) => {
    const loc = at(text);
    let error: unknown;
    try {
      readStateFile(loc);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const message = (error as ConfigError).problems.join('\n');
    expect(message).toBe(
      `${loc.file} (the Terraform state of stack prod) ${why}, so ncalc cannot tell which alerts Terraform holds; restore it (terraform state pull), move it away if it is not a state, or pass --ignore-terraform-state`,
    );
    expect(message).not.toContain('s3cr3t');
  });

  it('readTerraformStates lists every unreadable state in one error', () => {
    mkdirSync(path.join(dir, 'out'));
    writeFileSync(path.join(dir, 'terraform.a.tfstate'), 'x');
    writeFileSync(path.join(dir, 'terraform.b.tfstate'), 'y');
    expect(() =>
      readTerraformStates(
        [
          { name: 'a', json: {} },
          { name: 'b', json: {} },
        ],
        dir,
        path.join(dir, 'out'),
      ),
    ).toThrow(/terraform\.a\.tfstate.*\n.*terraform\.b\.tfstate/);
  });
});

describe('the rule', () => {
  const held = (over: Partial<HeldAlert>): HeldAlert => ({
    file: '/app/terraform.prod.tfstate',
    stack: 'prod',
    providerKey: 'networkcalc',
    address: 'networkcalc_alert.x',
    id: 1,
    name: 'x',
    ...over,
  });
  const change = (action: Change['action'], name: string, id: number | null): Change => ({
    action,
    reason: action === 'create' ? 'missing' : action === 'delete' ? 'destroy' : 'changed',
    name,
    id,
    scopeKey: 'prod/networkcalc',
    stack: 'prod',
    logicalId: null,
    path: null,
    before: null,
    after: null,
    fields: [],
  });

  it('names the updates and deletes of held alerts (by id; by name when held without one), never creates', () => {
    const warnings = terraformStateWarnings(
      [
        change('create', 'new', null),
        change('update', 'a', 1),
        change('delete', 'b', 2),
        change('update', 'nameless', 9),
        change('update', 'free', 3),
      ],
      [
        held({ id: 1, name: 'a', address: 'networkcalc_alert.A' }),
        held({ id: 2, name: 'b', address: 'networkcalc_alert.B' }),
        held({ id: null, name: 'nameless', address: 'networkcalc_alert.N' }),
      ],
    );
    expect(warnings).toEqual([
      {
        scopeKey: 'prod/networkcalc',
        message:
          'the Terraform state /app/terraform.prod.tfstate (stack prod) holds 3 alerts this plan would change and delete: "a" (id 1, networkcalc_alert.A), "b" (id 2, networkcalc_alert.B), "nameless" (id 9, networkcalc_alert.N). ' +
          'ncalc apply and destroy refuse to write to them: use one door per stack (terraform or cdktn deploy for it, or ncalc after terraform state rm of those addresses), or pass --ignore-terraform-state to write anyway',
        terraformState: { file: '/app/terraform.prod.tfstate', ids: [1, 2, 9] },
      },
    ]);
    expect(terraformStateWarnings([change('update', 'free', 3)], [held({})])).toEqual([]);
  });

  it("held alerts belong to their provider configuration's account; those of a configuration the app lost, to the accounts of their stack", () => {
    const account = (keys: Array<[string, string]>) =>
      ({ scopes: keys.map(([stack, key]) => ({ stack, key: `${stack}/${key}` })) }) as unknown as Account;
    const prod = account([['prod', 'networkcalc']]);
    const staging = account([['prod', 'networkcalc.staging']]);
    const all = heldByStack([
      held({ providerKey: 'networkcalc', id: 1 }),
      held({ providerKey: 'networkcalc.staging', id: 2 }),
      held({ providerKey: 'networkcalc.gone', id: 3 }),
      held({ stack: 'other', providerKey: 'networkcalc', id: 4 }),
    ]);
    const appKeys = new Set(['prod/networkcalc', 'prod/networkcalc.staging']);
    expect(heldByAccount(prod, all, appKeys).map((h) => h.id)).toEqual([1, 3]);
    expect(heldByAccount(staging, all, appKeys).map((h) => h.id)).toEqual([2, 3]);
  });
});
