/**
 * `ncalc drift --suggest` in apps of two accounts (prod and staging, as in the multi-account
 * example, each with example.com, www.example.com and example.org already there): a new declaration goes beside its own account, never into code that makes
 * every account's stack, and the plan after `--write` shows what the suggestion said. Also:
 * the app's own TypeScript (none, or one without a compiler API) plays no part.
 */
import { NetworkCalcClient } from '../../src/client';
import { requireBuild } from '../helpers/build';
import { useEmulator } from '../helpers/emulator';
import { cliEnv } from '../cli/support';
import { TsApp, ncalcIn, type AppTypeScript } from './support';

jest.setTimeout(120_000);

/** The two accounts with their domains already there (the example's own seed starts empty). */
const account = (name: string, userId: number) => ({
  name,
  user_id: userId,
  tokens: [{ access_token: `${name}-token` }],
  domains: [{ domain: 'example.com', subdomains: [{ prefix: 'www' }] }, { domain: 'example.org' }],
});
const emulator = useEmulator({ seed: { accounts: [account('prod', 1), account('staging', 2)] } });
const apps: TsApp[] = [];
afterAll(() => apps.forEach((a) => a.remove()));

beforeAll(() => requireBuild('dist/index.js'));

function app(main: string, typescript?: AppTypeScript): TsApp {
  const a = new TsApp({ 'main.ts': main }, typescript);
  apps.push(a);
  return a;
}

const env = () =>
  cliEnv({
    PROD_NETWORKCALC_TOKEN: 'prod-token',
    STAGING_NETWORKCALC_TOKEN: 'staging-token',
    NETWORKCALC_BASE_URL: emulator().url,
  });
const { run, applied, expectEmptyPlan } = ncalcIn(env);

async function suggest(a: TsApp, ...more: string[]) {
  const r = await run(a, 'drift', '--suggest', '--json', ...more);
  return { code: r.code, stderr: r.stderr, suggest: JSON.parse(r.stdout).suggest as any };
}

async function liveId(account: 'prod' | 'staging', name: string): Promise<number> {
  const client = new NetworkCalcClient({ baseUrl: emulator().url, token: `${account}-token` });
  const found = (await client.listAlerts()).find((x) => x.name === name);
  if (!found) throw new Error(`no live alert ${name} in ${account}`);
  return found.id;
}

/** An alert made in the console of `account`, on example.org. */
async function handMade(account: 'prod' | 'staging', name: string): Promise<void> {
  await emulator().control.createAlert(account, {
    name,
    type: 'SPF Record',
    filter: 'validity',
    target: 'example.org',
  });
}

const IMPORTS = `import { App, TerraformStack } from 'cdktf';
import { Construct } from 'constructs';
import { Alert, AlertTarget, NetworkcalcAccount } from 'cdktf-provider-networkcalc';
`;

