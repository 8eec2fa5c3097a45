/**
 * Round trips of `ncalc drift --suggest --terraform-plan`'s engine with the real terraform,
 * our provider and the emulator (one DELETE form, 20 ms latency, creates whose answer is
 * lost): alerts changed or deleted in the account → `terraform plan -refresh-only` → `show
 * -json` → suggestFromTerraformPlan → writeSuggestions into a git work tree → `terraform fmt
 * -check` and `terraform plan -detailed-exitcode` exit 0.
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, readFileSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { DEMO_ACCOUNT, startEmulator, type RunningEmulator } from '../../src/emulator';
import { suggestFromTerraformPlan } from '../../src/codegen/suggest-hcl';
import { writeSuggestions } from '../../src/codegen/write';
import {
  expectStatus,
  NetworkcalcSandbox,
  REQUIRED_PROVIDERS,
  requirePrerequisites,
  type TfResult,
} from '../provider/nc-harness';

jest.setTimeout(300_000);

async function strictEmulator(): Promise<RunningEmulator> {
  const emu = await startEmulator({ deleteForm: 'path', randomSeed: 11 });
  await emu.control.addFault({ kind: 'latency', latencyMs: 20, match: { path: '/api/' } });
  await emu.control.addFault({
    kind: 'drop',
    phase: 'after',
    rate: 0.1,
    match: { method: 'POST', path: '/api/alerts' },
  });
  return emu;
}

function git(dir: string, ...args: string[]): string {
  return execFileSync('git', ['-c', 'user.name=test', '-c', 'user.email=test@example.com', ...args], {
    cwd: dir,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

class Project {
  constructor(
    readonly sb: NetworkcalcSandbox,
    readonly emu: RunningEmulator,
  ) {}

  get dir(): string {
    return this.sb.workDir;
  }

  read(file = 'main.tf'): string {
    return readFileSync(path.join(this.dir, file), 'utf8');
  }

  write(text: string, file = 'main.tf'): void {
    writeFileSync(path.join(this.dir, file), text);
  }

  commit(): void {
    git(this.dir, 'add', '--', '*.tf');
    git(this.dir, 'commit', '-q', '-m', 'configuration');
  }

  async tf(args: string[], status?: number): Promise<TfResult> {
    const r = await this.sb.terraform(args);
    if (status !== undefined) expectStatus(r, status);
    return r;
  }

  /** The refresh-only plan's JSON, as the user makes it, and the JSON file's modification time. */
  async driftPlan(): Promise<{ plan: unknown; mtimeMs: number }> {
    await this.tf(['plan', '-refresh-only', '-out=drift.tfplan'], 0);
    const show = await this.tf(['show', '-json', 'drift.tfplan'], 0);
    const file = path.join(this.dir, 'drift.json');
    writeFileSync(file, show.stdout);
    return { plan: JSON.parse(show.stdout), mtimeMs: statSync(file).mtimeMs };
  }

  async alertId(name: string): Promise<number> {
    const alert = (await this.emu.control.state()).accounts[0]!.alerts.find((a) => a.name === name);
    if (!alert) throw new Error(`no live alert ${name}`);
    return alert.id;
  }

  async patchLive(name: string, fields: Record<string, unknown>): Promise<void> {
    await this.emu.control.patchAlert(DEMO_ACCOUNT.name, await this.alertId(name), fields);
  }

  /** Writes (POST, PATCH, DELETE) the API has seen since the last clear. */
  async writes(): Promise<number> {
    let n = 0;
    for (const method of ['POST', 'PATCH', 'DELETE'])
      n += await this.emu.control.countRequests({ method, pathPrefix: '/api/alerts' });
    return n;
  }
}

async function openProject(config: string | ((emu: RunningEmulator) => Promise<string>)): Promise<Project> {
  const emu = await strictEmulator();
  const sb = new NetworkcalcSandbox({ NETWORKCALC_BASE_URL: emu.url, NETWORKCALC_TOKEN: DEMO_ACCOUNT.token });
  const p = new Project(sb, emu);
  git(p.dir, 'init', '-q');
  p.write(typeof config === 'string' ? config : await config(emu));
  p.commit();
  await p.tf(['init'], 0);
  return p;
}

async function closeProject(p: Project | undefined): Promise<void> {
  p?.sb.dispose();
  await p?.emu.close();
}

