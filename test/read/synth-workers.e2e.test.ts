/**
 * One synth spread over worker processes (NCALC_SYNTH_WORKERS): a real app on cdktn, run by
 * the built `ncalc`, gives byte for byte the output of one process, each part writing only its
 * stacks; what cannot be merged (an app that differs between runs, a reference across parts,
 * invalid constructs) is synthesized by one process, with its output or its errors; and the
 * merged output is read by shards with --no-synth as any output is.
 */
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { execFileSync } from 'node:child_process';
import { requireBuild } from '../helpers/build';
import { useEmulator } from '../helpers/emulator';
import { ROOT, cliEnv, ncalc } from '../cli/support';

jest.setTimeout(180_000);

const ACCOUNTS = 6;
const names = Array.from({ length: ACCOUNTS }, (_, i) => `acct${i + 1}`);

/**
 * `ACCOUNTS` stacks of NetworkCalc constructs and one stack without any (written by every
 * part); `extra` is code run before `app.synth()`. Every run appends a line to runs.log.
 */
function appSource(extra = ''): string {
  return `require('fs').appendFileSync(__dirname + '/runs.log', 'run\\n');
const { App, TerraformStack, TerraformOutput } = require(${JSON.stringify(require.resolve('cdktn', { paths: [ROOT] }))});
const { Alert, AlertTarget, NetworkcalcAccount } = require(${JSON.stringify(path.join(ROOT, 'dist'))});
const app = new App();
const accounts = {};
for (const name of ${JSON.stringify(names)}) {
  const stack = new TerraformStack(app, name);
  accounts[name] = new NetworkcalcAccount(stack, 'Account', { tokenEnv: name.toUpperCase() + '_TOKEN' });
  for (let i = 0; i < 4; i++)
    new Alert(stack, 'Alert' + i, {
      name: name + ' check ' + i,
      target: i % 2 ? AlertTarget.domain('example.com') : AlertTarget.subdomain('www.example.com'),
      dnsRecord: { record: 'A', filter: 'equals', value: '192.0.2.' + (i + 1) },
    });
}
const plain = new TerraformStack(app, 'plain');
new TerraformOutput(plain, 'greeting', { value: 'hello' });
${extra}
app.synth();
`;
}

const emulator = useEmulator({
  seed: {
    accounts: names.map((name, i) => ({
      name,
      user_id: i + 1,
      tokens: [{ access_token: `${name}-token` }],
      domains: [{ id: 100 * (i + 1), domain: 'example.com', subdomains: [{ id: 100 * (i + 1) + 1, prefix: 'www' }] }],
      alerts: [],
    })),
  },
});

let dir: string;
beforeAll(() => requireBuild('dist/index.js'));
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'ncalc-synth-workers-'));
  writeFileSync(path.join(dir, 'cdktf.json'), JSON.stringify({ app: 'node main.js' }));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const tokens = Object.fromEntries(names.map((n) => [`${n.toUpperCase()}_TOKEN`, `${n}-token`]));
const run = (args: string[], vars: Record<string, string> = {}) =>
  ncalc(args, {
    cwd: dir,
    env: cliEnv({ NCALC_CDK: 'cdktn', NETWORKCALC_BASE_URL: emulator().url, ...tokens, ...vars }),
  });
const runs = () => readFileSync(path.join(dir, 'runs.log'), 'utf8').split('\n').filter(Boolean).length;

/** Every file of an output directory, by relative path. */
function files(out: string): Map<string, Buffer> {
  const found = new Map<string, Buffer>();
  for (const e of readdirSync(path.join(dir, out), { recursive: true, withFileTypes: true }))
    if (e.isFile()) {
      const file = path.join(e.parentPath, e.name);
      found.set(path.relative(path.join(dir, out), file), readFileSync(file));
    }
  return found;
}

function expectSameFiles(a: Map<string, Buffer>, b: Map<string, Buffer>): void {
  expect([...b.keys()].sort()).toEqual([...a.keys()].sort());
  for (const [name, bytes] of a)
    expect({ name, text: b.get(name)!.toString('utf8') }).toEqual({ name, text: bytes.toString('utf8') });
}

const stacksOf = (out: string) =>
  Object.keys((JSON.parse(readFileSync(path.join(dir, out, 'manifest.json'), 'utf8')) as { stacks: object }).stacks);