describe('two accounts declared one after the other', () => {
  const TWO_STACKS = `${IMPORTS}
const app = new App();
const prod = new TerraformStack(app, 'prod');
new NetworkcalcAccount(prod, 'Account', { tokenEnv: 'PROD_NETWORKCALC_TOKEN' });
new Alert(prod, 'Spf', { name: 'prod SPF', target: AlertTarget.domain('example.com'), spfRecord: { filter: 'validity' } });

const staging = new TerraformStack(app, 'staging');
new NetworkcalcAccount(staging, 'Account', { tokenEnv: 'STAGING_NETWORKCALC_TOKEN' });
new Alert(staging, 'Spf', {
  name: 'staging SPF',
  target: AlertTarget.domain('example.com'),
  spfRecord: { filter: 'validity' },
}); // one-liner
app.synth();
`;

  it("each account's new alert goes after its own alerts; a trailing comment stays on its line; the plan is empty", async () => {
    const a = app(TWO_STACKS.replace(/^import \{ Construct \} from 'constructs';\n/m, ''));
    await applied(a);
    await handMade('prod', 'prod extra');
    await handMade('staging', 'staging extra');
    const { suggest: s } = await suggest(a, '--write');
    expect(s.problems).toEqual([]);
    expect(s.written).toEqual(['main.ts']);
    expect(a.read('main.ts')).toBe(`import { App, TerraformStack } from 'cdktf';
import { Alert, AlertTarget, NetworkcalcAccount } from 'cdktf-provider-networkcalc';

const app = new App();
const prod = new TerraformStack(app, 'prod');
new NetworkcalcAccount(prod, 'Account', { tokenEnv: 'PROD_NETWORKCALC_TOKEN' });
new Alert(prod, 'Spf', { name: 'prod SPF', target: AlertTarget.domain('example.com'), spfRecord: { filter: 'validity' } });
new Alert(prod, 'ProdExtra', {
  name: 'prod extra',
  target: AlertTarget.domain('example.org'),
  spfRecord: { filter: 'validity' },
});

const staging = new TerraformStack(app, 'staging');
new NetworkcalcAccount(staging, 'Account', { tokenEnv: 'STAGING_NETWORKCALC_TOKEN' });
new Alert(staging, 'Spf', {
  name: 'staging SPF',
  target: AlertTarget.domain('example.com'),
  spfRecord: { filter: 'validity' },
}); // one-liner
new Alert(staging, 'StagingExtra', {
  name: 'staging extra',
  target: AlertTarget.domain('example.org'),
  spfRecord: { filter: 'validity' },
});
app.synth();
`);
    await expectEmptyPlan(a);
  });

  it('an alert deleted and another added next to it, in each account: both edits in one patch; git apply, then the plan is empty', async () => {
    const a = app(TWO_STACKS.replace(/^import \{ Construct \} from 'constructs';\n/m, ''));
    await applied(a);
    // The new declaration goes after the account's last alert, which is the one deleted.
    await emulator().control.deleteAlert('prod', await liveId('prod', 'prod SPF'));
    await handMade('prod', 'prod extra');
    await emulator().control.deleteAlert('staging', await liveId('staging', 'staging SPF'));
    await handMade('staging', 'staging extra');
    const { code, suggest: s } = await suggest(a);
    expect(code).toBe(2);
    expect(s.problems).toEqual([]);
    expect(s.suggestions.map((x: any) => [x.kind, x.alert, x.diff !== null])).toEqual([
      ['deleted', 'prod SPF', true],
      ['undeclared', 'prod extra', true],
      ['deleted', 'staging SPF', true],
      ['undeclared', 'staging extra', true],
    ]);
    a.write('drift.patch', s.patch);
    a.git('apply', 'drift.patch');
    expect(a.read('main.ts')).toBe(`import { App, TerraformStack } from 'cdktf';
import { Alert, AlertTarget, NetworkcalcAccount } from 'cdktf-provider-networkcalc';

const app = new App();
const prod = new TerraformStack(app, 'prod');
new NetworkcalcAccount(prod, 'Account', { tokenEnv: 'PROD_NETWORKCALC_TOKEN' });
new Alert(prod, 'ProdExtra', {
  name: 'prod extra',
  target: AlertTarget.domain('example.org'),
  spfRecord: { filter: 'validity' },
});

const staging = new TerraformStack(app, 'staging');
new NetworkcalcAccount(staging, 'Account', { tokenEnv: 'STAGING_NETWORKCALC_TOKEN' });
new Alert(staging, 'StagingExtra', {
  name: 'staging extra',
  target: AlertTarget.domain('example.org'),
  spfRecord: { filter: 'validity' },
});
app.synth();
`);
    await expectEmptyPlan(a);
  });
});