const CONFIG = (goneId: number) => `${REQUIRED_PROVIDERS}
provider "networkcalc" {}

variable "days" {
  type    = string
  default = "14"
}

data "networkcalc_subdomain" "www" {
  name = "www.example.com"
}

# Certificate of www: renew in time.
resource "networkcalc_alert" "www_cert" {
  name         = "www.example.com certificate expiry"
  type         = "Certificate (TLS)"
  filter       = "expires in (days)"
  filter_value = "21"
  target_type  = "subdomain"
  target_id    = data.networkcalc_subdomain.www.id
}

resource "networkcalc_alert" "apex_spf" {
  name        = "example.com SPF validity"
  type        = "SPF Record"
  filter      = "validity"
  target_type = "domain"
  target_id   = 1
}

resource "networkcalc_alert" "apex_a" {
  name         = "example.com A record"
  type         = "DNS Record"
  subtype      = "A"
  filter       = "equals"
  filter_value = "93.184.215.14"
  target_type  = "domain"
  target_id    = 1
}

resource "networkcalc_alert" "mail_cert" {
  name         = "mail.example.com certificate expiry"
  type         = "Certificate (TLS)"
  filter       = "expires in (days)"
  filter_value = var.days
  target_type  = "subdomain"
  target_id    = 3
}

# Adopted from the console.
resource "networkcalc_alert" "legacy" {
  name        = "example.org SPF validity"
  type        = "SPF Record"
  filter      = "validity"
  target_type = "domain"
  target_id   = 4
}

import {
  to = networkcalc_alert.legacy
  id = "${goneId}"
}

resource "networkcalc_alert" "org_txt" {
  name         = "example.org TXT"
  type         = "DNS Record"
  subtype      = "TXT"
  filter       = "contains"
  filter_value = "v=spf1 $\${literal}"
  target_type  = "domain"
  target_id    = 4
}
`;

