/**
 * A property of `ncalc drift --suggest --terraform-plan` on HCL configurations, with the real
 * terraform, our provider and the emulator (one DELETE form, latency): for any set of changes
 * and deletions made in the console (and alerts added there, which Terraform does not manage),
 * the combined patch applies (git apply), terraform fmt finds nothing to change, and the next
 * plan changes only resources whose suggestion has no diff and says why. The configurations
 * are generated from a seed: aligned blocks, comments, blank lines, a value from a variable,
 * a block repeated by count, two files.
 */
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { DEMO_ACCOUNT, startEmulator, type RunningEmulator } from '../../src/emulator';
import { suggestFromTerraformPlan } from '../../src/codegen/suggest-hcl';
import { combinedPatch } from '../../src/codegen/write';
import { expectStatus, NetworkcalcSandbox, REQUIRED_PROVIDERS, requirePrerequisites } from '../provider/nc-harness';
import { Random, propertySeeds, withSeed } from './property';

jest.setTimeout(600_000);

const FILES = ['main.tf', 'alerts.tf'];
const TARGETS = [
  { type: 'subdomain', id: DEMO_ACCOUNT.subdomains['www.example.com'] },
  { type: 'domain', id: DEMO_ACCOUNT.domains['example.org'] },
];

interface Resource {
  name: string;
  /** Its live name (of its first instance when it has a count). */
  alert: string;
  /** Where the console may change it: a literal, or a value from an expression (explained, no edit). */
  days: 'literal' | 'variable';
  count: number | null;
}

/** Generated .tf files and the resources they declare. */
function generate(r: Random, round: number): { files: Record<string, string>; resources: Resource[] } {
  const files: Record<string, string[]> = {
    'main.tf': [
      REQUIRED_PROVIDERS,
      'provider "networkcalc" {}',
      '',
      'variable "days" {',
      '  type    = string',
      '  default = "14"',
      '}',
      '',
    ],
    'alerts.tf': [],
  };
  const resources: Resource[] = [];
  const n = r.int(3, 6);
  for (let i = 0; i < n; i++) {
    const name = `r${round}_${i}`;
    const alert = `round ${round} alert ${i}`;
    const target = r.pick(TARGETS);
    const days = r.chance(0.2) ? 'variable' : 'literal';
    const count = r.chance(0.15) ? 2 : null;
    const out = files[r.pick(FILES)];
    if (r.chance(0.4)) out.push(`# ${alert}: renew in time.`);
    out.push(`resource "networkcalc_alert" "${name}" {`);
    if (count) out.push(`  count = ${count}`, '');
    out.push(
      `  name         = ${count ? `"${alert} \${count.index}"` : `"${alert}"`}`,
      '  type         = "Certificate (TLS)"',
      '  filter       = "expires in (days)"',
      `  filter_value = ${days === 'variable' ? 'var.days' : `"${r.int(7, 40)}"`}${r.chance(0.3) ? ' # days' : ''}`,
      `  target_type  = "${target.type}"`,
      `  target_id    = ${target.id}`,
      '}',
      '',
    );
    resources.push({ name, alert: count ? `${alert} 0` : alert, days, count });
  }
  return { files: Object.fromEntries(Object.entries(files).map(([f, l]) => [f, l.join('\n')])), resources };
}

