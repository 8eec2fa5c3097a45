import { type LiveAlert } from '../../src/model';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { exportHcl, exportQuote, exportTypeScript, type ExportInput } from '../../src/codegen/export';
import { exportInput, liveAlert } from '../helpers/fixtures';

const live = (id: number, over: Partial<LiveAlert>): LiveAlert => liveAlert(id, { name: `a${id}`, ...over });

const input = (alerts: LiveAlert[]): ExportInput =>
  exportInput(alerts, {
    domains: [
      {
        id: 1,
        domain: 'example.com',
        subdomains: [{ id: 2, domain_id: 1, prefix: 'www', subdomain: 'www.example.com' }],
      },
    ],
  });

describe('export', () => {
  it('names known targets, keeps unknown ones as ids, and gives unique construct ids', () => {
    const ts = exportTypeScript(
      input([
        live(1, { name: 'web a' }),
        live(2, { name: 'web-a', target_type: 'subdomain', target_id: 2 }),
        live(3, { name: '1st', target_id: 77 }),
      ]),
    );
    expect(ts).toContain("new Alert(this, 'WebA', {");
    expect(ts).toContain("new Alert(this, 'WebA2', {");
    expect(ts).toContain("new Alert(this, 'Alert1st', {");
    expect(ts).toContain("target: AlertTarget.subdomain('www.example.com'),");
    expect(ts).toContain('target: AlertTarget.domainId(77),');
    expect(ts).toContain('ownership: Ownership.exclusive()');
    expect(ts).toMatch(/new ExportedStack\(app, 'exported'\);\napp\.synth\(\);/);
  });

  it('skips what the model rejects, with the reason as a comment', () => {
    const ts = exportTypeScript(
      input([live(4, { name: 'bad', type: 'SPF Record', subtype: 'A' } as Partial<LiveAlert>)]),
    );
    expect(ts).toMatch(/\/\/ not exported: alert 4 "bad": subtype "A" is not valid/);
    expect(ts).not.toContain('new Alert(');
  });

  it('HCL escapes interpolation and adds import blocks', () => {
    const hcl = exportHcl(input([live(5, { name: 'x ${y} %{z}', filter_value: '"q"' })]));
    expect(hcl).toContain('name         = "x $${y} %%{z}"');
    expect(hcl).toContain('filter_value = "\\"q\\""');
    expect(hcl).toContain('import {\n  to = networkcalc_alert.x_y_z\n  id = "5"\n}');
    expect(hcl).toContain('target_id    = data.networkcalc_domain.example_com.id');
  });
});

