/**
 * A property of `ncalc drift --suggest` on TypeScript apps: for any set of changes, deletions,
 * renames and additions made in the console, the patch applies (git apply) and the plan after
 * it has a change only for alerts whose suggestion has no diff and says why. The apps are
 * generated from a seed: several accounts, comments, one-liners (two on a line too), loops,
 * a helper shared by the stacks, values held in variables.
 */
import * as path from 'node:path';
import { NetworkCalcClient } from '../../src/client';
import type { EmulatorSeed } from '../../src/emulator';
import { requireBuild } from '../helpers/build';
import { useEmulator } from '../helpers/emulator';
import { cliEnv } from '../cli/support';
import { Random, propertySeeds, withSeed } from './property';
import { TsApp, ncalcIn } from './support';

jest.setTimeout(300_000);

const ACCOUNTS = ['a0', 'a1', 'a2'];
const SEED: EmulatorSeed = {
  accounts: ACCOUNTS.map((name, i) => ({
    name,
    user_id: i + 1,
    tokens: [{ access_token: `${name}-token` }],
    domains: [
      { domain: 'example.com', subdomains: [{ prefix: 'www' }, { prefix: 'mail' }] },
      { domain: 'example.org' },
    ],
  })),
};
const emulator = useEmulator({ seed: SEED });
const env = () =>
  cliEnv({
    ...Object.fromEntries(ACCOUNTS.map((a) => [`${a.toUpperCase()}_TOKEN`, `${a}-token`])),
    NETWORKCALC_BASE_URL: emulator().url,
  });
const { run } = ncalcIn(env);

beforeAll(() => requireBuild('dist/index.js'));

/** What the generated app declares, as the console sees it. */
interface Declared {
  account: string;
  name: string;
  /** The certificate's days, when it is a certificate alert. */
  days?: number;
}

const TARGETS = ["AlertTarget.subdomain('www.example.com')", "AlertTarget.domain('example.org')"];

/** A generated app: main.ts and the alerts it declares. */
function generate(r: Random): { main: string; declared: Declared[] } {
  const stacks = ACCOUNTS.slice(0, r.int(2, 3));
  const declared: Declared[] = [];
  const helper = r.chance(0.5);
  const out = [
    "import { App, TerraformStack } from 'cdktf';",
    "import { Construct } from 'constructs';",
    "import { Alert, AlertTarget, NetworkcalcAccount } from 'cdktf-provider-networkcalc';",
    '',
  ];
  if (helper)
    out.push(
      '// One helper for every stack: its Alert is made at one position for all of them.',
      'function baseline(scope: Construct, name: string) {',
      "  new Alert(scope, 'Baseline', { name, target: AlertTarget.domain('example.com'), spfRecord: { filter: 'validity' } });",
      '}',
      '',
    );
  out.push('const app = new App();');
  let n = 0;
  for (const s of stacks) {
    out.push('', `const ${s} = new TerraformStack(app, '${s}');`);
    out.push(`new NetworkcalcAccount(${s}, 'Account', { tokenEnv: '${s.toUpperCase()}_TOKEN' });`);
    if (helper) {
      out.push(`baseline(${s}, '${s} baseline');`);
      declared.push({ account: s, name: `${s} baseline` });
    }
    const count = r.int(1, 5);
    for (let i = 0; i < count; i++) {
      const name = `${s} alert ${n++}`;
      const days = r.int(7, 40);
      const target = r.pick(TARGETS);
      const shape = r.pick(['lines', 'lines', 'one-liner', 'two-on-a-line', 'variable', 'loop']);
      if (r.chance(0.3)) out.push(`// ${name}: keep an eye on it.`);
      const literal = (nm: string, d: string) =>
        `new Alert(${s}, '${nm.replace(/ /g, '')}', { name: '${nm}', target: ${target}, certificate: { expiresInDays: ${d} } });`;
      if (shape === 'lines') {
        out.push(
          `new Alert(${s}, 'A${n}', {`,
          `  name: '${name}',`,
          `  target: ${target},`,
          `  certificate: { expiresInDays: ${days} },${r.chance(0.3) ? ' // days' : ''}`,
          `});${r.chance(0.3) ? ' // trailing' : ''}`,
        );
        declared.push({ account: s, name, days });
      } else if (shape === 'one-liner') {
        out.push(literal(name, String(days)));
        declared.push({ account: s, name, days });
      } else if (shape === 'two-on-a-line') {
        const second = `${s} alert ${n++}`;
        out.push(`${literal(name, String(days))} ${literal(second, String(days + 1))}`);
        declared.push({ account: s, name, days }, { account: s, name: second, days: days + 1 });
      } else if (shape === 'variable') {
        const v = `days${n}`;
        out.push(`const ${v} = ${days};`, literal(name, v));
        declared.push({ account: s, name, days });
      } else {
        out.push(
          `for (const host of ['www.example.com', 'mail.example.com'])`,
          `  new Alert(${s}, \`L${n}-\${host}\`, { name: \`${name} \${host}\`, target: AlertTarget.subdomain(host), certificate: { expiresInDays: ${days} } });`,
        );
        for (const host of ['www.example.com', 'mail.example.com'])
          declared.push({ account: s, name: `${name} ${host}`, days });
      }
    }
  }
  out.push('app.synth();', '');
  return { main: out.join('\n'), declared };
}