function git(dir: string, ...args: string[]): string {
  return execFileSync('git', ['-c', 'user.name=test', '-c', 'user.email=test@example.com', ...args], {
    cwd: dir,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

let emu: RunningEmulator;
let sb: NetworkcalcSandbox;

beforeAll(async () => {
  requirePrerequisites();
  emu = await startEmulator({ deleteForm: 'path' });
  await emu.control.addFault({ kind: 'latency', latencyMs: 10, match: { path: '/api/' } });
  sb = new NetworkcalcSandbox({ NETWORKCALC_BASE_URL: emu.url, NETWORKCALC_TOKEN: DEMO_ACCOUNT.token });
  git(sb.workDir, 'init', '-q');
  sb.writeConfig(`${REQUIRED_PROVIDERS}provider "networkcalc" {}\n`);
  expectStatus(await sb.terraform(['init']), 0);
});
afterAll(async () => {
  sb?.dispose();
  await emu?.close();
});

const tf = async (args: string[], status = 0) => {
  const r = await sb.terraform(args);
  expectStatus(r, status);
  return r;
};

const CASES = Number(process.env.NCALC_PROPERTY_CASES ?? 2);

describe('any console changes to a generated HCL configuration', () => {
  const seeds = propertySeeds(CASES, 2);
  it.each(seeds.map((seed, round) => [seed, round]))(
    'seed %i: the patch applies, fmt is clean, and the next plan changes only what a suggestion explains',
    (seed, round) =>
      withSeed(seed, 'HCL configuration', async () => {
        const r = new Random(seed);
        const { files, resources } = generate(r, round);
        for (const [f, text] of Object.entries(files)) writeFileSync(path.join(sb.workDir, f), text);
        git(sb.workDir, 'add', '--', '*.tf');
        git(sb.workDir, 'commit', '-q', '--allow-empty', '-m', `round ${round}`);
        await tf(['apply', '-auto-approve']);

        const c = emu.control;
        const live = (await c.state()).accounts[0]!.alerts;
        const done: string[] = [];
        for (const res of resources) {
          const alert = live.find((a) => a.name === res.alert)!;
          const roll = r.next();
          if (roll < 0.25) {
            await c.deleteAlert(DEMO_ACCOUNT.name, alert.id);
            done.push(`deleted ${res.name}`);
          } else if (roll < 0.55) {
            await c.patchAlert(DEMO_ACCOUNT.name, alert.id, { filter_value: String(r.int(41, 90)) });
            done.push(`changed ${res.name}`);
          } else if (roll < 0.7) {
            await c.patchAlert(DEMO_ACCOUNT.name, alert.id, { name: `${res.alert} renamed` });
            done.push(`renamed ${res.name}`);
          }
        }
        if (r.chance(0.5)) {
          await c.createAlert(DEMO_ACCOUNT.name, {
            name: `round ${round} console`,
            type: 'SPF Record',
            filter: 'validity',
            target: 'example.org',
          });
          done.push('added one');
        }
        const what = `console: ${done.join(', ') || 'nothing'}\n${Object.entries(files)
          .map(([f, t]) => `${f}:\n${t}`)
          .join('\n')}`;

        await tf(['plan', '-refresh-only', '-out=drift.tfplan']);
        const show = await tf(['show', '-json', 'drift.tfplan']);
        const s = suggestFromTerraformPlan(JSON.parse(show.stdout), sb.workDir);
        expect([what, s.problems]).toEqual([what, []]);
        // Every change Terraform can see (not the alert added) has its suggestion.
        expect(s.suggestions.length).toBeGreaterThanOrEqual(done.filter((d) => !d.startsWith('added')).length);
        const patch = combinedPatch(sb.workDir, s.suggestions, s.snapshots);
        if (patch) {
          writeFileSync(path.join(sb.workDir, 'drift.patch'), patch);
          git(sb.workDir, 'apply', 'drift.patch');
        }
        await tf(['fmt', '-check', '-diff']);

        // The next plan (refreshed): a change only where a suggestion has no diff and says why.
        const plan = await tf(['plan', '-json']);
        const changed = plan.stdout
          .split('\n')
          .filter((l) => l.includes('"planned_change"'))
          .map((l) => JSON.parse(l).change.resource.addr as string);
        const explained = new Set(s.suggestions.filter((x) => !x.diff && x.summary).map((x) => x.path));
        expect([what, patch, changed.filter((a) => !explained.has(a))]).toEqual([what, patch, []]);
        // Ready for the next round: the state matches the account again.
        await tf(['apply', '-refresh-only', '-auto-approve']);
      }),
  );
});