describe('one class makes every account’s stack (as in examples/multi-account)', () => {
  const CLASS = `${IMPORTS}
class AccountStack extends TerraformStack {
  constructor(scope: Construct, id: string, tokenEnv: string) {
    super(scope, id);
    new NetworkcalcAccount(this, 'Account', { tokenEnv });
    new Alert(this, 'Spf', { name: 'SPF', target: AlertTarget.domain('example.com'), spfRecord: { filter: 'validity' } });
  }
}

const app = new App();
`;

  it('a per-account edit where the stack is made: a variable for it when there is none; the plan after --write is empty', async () => {
    const a = app(`${CLASS}new AccountStack(app, 'prod', 'PROD_NETWORKCALC_TOKEN');
const staging = new AccountStack(app, 'staging', 'STAGING_NETWORKCALC_TOKEN');
new Alert(staging, 'OrgSpf', { name: 'org SPF', target: AlertTarget.domain('example.org'), spfRecord: { filter: 'validity' } });
app.synth();
`);
    await applied(a);
    await handMade('prod', 'prod extra');
    await handMade('prod', 'prod-extra'); // the same construct id at first, and the same const
    await handMade('staging', 'staging extra');
    const { suggest: s } = await suggest(a, '--write');
    expect(s.problems).toEqual([]);
    expect(s.suggestions.map((x: any) => [x.account, x.summary, x.line])).toEqual([
      [
        'prod',
        '"prod extra": `ncalc apply` deletes it (live in the scope, not declared); the NetworkcalcAccount at main.ts:8 is shared by 2 accounts (code shared by 2 stacks: prod, staging), so the edit declares it for stack prod alone, beside main.ts:14 (account prod)',
        14,
      ],
      [
        'prod',
        '"prod-extra": `ncalc apply` deletes it (live in the scope, not declared); the NetworkcalcAccount at main.ts:8 is shared by 2 accounts (code shared by 2 stacks: prod, staging), so the edit declares it for stack prod alone, beside main.ts:14 (account prod)',
        14,
      ],
      [
        'staging',
        '"staging extra": `ncalc apply` deletes it (live in the scope, not declared); the NetworkcalcAccount at main.ts:8 is shared by 2 accounts (code shared by 2 stacks: prod, staging), so the edit declares it for stack staging alone, beside main.ts:15 (account staging)',
        16,
      ],
    ]);
    expect(a.read('main.ts')).toBe(`${CLASS}const prod = new AccountStack(app, 'prod', 'PROD_NETWORKCALC_TOKEN');
new Alert(prod, 'ProdExtra', {
  name: 'prod extra',
  target: AlertTarget.domain('example.org'),
  spfRecord: { filter: 'validity' },
});
new Alert(prod, 'ProdExtra2', {
  name: 'prod-extra',
  target: AlertTarget.domain('example.org'),
  spfRecord: { filter: 'validity' },
});
const staging = new AccountStack(app, 'staging', 'STAGING_NETWORKCALC_TOKEN');
new Alert(staging, 'OrgSpf', { name: 'org SPF', target: AlertTarget.domain('example.org'), spfRecord: { filter: 'validity' } });
new Alert(staging, 'StagingExtra', {
  name: 'staging extra',
  target: AlertTarget.domain('example.org'),
  spfRecord: { filter: 'validity' },
});
app.synth();
`);
    await expectEmptyPlan(a);
  });

  it('stacks made in a loop: no edit, a line saying the declaration is shared and what adding it there would do', async () => {
    const a =
      app(`${CLASS}for (const [id, tokenEnv] of [['prod', 'PROD_NETWORKCALC_TOKEN'], ['staging', 'STAGING_NETWORKCALC_TOKEN']])
  new AccountStack(app, id, tokenEnv);
app.synth();
`);
    await applied(a);
    await handMade('prod', 'prod extra');
    await emulator().control.patchAlert('staging', await liveId('staging', 'SPF'), { target: 'example.org' });
    const before = a.read('main.ts');
    const r = await run(a, 'drift', '--suggest', '--write');
    expect(r.stdout).toContain(
      '"prod extra": `ncalc apply` deletes it (live in the scope, not declared); the NetworkcalcAccount at main.ts:8 is shared by 2 accounts (code shared by 2 stacks: prod, staging), so an Alert declared beside it would be created in each of the 2 accounts; no call site of stack prod\'s own was found (it is made in a loop or a helper too), so declare it for stack prod by hand (main.ts:8)',
    );
    expect(r.stdout).toContain(
      "staging/Spf is one of 2 alerts declared at main.ts:9 (code shared by 2 stacks: prod, staging), so its props are not its own; set target AlertTarget.domain('example.org') for this alert there (main.ts:9)",
    );
    expect(r.stdout).toContain('Suggested edits to the code: 0 of 2 alerts can be adopted by an edit');
    expect(r.stdout).toContain('Nothing to write.');
    expect(a.read('main.ts')).toBe(before);
  });
});