/** Console changes: some alerts' settings changed, some renamed, some deleted, new ones added. */
async function consoleChanges(r: Random, declared: readonly Declared[]): Promise<string[]> {
  const c = emulator().control;
  const done: string[] = [];
  const accounts = [...new Set(declared.map((d) => d.account))];
  for (const account of accounts) {
    const live = await new NetworkCalcClient({ baseUrl: emulator().url, token: `${account}-token` }).listAlerts();
    const id = (name: string) => live.find((a) => a.name === name)!.id;
    for (const d of declared.filter((x) => x.account === account)) {
      const roll = r.next();
      if (roll < 0.15) {
        await c.deleteAlert(account, id(d.name));
        done.push(`deleted ${d.name}`);
      } else if (roll < 0.35 && d.days !== undefined) {
        await c.patchAlert(account, id(d.name), { filter_value: String(d.days + r.int(1, 30)) });
        done.push(`changed ${d.name}`);
      } else if (roll < 0.45) {
        await c.patchAlert(account, id(d.name), { name: `${d.name} renamed` });
        done.push(`renamed ${d.name}`);
      }
    }
    for (let i = r.int(0, 2); i > 0; i--) {
      const name = `${account} console ${i}`;
      await c.createAlert(
        account,
        r.chance(0.5)
          ? { name, type: 'SPF Record', filter: 'validity', target: 'example.org' }
          : {
              name,
              type: 'Certificate (TLS)',
              filter: 'expires in (days)',
              filter_value: String(r.int(5, 60)),
              target: 'www.example.com',
            },
      );
      done.push(`added ${name}`);
    }
  }
  return done;
}

const CASES = Number(process.env.NCALC_PROPERTY_CASES ?? 4);

describe('any console changes to a generated TypeScript app', () => {
  const seeds = propertySeeds(CASES, 1);
  it.each(seeds)('seed %i: the patch applies, and the next plan changes only what a suggestion explains', (seed) =>
    withSeed(seed, 'TypeScript app', async () => {
      const r = new Random(seed);
      const { main, declared } = generate(r);
      const a = new TsApp({ 'main.ts': main });
      try {
        const apply = await run(a, 'apply', '--auto-approve');
        expect([main, apply.stdout, apply.code]).toEqual([main, apply.stdout, 0]);
        const done = await consoleChanges(r, declared);
        const drift = await run(a, 'drift', '--suggest', '--json');
        const what = `console: ${done.join(', ') || 'nothing'}\nmain.ts:\n${main}\ndrift: ${drift.stderr}`;
        expect([what, drift.code]).toEqual([what, done.length ? 2 : 0]);
        const s = JSON.parse(drift.stdout).suggest as {
          suggestions: { alert: string; diff: string | null; summary: string }[];
          patch: string;
          problems: string[];
        };
        expect(s.problems).toEqual([]);
        // Each console change has a suggestion (a rename, or a deletion and an addition of the same settings, has one).
        expect(s.suggestions.length > 0).toBe(done.length > 0);
        if (s.patch) {
          a.write('drift.patch', s.patch);
          a.git('apply', 'drift.patch');
        }
        const plan = await run(a, 'plan', '--json');
        const changes: { name: string; before: { name: string } | null }[] = JSON.parse(plan.stdout).accounts.flatMap(
          (x: { changes: unknown[] }) => x.changes,
        );
        // Every change left is an alert whose suggestion has no diff and says why.
        const explained = new Set(s.suggestions.filter((x) => !x.diff && x.summary).map((x) => x.alert));
        const unexplained = changes.filter((c) => !explained.has(c.name) && !explained.has(c.before?.name ?? ''));
        expect([what, a.read('main.ts'), unexplained]).toEqual([what, a.read('main.ts'), []]);
      } finally {
        a.remove();
      }
    }),
  );
});

// The generator itself: the same seed, the same app.
it('a seed makes the same app each time', () => {
  expect(generate(new Random(7)).main).toBe(generate(new Random(7)).main);
  expect(path.basename(__filename)).toMatch(/\.e2e\.test\.ts$/);
});