describe('terraform drift → suggestions → edited .tf → empty plan', () => {
  let p: Project | undefined;
  const project = () => p!;

  beforeAll(async () => {
    requirePrerequisites();
    // The alert the import block adopts exists before the first apply.
    p = await openProject(async (emu) => {
      const legacy = await emu.control.createAlert(DEMO_ACCOUNT.name, {
        name: 'example.org SPF validity',
        type: 'SPF Record',
        filter: 'validity',
        target_type: 'domain',
        target_id: 4,
      });
      return CONFIG(legacy.id);
    });
    const apply = await project().tf(['apply', '-auto-approve'], 0);
    expect(apply.stdout).toMatch(/1 imported, 5 added/);
    await project().tf(['plan', '-refresh-only', '-detailed-exitcode'], 0);
  });
  afterAll(() => closeProject(p));

  test('changed literals become edits, a variable and a deletion are explained, and the plan is empty after', async () => {
    const pr = project();
    await pr.patchLive('www.example.com certificate expiry', { filter_value: '30' });
    await pr.patchLive('example.com SPF validity', { filter: 'contains', filter_value: 'v=spf1 ${x} %{y}' });
    await pr.patchLive('example.com A record', {
      type: 'SPF Record',
      subtype: null,
      filter: 'does not contain',
      filter_value: '~all',
    });
    await pr.patchLive('mail.example.com certificate expiry', { filter_value: '7' });
    await pr.emu.control.deleteAlert(DEMO_ACCOUNT.name, await pr.alertId('example.org SPF validity'));
    const before = pr.read();
    const { plan, mtimeMs } = await pr.driftPlan();

    const r = suggestFromTerraformPlan(plan, pr.dir, { planFileMtimeMs: mtimeMs });
    expect(r.problems).toEqual([]);
    const byPath = new Map(r.suggestions.map((s) => [s.path, s]));
    expect([...byPath.keys()].sort()).toEqual([
      'networkcalc_alert.apex_a',
      'networkcalc_alert.apex_spf',
      'networkcalc_alert.legacy',
      'networkcalc_alert.mail_cert',
      'networkcalc_alert.www_cert',
    ]);
    const line = (needle: string) => before.split('\n').findIndex((l) => l.includes(needle)) + 1;

    const cert = byPath.get('networkcalc_alert.www_cert')!;
    expect(cert).toMatchObject({
      kind: 'changed',
      account: 'networkcalc',
      alert: 'www.example.com certificate expiry',
      file: 'main.tf',
      line: line('filter_value = "21"'),
      summary: 'networkcalc_alert.www_cert: filter_value "21" → "30"',
    });
    expect(cert.diff).toContain('-  filter_value = "21"\n+  filter_value = "30"\n');

    const spf = byPath.get('networkcalc_alert.apex_spf')!;
    expect(spf.summary).toBe(
      'networkcalc_alert.apex_spf: filter "validity" → "contains", filter_value unset → "v=spf1 ${x} %{y}"',
    );
    // The new line is aligned as terraform fmt aligns the block, and its template sigils are escaped.
    expect(spf.diff).toContain('+  filter_value = "v=spf1 $${x} %%{y}"\n');
    expect(spf.diff).toContain('+  target_type  = "domain"\n');

    const a = byPath.get('networkcalc_alert.apex_a')!;
    expect(a.summary).toBe(
      'networkcalc_alert.apex_a: type "DNS Record" → "SPF Record", subtype "A" → unset, filter "equals" → "does not contain", filter_value "93.184.215.14" → "~all"',
    );
    expect(a.diff).toContain('-  subtype      = "A"\n');

    const mail = byPath.get('networkcalc_alert.mail_cert')!;
    expect(mail).toMatchObject({ kind: 'changed', edits: [], diff: null, line: line('filter_value = var.days') });
    expect(mail.summary).toBe(
      `networkcalc_alert.mail_cert: filter_value is not a literal (main.tf:${line('filter_value = var.days')}: var.days); set it to "7" where it comes from`,
    );

    const legacy = byPath.get('networkcalc_alert.legacy')!;
    expect(legacy).toMatchObject({ kind: 'deleted', alert: 'example.org SPF validity', line: line('"legacy" {') });
    expect(legacy.summary).toBe(
      'networkcalc_alert.legacy: deleted in the account: `terraform apply` re-creates it, or delete the block and its import block (the diff) and run `terraform apply -refresh-only` to accept the deletion',
    );

    const written = writeSuggestions(pr.dir, r.suggestions, r.snapshots);
    expect(written).toEqual({ written: ['main.tf'], problems: [] });
    const after = pr.read();
    expect(after).not.toContain('networkcalc_alert" "legacy"');
    expect(after).not.toContain('import {');
    // The comment above the deleted block stays; the one above www_cert too.
    expect(after).toContain('# Adopted from the console.\n');
    expect(after).toContain('# Certificate of www: renew in time.\n');
    // The diffs are what was written.
    const patch = r.suggestions.map((s) => s.diff ?? '').join('');
    expect(patch).not.toBe('');
    await pr.tf(['fmt', '-check', '-diff'], 0);

    await pr.emu.control.clearRequests();
    // The deletion is recorded in the state; the variable is set where it comes from.
    await pr.tf(['apply', '-refresh-only', '-auto-approve', '-var', 'days=7'], 0);
    await pr.tf(['plan', '-detailed-exitcode', '-var', 'days=7'], 0);
    await pr.tf(['plan', '-refresh-only', '-detailed-exitcode', '-var', 'days=7'], 0);
    expect(await pr.writes()).toBe(0);
    expect(JSON.parse(pr.sb.readState()).resources.map((x: { name: string }) => x.name)).not.toContain('legacy');
  });

  test('without terraform apply -refresh-only, the plan after deleting the block is already empty', async () => {
    const pr = project();
    pr.commit();
    await pr.emu.control.deleteAlert(DEMO_ACCOUNT.name, await pr.alertId('example.org TXT'));
    const { plan, mtimeMs } = await pr.driftPlan();
    const r = suggestFromTerraformPlan(plan, pr.dir, { planFileMtimeMs: mtimeMs });
    expect(r.suggestions.map((s) => [s.kind, s.path])).toEqual([['deleted', 'networkcalc_alert.org_txt']]);
    expect(writeSuggestions(pr.dir, r.suggestions, r.snapshots).problems).toEqual([]);
    await pr.tf(['fmt', '-check', '-diff'], 0);
    await pr.tf(['plan', '-detailed-exitcode', '-var', 'days=7'], 0);
    // Only the drift check still sees the deletion until the refresh is applied.
    await pr.tf(['plan', '-refresh-only', '-detailed-exitcode', '-var', 'days=7'], 2);
    await pr.tf(['apply', '-refresh-only', '-auto-approve', '-var', 'days=7'], 0);
    await pr.tf(['plan', '-refresh-only', '-detailed-exitcode', '-var', 'days=7'], 0);
    pr.commit();
  });

  describe('bad input: a clear problem, nothing written', () => {
    let drift: { plan: unknown; mtimeMs: number };
    let config: string;
    beforeAll(async () => {
      const pr = project();
      config = pr.read();
      await pr.patchLive('www.example.com certificate expiry', { filter_value: '45' });
      drift = await pr.driftPlan();
    });
    afterEach(() => {
      const pr = project();
      const file = path.join(pr.dir, 'main.tf');
      chmodSync(file, 0o644);
      pr.write(config);
      const before = new Date(drift.mtimeMs - 5000);
      utimesSync(file, before, before);
    });

    test('JSON that is not a refresh-only plan is a problem, never "no drift"', async () => {
      const pr = project();
      const state = JSON.parse((await pr.tf(['show', '-json'], 0)).stdout);
      await pr.tf(['plan', '-out=normal.tfplan', '-var', 'days=7'], 0);
      const normal = JSON.parse((await pr.tf(['show', '-json', 'normal.tfplan'], 0)).stdout);
      const cases: [unknown, RegExp][] = [
        [[], /expected a JSON object, found a list/],
        [null, /expected a JSON object, found null/],
        [{ resource_drift: [] }, /it has no format_version/],
        [{ ...(drift.plan as object), format_version: '2.0' }, /format_version 2\.0 is not supported/],
        [state, /it is the JSON of a state/],
        [normal, /it plans changes \(networkcalc_alert\.www_cert\), so it is a normal plan/],
        [{ ...(drift.plan as object), resource_drift: {} }, /resource_drift is not a list/],
        [{ ...(drift.plan as object), errored: true }, /the plan failed/],
      ];
      for (const [input, message] of cases) {
        const r = suggestFromTerraformPlan(input, pr.dir);
        expect(r.suggestions).toEqual([]);
        expect(r.problems).toHaveLength(1);
        expect(r.problems[0]).toMatch(/^not the JSON of a refresh-only terraform plan: /);
        expect(r.problems[0]).toMatch(message);
        expect(r.problems[0]).toContain('terraform plan -refresh-only -out=drift.tfplan');
      }
    });

    test('a .tf that no longer parses: the file and line, no suggestion', () => {
      const pr = project();
      pr.write(config.replace('filter_value = "30"', 'filter_value = "30'));
      const r = suggestFromTerraformPlan(drift.plan, pr.dir, { planFileMtimeMs: drift.mtimeMs });
      const line = config.split('\n').findIndex((l) => l.includes('filter_value = "30"')) + 1;
      expect(r.problems).toEqual([
        `main.tf:${line}: unterminated string (a quoted string ends on its line): this file does not parse here, and the block of networkcalc_alert.www_cert is not in the other files; fix it (terraform validate points there too) and make the plan again, or make the edit by hand`,
      ]);
      expect(r.suggestions).toEqual([]);
    });

    test('an address whose block is not in the .tf files is a problem', () => {
      const pr = project();
      pr.write(config.replace('"www_cert"', '"www_certificate"'));
      const r = suggestFromTerraformPlan(drift.plan, pr.dir, { planFileMtimeMs: drift.mtimeMs });
      expect(r.suggestions).toEqual([]);
      expect(r.problems).toEqual([
        `networkcalc_alert.www_cert is in the plan, but no resource "networkcalc_alert" "www_cert" block is in the .tf files of ${pr.dir}; make the plan and the suggestions from the same directory`,
      ]);
    });

    test('a file modified after the plan: the write is refused, nothing written', () => {
      const pr = project();
      const later = new Date(drift.mtimeMs + 5000);
      utimesSync(path.join(pr.dir, 'main.tf'), later, later);
      const r = suggestFromTerraformPlan(drift.plan, pr.dir, { planFileMtimeMs: drift.mtimeMs });
      expect(r.snapshots).toEqual([expect.objectContaining({ file: 'main.tf', changedSincePlan: true })]);
      expect(r.suggestions).toHaveLength(1);
      const w = writeSuggestions(pr.dir, r.suggestions, r.snapshots);
      expect(w.written).toEqual([]);
      expect(w.problems).toEqual(['main.tf changed since the drift was checked; run ncalc drift --suggest again']);
      expect(pr.read()).toBe(config);
    });

    // Refused for root too: the write looks at the mode bits, not only at access(W_OK).
    test('a read-only file: the write is refused, nothing written', () => {
      const pr = project();
      const r = suggestFromTerraformPlan(drift.plan, pr.dir, { planFileMtimeMs: drift.mtimeMs });
      expect(r.snapshots[0].changedSincePlan).toBeUndefined();
      chmodSync(path.join(pr.dir, 'main.tf'), 0o444);
      const w = writeSuggestions(pr.dir, r.suggestions, r.snapshots);
      expect(w).toEqual({
        written: [],
        problems: ['main.tf is read-only; make it writable, or apply the diff by hand'],
      });
      expect(pr.read()).toBe(config);
    });
  });
});