describe('a synth spread over worker processes', () => {
  it('gives byte for byte the output of one process, each part writing only its own stacks', async () => {
    writeFileSync(path.join(dir, 'main.js'), appSource());
    const one = await run(['synth', '--out', 'one']);
    expect(one.code).toBe(0);
    expect(runs()).toBe(1);
    const three = await run(['synth', '--out', 'three'], { NCALC_SYNTH_WORKERS: '3' });
    expect(three.stderr).toBe('');
    expect(three.code).toBe(0);
    expect(three.stdout).toBe(one.stdout.split('into one;').join('into three;').split('--out one').join('--out three'));
    // Three runs of the app, merged: no fourth run in one process.
    expect(runs()).toBe(4);
    expectSameFiles(files('one'), files('three'));
    expect(stacksOf('three')).toEqual([...names, 'plain'].sort());

    // Each part alone: its own share of the accounts' stacks, and the stack without constructs.
    const written = [1, 2, 3].map((i) => {
      const out = `part${i}`;
      execFileSync(process.execPath, ['main.js'], {
        cwd: dir,
        env: { ...process.env, NCALC_CDK: 'cdktn', CDKTF_OUTDIR: path.join(dir, out), NCALC_SYNTH_PART: `${i}/3` },
      });
      return stacksOf(out).filter((s) => s !== 'plain');
    });
    expect(written.map((w) => w.length)).toEqual([2, 2, 2]);
    expect(written.flat().sort()).toEqual(names);
  });

  it('is read by shards with --no-synth: together one list per account, each only its own accounts', async () => {
    writeFileSync(path.join(dir, 'main.js'), appSource());
    expect((await run(['synth', '--out', 'shared'], { NCALC_SYNTH_WORKERS: '2' })).code).toBe(0);
    expect(runs()).toBe(2);
    await emulator().control.reset();
    const shards = await Promise.all(
      [1, 2].map((i) => run(['plan', '--json', '--no-synth', '--out', 'shared', '--shard', `${i}/2`])),
    );
    expect(runs()).toBe(2);
    const planned = shards.flatMap((r) => {
      const doc = JSON.parse(r.stdout) as { accounts: Array<{ label: string; changes: Array<{ action: string }> }> };
      // Every alert is to be created; nothing of another shard's accounts is deleted.
      for (const a of doc.accounts)
        expect(a.changes.map((c) => c.action)).toEqual(['create', 'create', 'create', 'create']);
      return doc.accounts.map((a) => a.label);
    });
    expect(planned.sort()).toEqual(names);
    const requests = await emulator().control.requests();
    expect(requests.map((r) => `${r.method} ${r.path} ${r.account}`).sort()).toEqual(
      names.flatMap((n) => [`GET /api/alerts/ ${n}`, `GET /api/domains/ ${n}`]).sort(),
    );
  });

  it('synthesizes in one process when the parts do not merge: an app that differs between runs', async () => {
    writeFileSync(
      path.join(dir, 'main.js'),
      appSource("new TerraformOutput(plain, 'nonce', { value: String(process.pid) });"),
    );
    const r = await run(['synth', '--out', 'out'], { NCALC_SYNTH_WORKERS: '2' });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    // Two parts, then one process.
    expect(runs()).toBe(3);
    expect(stacksOf('out')).toEqual([...names, 'plain'].sort());
  });

  it('synthesizes in one process when a stack refers to a stack of another part, with the same output', async () => {
    const source = appSource(
      "new TerraformOutput(accounts.acct2.node.scope, 'other', { value: accounts.acct1.lookupDomain('example.com').domainId });",
    );
    writeFileSync(path.join(dir, 'main.js'), source);
    expect((await run(['synth', '--out', 'one'])).code).toBe(0);
    const spread = await run(['synth', '--out', 'two'], { NCALC_SYNTH_WORKERS: '2' });
    expect(spread.stderr).toBe('');
    expect(spread.code).toBe(0);
    expect(runs()).toBe(1 + 2 + 1);
    expectSameFiles(files('one'), files('two'));
  });

  it('reports the problems of invalid constructs as one process does', async () => {
    writeFileSync(
      path.join(dir, 'main.js'),
      appSource(
        "new Alert(accounts.acct5.node.scope, 'Bad', { name: 'bad', target: AlertTarget.domain('example.com'), dnsRecord: { record: 'A', filter: 'is roughly', value: 'x' } });",
      ),
    );
    const one = await run(['synth', '--out', 'one']);
    const two = await run(['synth', '--out', 'two'], { NCALC_SYNTH_WORKERS: '2' });
    expect(one.code).toBe(1);
    expect(one.stderr).toContain('acct5/Bad');
    expect({ code: two.code, stdout: two.stdout, stderr: two.stderr }).toEqual({
      code: one.code,
      stdout: one.stdout,
      stderr: one.stderr,
    });
  });
});
