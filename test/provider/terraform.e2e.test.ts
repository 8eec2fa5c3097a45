/**
 * The protocol layer driven by the real terraform binary, offline, through a filesystem
 * mirror: a toy resource (networkcalc_test_thing, kept in a JSON file) goes through
 * init → plan → apply → no-op plan → update → replace → drift → import → destroy.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { requireFreshBuild, requireTerraform, TerraformSandbox, type TfResult } from './harness';

// Each terraform command is bounded by the harness (90 s); the whole flow takes ~10 s.
jest.setTimeout(120_000);

const FIXTURE = path.join(__dirname, 'fixtures', 'thing-provider.js');

interface Thing {
  id: string;
  name: string;
  size: number | null;
  tags: Record<string, string> | null;
  zone: string | null;
  secret: string | null;
  revision: number;
}

function config(store: string, thing: string): string {
  return `
terraform {
  required_providers {
    networkcalc = { source = "networkcalc/networkcalc", version = "0.1.0" }
  }
}

provider "networkcalc" {
  store = ${JSON.stringify(store)}
}

resource "networkcalc_test_thing" "a" {
${thing}
}

data "networkcalc_test_census" "all" {
  depends_on = [networkcalc_test_thing.a]
}

output "total" {
  value = data.networkcalc_test_census.all.total
}
`;
}

const expectStatus = (r: TfResult, status: number) => {
  if (r.status !== status) throw new Error(`expected exit ${status}, got ${r.status}:\n${r.output}`);
};

describe('terraform drives the provider end to end', () => {
  let sb: TerraformSandbox;
  let store: string;
  const things = (): Thing[] =>
    Object.values((JSON.parse(readFileSync(store, 'utf8')) as { things: Record<string, Thing> }).things);

  beforeAll(() => {
    requireTerraform();
    requireFreshBuild();
    sb = new TerraformSandbox(FIXTURE);
    store = path.join(sb.root, 'store.json');
  });
  afterAll(() => sb?.dispose());

  const first = `  name   = "alpha"\n  size   = 3\n  tags   = { env = "test" }\n  zone   = "z1"\n  secret = "s3cret"`;
  const updated = first.replace('size   = 3', 'size   = 4.5');
  const replaced = updated.replace('"z1"', '"z2"');

  test('init installs the provider from the filesystem mirror', () => {
    sb.writeConfig(config(store, first));
    const r = sb.run('init');
    expectStatus(r, 0);
    expect(r.output).toContain('Installed networkcalc/networkcalc v0.1.0');
  });

  test('plan shows a create with computed values unknown', () => {
    const r = sb.run('plan', '-detailed-exitcode');
    expectStatus(r, 2);
    expect(r.stdout).toContain('networkcalc_test_thing.a will be created');
    expect(r.stdout).toMatch(/\+ id\s+= \(known after apply\)/);
    expect(r.stdout).toMatch(/\+ secret\s+= \(sensitive value\)/);
  });

  test('apply creates the thing', () => {
    const r = sb.run('apply', '-auto-approve');
    expectStatus(r, 0);
    expect(r.stdout).toContain('Apply complete! Resources: 1 added, 0 changed, 0 destroyed.');
    expect(things()).toEqual([
      { id: 'thing-1', name: 'alpha', size: 3, tags: { env: 'test' }, zone: 'z1', secret: 's3cret', revision: 1 },
    ]);
    expect(r.stdout).toMatch(/total = 1/);
  });

  test('a second plan, and a refresh-only plan, find nothing to do', () => {
    expectStatus(sb.run('plan', '-detailed-exitcode'), 0);
    // Numbers read back must compare equal to the stored ones (sent as msgpack strings).
    expectStatus(sb.run('plan', '-refresh-only', '-detailed-exitcode'), 0);
  });

  test('a changed attribute updates in place, keeping the id', () => {
    sb.writeConfig(config(store, updated));
    const plan = sb.run('plan', '-detailed-exitcode');
    expectStatus(plan, 2);
    expect(plan.stdout).toContain('networkcalc_test_thing.a will be updated in-place');
    expect(plan.stdout).toMatch(/~ size\s+= 3 -> 4\.5/);
    expect(plan.stdout).toMatch(/id\s+= "thing-1"/); // stable: not "(known after apply)"
    expect(plan.stdout).toMatch(/~ revision\s+= 1 -> \(known after apply\)/);
    const r = sb.run('apply', '-auto-approve');
    expectStatus(r, 0);
    expect(r.stdout).toContain('Resources: 0 added, 1 changed, 0 destroyed.');
    expect(things()).toMatchObject([{ id: 'thing-1', size: 4.5, revision: 2 }]);
    expectStatus(sb.run('plan', '-detailed-exitcode'), 0);
  });

  test('a requiresReplace attribute replaces the thing', () => {
    sb.writeConfig(config(store, replaced));
    const plan = sb.run('plan', '-detailed-exitcode');
    expectStatus(plan, 2);
    expect(plan.stdout).toContain('networkcalc_test_thing.a must be replaced');
    expect(plan.stdout).toMatch(/~ zone\s+= "z1" -> "z2" # forces replacement/);
    const r = sb.run('apply', '-auto-approve');
    expectStatus(r, 0);
    expect(r.stdout).toContain('Resources: 1 added, 0 changed, 1 destroyed.');
    expect(things()).toMatchObject([{ id: 'thing-2', zone: 'z2', revision: 1 }]);
  });

  test('an out-of-band edit is drift: refresh-only plan exits 2', () => {
    const data = JSON.parse(readFileSync(store, 'utf8')) as { things: Record<string, Thing> };
    data.things['thing-2']!.name = 'edited';
    writeFileSync(store, JSON.stringify(data));
    const r = sb.run('plan', '-refresh-only', '-detailed-exitcode');
    expectStatus(r, 2);
    expect(r.stdout).toMatch(/~ name\s+= "alpha" -> "edited"/);
    // A normal apply puts the configured name back.
    expectStatus(sb.run('apply', '-auto-approve'), 0);
    expect(things()).toMatchObject([{ id: 'thing-2', name: 'alpha' }]);
  });

  test('an out-of-band delete leads to a planned re-create with a warning', () => {
    writeFileSync(store, JSON.stringify({ things: {}, next: 10 }));
    const r = sb.run('plan', '-detailed-exitcode');
    expectStatus(r, 2);
    expect(r.output).toContain('Thing gone');
    expect(r.stdout).toContain('networkcalc_test_thing.a will be created');
    expectStatus(sb.run('apply', '-auto-approve'), 0);
    expect(things()).toMatchObject([{ id: 'thing-10', name: 'alpha' }]);
  });

  test('terraform import adopts an existing thing, then plans no changes', () => {
    expectStatus(sb.run('state', 'rm', 'networkcalc_test_thing.a'), 0);
    const r = sb.run('import', 'networkcalc_test_thing.a', 'thing-10');
    expectStatus(r, 0);
    expect(r.stdout).toContain('Import successful!');
    const show = sb.run('state', 'show', 'networkcalc_test_thing.a');
    expectStatus(show, 0);
    expect(show.stdout).toMatch(/name\s+= "alpha"/);
    // secret is not returned by a real API on import either; here it is, so nothing to do.
    expectStatus(sb.run('plan', '-detailed-exitcode'), 0);
  });

  test("importing an id that does not exist fails with the provider's message", () => {
    expectStatus(sb.run('state', 'rm', 'networkcalc_test_thing.a'), 0);
    const r = sb.run('import', 'networkcalc_test_thing.a', 'thing-404');
    expectStatus(r, 1);
    expect(r.output).toMatch(/Cannot import non-existent remote object|Thing gone/);
    expectStatus(sb.run('import', 'networkcalc_test_thing.a', 'thing-10'), 0);
  });

  test('an import block adopts an existing thing during plan and apply', () => {
    expectStatus(sb.run('state', 'rm', 'networkcalc_test_thing.a'), 0);
    sb.writeConfig(config(store, replaced) + '\nimport {\n  to = networkcalc_test_thing.a\n  id = "thing-10"\n}\n');
    const plan = sb.run('plan', '-detailed-exitcode');
    expect(plan.stdout).toContain('networkcalc_test_thing.a will be imported');
    const r = sb.run('apply', '-auto-approve');
    expectStatus(r, 0);
    expect(r.stdout).toContain('Resources: 1 imported, 0 added, 0 changed, 0 destroyed.');
    sb.writeConfig(config(store, replaced));
    expectStatus(sb.run('plan', '-detailed-exitcode'), 0);
  });

  test('validation errors come back as diagnostics with the attribute', () => {
    sb.writeConfig(config(store, '  name = "Not Valid!"'));
    const r = sb.run('validate');
    expectStatus(r, 1);
    expect(r.output).toContain('Error: Invalid name');
    expect(r.output).toContain('has characters other than a-z, 0-9 and "-"');
    expect(r.output).toMatch(
      /with networkcalc_test_thing\.a,\s+on main\.tf line \d+, in resource "networkcalc_test_thing" "a":\s+\d+:\s+name = "Not Valid!"/,
    );
  });

  test('destroy deletes it', () => {
    sb.writeConfig(config(store, replaced));
    const r = sb.run('destroy', '-auto-approve');
    expectStatus(r, 0);
    expect(r.stdout).toContain('Destroy complete! Resources: 1 destroyed.');
    expect(things()).toEqual([]);
  });
});