describe('300 alerts in one .tf, 30 changed in the account', () => {
  const COUNT = 300;
  let p: Project | undefined;

  const block = (i: number) =>
    i % 2
      ? `resource "networkcalc_alert" "cert_${i}" {
  name         = "cert ${i}"
  type         = "Certificate (TLS)"
  filter       = "expires in (days)"
  filter_value = "21"
  target_type  = "subdomain"
  target_id    = 2
}
`
      : `resource "networkcalc_alert" "spf_${i}" {
  name        = "spf ${i}"
  type        = "SPF Record"
  filter      = "validity"
  target_type = "domain"
  target_id   = 1
}
`;

  beforeAll(async () => {
    requirePrerequisites();
    const blocks = Array.from({ length: COUNT }, (_, i) => block(i));
    p = await openProject(`${REQUIRED_PROVIDERS}\nprovider "networkcalc" {}\n\n${blocks.join('\n')}`);
    const apply = await p.tf(['apply', '-auto-approve', '-parallelism=30'], 0);
    expect(apply.stdout).toContain(`Resources: ${COUNT} added`);
  });
  afterAll(() => closeProject(p));

  test('all 30 edits apply, terraform fmt has nothing to change and the plan is empty', async () => {
    const pr = p!;
    const drifted: string[] = [];
    for (let i = 5; drifted.length < 30; i += 10) {
      const name = i % 2 ? `cert ${i}` : `spf ${i}`;
      await pr.patchLive(name, i % 2 ? { filter_value: String(i) } : { filter: 'equals', filter_value: `v=spf1 ${i}` });
      drifted.push(i % 2 ? `networkcalc_alert.cert_${i}` : `networkcalc_alert.spf_${i}`);
      if (drifted.length < 30) {
        const j = i + 1;
        await pr.patchLive(
          j % 2 ? `cert ${j}` : `spf ${j}`,
          j % 2 ? { filter_value: '60' } : { filter: 'contains', filter_value: 'v=spf1' },
        );
        drifted.push(j % 2 ? `networkcalc_alert.cert_${j}` : `networkcalc_alert.spf_${j}`);
      }
    }
    await pr.emu.control.clearRequests();
    const { plan, mtimeMs } = await pr.driftPlan();
    const started = process.hrtime.bigint();
    const r = suggestFromTerraformPlan(plan, pr.dir, { planFileMtimeMs: mtimeMs });
    const ms = Number(process.hrtime.bigint() - started) / 1e6;
    expect(r.problems).toEqual([]);
    expect(r.suggestions.map((s) => s.path).sort()).toEqual([...drifted].sort());
    expect(r.suggestions.every((s) => s.edits.length > 0 && s.kind === 'changed')).toBe(true);
    expect(ms).toBeLessThan(2000);
    expect(writeSuggestions(pr.dir, r.suggestions, r.snapshots)).toEqual({ written: ['main.tf'], problems: [] });
    await pr.tf(['fmt', '-check', '-diff'], 0);
    await pr.tf(['plan', '-detailed-exitcode'], 0);
    // The plans read the account with list calls only: one per refresh, no per-alert GET and no write.
    expect(await pr.writes()).toBe(0);
    const gets = await pr.emu.control.requestCounts({ method: 'GET', pathPrefix: '/api/alerts' });
    expect(gets.count).toBeLessThanOrEqual(4);
  });
});