describe('export --with-targets', () => {
  const withTargets = (alerts: LiveAlert[], alias: string | null = null): ExportInput => {
    const base = input(alerts);
    return { ...base, account: { ...base.account, alias }, withTargets: true };
  };

  it('declares the domains and subdomains first and points the alerts at them; unknown targets stay ids', () => {
    const ts = exportTypeScript(
      withTargets([
        live(1, { name: 'www a', target_type: 'subdomain', target_id: 2 }),
        live(3, { name: 'lost', target_id: 77 }),
      ]),
    );
    expect(ts).toContain(
      "import { Alert, AlertTarget, Domain, NetworkcalcAccount, Ownership, Subdomain } from 'cdktf-provider-networkcalc';",
    );
    const domain = ts.indexOf("const exampleCom = new Domain(this, 'ExampleCom', { name: 'example.com' });");
    const sub = ts.indexOf(
      "const wwwExampleCom = new Subdomain(this, 'WwwExampleCom', { domain: exampleCom, prefix: 'www' });",
    );
    expect(domain).toBeGreaterThan(-1);
    expect(sub).toBeGreaterThan(domain);
    expect(ts.indexOf("new Alert(this, 'WwwA', {")).toBeGreaterThan(sub);
    expect(ts).toContain('target: wwwExampleCom,');
    expect(ts).toContain('target: AlertTarget.domainId(77),');
    // Construct ids of the alerts are the same as without the targets.
    expect(exportTypeScript(input([live(1, { name: 'www a', target_type: 'subdomain', target_id: 2 })]))).toContain(
      "new Alert(this, 'WwwA', {",
    );
  });

  it('a target named like an alert gets its own construct id', () => {
    const ts = exportTypeScript(withTargets([live(1, { name: 'example.com' })]));
    expect(ts).toContain("new Alert(this, 'ExampleCom', {");
    expect(ts).toContain("const exampleCom2 = new Domain(this, 'ExampleCom2', { name: 'example.com' });");
    expect(ts).toContain('target: exampleCom2,');
    expect(ts).not.toContain('AlertTarget');
  });

  it('HCL: resources with import blocks under the alias, the alerts referring to them', () => {
    const hcl = exportHcl(withTargets([live(1, { name: 'apex a' })], 'team'));
    expect(hcl).toContain(
      'import {\n  to       = networkcalc_domain.example_com\n  id       = "1"\n  provider = networkcalc.team\n}',
    );
    expect(hcl).toContain(
      'resource "networkcalc_domain" "example_com" {\n  provider = networkcalc.team\n  name     = "example.com"\n}',
    );
    expect(hcl).toContain(
      'resource "networkcalc_subdomain" "www_example_com" {\n  provider  = networkcalc.team\n  domain_id = networkcalc_domain.example_com.id\n  prefix    = "www"\n}',
    );
    expect(hcl).toContain('target_id    = networkcalc_domain.example_com.id');
    expect(hcl).not.toContain('data "networkcalc_');
  });

  it('without the flag nothing changes: targets by name, no declarations', () => {
    const ts = exportTypeScript(input([live(1, { name: 'apex a' })]));
    expect(ts).not.toContain('new Domain(');
    expect(exportHcl(input([live(1, { name: 'apex a' })]))).not.toContain('resource "networkcalc_domain"');
  });
});

describe("export: one quote style, the app's own when its formatter settings say", () => {
  const quoted = (ts: string, quote: string) =>
    ts
      .split('\n')
      .filter((l) => !/^\s*(\/\/|\/?\*)/.test(l))
      .every((l) => !l.includes(quote === "'" ? '"' : "'"));

  it('single quotes by default, double when asked; never both', () => {
    const alerts = [live(1, { name: 'it\'s "web"', target_type: 'subdomain', target_id: 2 }), live(2, {})];
    const single = exportTypeScript(input(alerts));
    expect(single).toContain("import { App, TerraformStack } from 'cdktf';");
    expect(single).toContain(
      "import { Alert, AlertTarget, NetworkcalcAccount, Ownership } from 'cdktf-provider-networkcalc';",
    );
    expect(single).toContain(`name: 'it\\'s "web"',`);
    const double = exportTypeScript({ ...input(alerts), quote: '"' });
    expect(double).toContain('import { Construct } from "constructs";');
    expect(double).toContain('new NetworkcalcAccount(this, "Account", {');
    expect(double).toContain(`name: "it's \\"web\\"",`);
    expect(quoted(single.replace(`'it\\'s "web"'`, ''), "'")).toBe(true);
    expect(quoted(double.replace(`"it's \\"web\\""`, ''), '"')).toBe(true);
  });

  it.each([
    [{ '.prettierrc': '{ "singleQuote": true }' }, "'"],
    [{ '.prettierrc.yaml': 'singleQuote: false\n' }, '"'],
    [{ '.prettierrc': '{ "printWidth": 100 }' }, '"'],
    [{ 'package.json': '{ "prettier": { "singleQuote": true } }' }, "'"],
    [{ '.editorconfig': 'root = true\n[*]\nquote_type = double\n' }, '"'],
    [{ 'package.json': '{ "name": "app" }' }, null],
  ])('%p: %p', (files, quote) => {
    const dir = mkdtempSync(path.join(tmpdir(), 'ncalc-quote-'));
    try {
      for (const [name, text] of Object.entries(files)) writeFileSync(path.join(dir, name), text);
      expect(exportQuote(dir)).toBe(quote);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