describe("the app's own TypeScript plays no part", () => {
  const ONE = `${IMPORTS.replace(/^import \{ Construct \} from 'constructs';\n/m, '')}
const app = new App();
const stack = new TerraformStack(app, 'prod');
new NetworkcalcAccount(stack, 'Account', { tokenEnv: 'PROD_NETWORKCALC_TOKEN' });
new Alert(stack, 'Certificate', {
  name: 'www certificate expiry',
  target: AlertTarget.subdomain('www.example.com'),
  certificate: { expiresInDays: 21 }, // three weeks
});
app.synth();
`;

  it.each<AppTypeScript>(['none', 'no-compiler-api'])(
    'typescript %s in the app: the edit, git apply, then an empty plan',
    async (typescript) => {
      const a = app(ONE, typescript);
      await applied(a);
      await emulator().control.patchAlert('prod', await liveId('prod', 'www certificate expiry'), {
        filter_value: '30',
      });
      const { code, suggest: s } = await suggest(a);
      expect(code).toBe(2);
      expect(s.problems).toEqual([]);
      expect(s.patch).toBe(`--- a/main.ts
+++ b/main.ts
@@ -7,6 +7,6 @@
 new Alert(stack, 'Certificate', {
   name: 'www certificate expiry',
   target: AlertTarget.subdomain('www.example.com'),
-  certificate: { expiresInDays: 21 }, // three weeks
+  certificate: { expiresInDays: 30 }, // three weeks
 });
 app.synth();
`);
      a.write('drift.patch', s.patch);
      a.git('apply', 'drift.patch');
      await expectEmptyPlan(a);
    },
  );
});

describe('what drift --suggest asks of each account', () => {
  /** GETs of the alerts list and of the domains list that `account`'s credentials made since the log was cleared. */
  async function gets(account: 'prod' | 'staging'): Promise<{ alerts: number; domains: number }> {
    const c = emulator().control;
    const [alerts, domains] = await Promise.all([
      c.countRequests({ method: 'GET', path: '/api/alerts/', account }),
      c.countRequests({ method: 'GET', path: '/api/domains/', account }),
    ]);
    return { alerts, domains };
  }

  it('one list per account and at most one domains list, made by the plan; the suggestions name targets from it', async () => {
    const staging = new NetworkCalcClient({ baseUrl: emulator().url, token: 'staging-token' });
    const apexId = (await staging.listDomains()).find((d) => d.domain === 'example.com')!.id;
    // prod names its target (the plan needs the domains); staging gives an id (it needs none).
    const a = app(`import { App, TerraformStack } from 'cdktf';
import { Alert, AlertTarget, NetworkcalcAccount } from 'cdktf-provider-networkcalc';
const app = new App();
const prod = new TerraformStack(app, 'prod');
new NetworkcalcAccount(prod, 'Account', { tokenEnv: 'PROD_NETWORKCALC_TOKEN' });
new Alert(prod, 'Spf', { name: 'prod SPF', target: AlertTarget.domain('example.com'), spfRecord: { filter: 'validity' } });
const staging = new TerraformStack(app, 'staging');
new NetworkcalcAccount(staging, 'Account', { tokenEnv: 'STAGING_NETWORKCALC_TOKEN' });
new Alert(staging, 'Spf', { name: 'staging SPF', target: AlertTarget.domainId(${apexId}), spfRecord: { filter: 'validity' } });
app.synth();
`);
    await applied(a);
    await handMade('prod', 'prod extra');
    await handMade('staging', 'staging extra');
    await emulator().control.clearRequests();
    const { code, suggest: s } = await suggest(a);
    expect(code).toBe(2);
    expect(s.problems).toEqual([]);
    // Staging's plan listed the domains for its alert to adopt: the declaration names example.org.
    expect(s.patch).toContain(
      "+new Alert(staging, 'StagingExtra', {\n+  name: 'staging extra',\n+  target: AlertTarget.domain('example.org'),",
    );
    expect(await gets('prod')).toEqual({ alerts: 1, domains: 1 });
    expect(await gets('staging')).toEqual({ alerts: 1, domains: 1 });

    // In sync: an account that uses no names and has nothing to adopt lists no domains.
    await emulator().control.deleteAlert('prod', await liveId('prod', 'prod extra'));
    await emulator().control.deleteAlert('staging', await liveId('staging', 'staging extra'));
    await emulator().control.clearRequests();
    expect((await suggest(a)).code).toBe(0);
    expect(await gets('prod')).toEqual({ alerts: 1, domains: 1 });
    expect(await gets('staging')).toEqual({ alerts: 1, domains: 0 });
  });
});
