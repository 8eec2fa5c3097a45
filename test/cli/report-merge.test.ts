/**
 * `ncalc report --merge`: the `--json` documents of the shards of one run, made in-process
 * against the emulator on 127.0.0.1, joined into one document (every account once, the figures
 * added); documents of different apps, commits or shard counts, overlapping or missing shards,
 * each refused with one sentence before anything is written. The page of a merged document in
 * the browser is in report-html.e2e.test.ts.
 */
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { useEmulator } from '../helpers/emulator';
import { FixtureApp, alert, cliEnv, ncalc, stack } from './support';

const names = ['a1', 'a2', 'a3', 'a4', 'a5'];
const emulator = useEmulator({
  seed: {
    accounts: names.map((n, i) => ({ name: n, user_id: i + 1, tokens: [{ access_token: `token-${n}` }] })),
  },
});
type Doc = Record<string, any>;
let dir: string;
let app: FixtureApp;
const shards = new Map<string, Doc>();

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'ncalc-merge-'));
  app = new FixtureApp(
    Object.fromEntries(
      names.map((n) => [
        n,
        stack({
          provider: { token_env: `${n.toUpperCase()}_TOKEN` },
          alerts: { A: alert({ name: `${n} apex A` }) },
        }),
      ]),
    ),
  );
  const env = cliEnv({
    NETWORKCALC_BASE_URL: emulator().url,
    ...Object.fromEntries(names.map((n) => [`${n.toUpperCase()}_TOKEN`, `token-${n}`])),
    // a5 cannot be reached: a failed account in one shard.
    A5_TOKEN: 'refused',
  });
  for (const shard of ['1/3', '2/3', '3/3']) {
    const r = await ncalc(['report', '--json', '--no-preview', '--shard', shard], { cwd: app.dir, env });
    const doc = JSON.parse(r.stdout) as Doc;
    shards.set(shard, doc);
    writeFileSync(path.join(dir, `shard-${shard[0]}.json`), r.stdout);
  }
}, 60_000);

afterAll(() => {
  app?.remove();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const merge = (files: string[], extra: string[] = []) =>
  ncalc(['report', '--merge', ...files, ...extra], { cwd: dir, env: cliEnv({}) });

test('GIVEN the documents of every shard WHEN merged THEN one document and one page hold every account once, the figures added', async () => {
  const r = await merge(['shard-1.json', 'shard-2.json', 'shard-3.json'], ['--json', '--html', 'fleet.html']);
  expect(r.stderr).toMatch(
    /^Wrote fleet\.html \(\d+ KB\): 5 accounts, 0 in sync, 4 drifted, 1 failed; 0 alerts firing now; 0 coverage gaps\.\n$/,
  );
  expect(r.code).toBe(0);
  const doc = JSON.parse(r.stdout) as Doc;
  expect(doc.accounts.map((a: Doc) => a.label).sort()).toEqual(names);
  expect(doc.shard).toBeUndefined();
  expect(doc.merged).toMatchObject({ shards: 3, files: ['shard-1.json', 'shard-2.json', 'shard-3.json'] });
  expect(doc.summary).toMatchObject({ accounts: 5, drift: 4, failed: 1, create: 4, firing: 0 });
  // The failed account stays not evaluated: nulls, not zeros.
  const failed = doc.accounts.find((a: Doc) => a.status === 'failed');
  expect(failed.summary.create).toBeNull();
  expect(failed.changes).toBeNull();
  expect(existsSync(path.join(dir, 'fleet.html'))).toBe(true);
  // The same shards in any order make the same document but its time.
  const again = await merge(['shard-3.json', 'shard-1.json', 'shard-2.json'], ['--json']);
  expect(JSON.parse(again.stdout)).toEqual(doc);
}, 60_000);

describe('GIVEN documents that are not every shard of one run THEN one sentence, and nothing written', () => {
  const write = (name: string, doc: Doc) => {
    writeFileSync(path.join(dir, name), JSON.stringify(doc));
    return name;
  };
  const edited = (shard: string, edit: (d: Doc) => void) => {
    const d = structuredClone(shards.get(shard)!);
    edit(d);
    return d;
  };
  it.each([
    [
      'a shard missing',
      () => ['shard-1.json', 'shard-3.json'],
      'shard 2 of 3 is missing; give the documents of every shard, 1 to 3',
    ],
    [
      'a shard twice',
      () => ['shard-1.json', 'shard-2.json', write('copy-2.json', shards.get('2/3')!), 'shard-3.json'],
      'shard-2.json and copy-2.json are both shard 2 of 3; give each shard once',
    ],
    [
      'another shard count',
      () => [
        'shard-1.json',
        write(
          'of-4.json',
          edited('2/3', (d) => (d.shard.count = 4)),
        ),
        'shard-3.json',
      ],
      'shard-1.json is shard 1 of 3 and of-4.json shard 2 of 4; join the shards of one run, all with the same --shard i/n count',
    ],
    [
      'another commit',
      () => [
        'shard-1.json',
        write(
          'other-commit.json',
          edited('2/3', (d) => (d.source.commit = 'f'.repeat(40))),
        ),
        'shard-3.json',
      ],
      `shard-1.json is of an unknown commit and other-commit.json of ${'f'.repeat(40)}; join the shards of one run, all of one commit`,
    ],
    [
      'another app',
      () => [
        'shard-1.json',
        write(
          'other-app.json',
          edited('2/3', (d) => (d.source.app = '0123456789abcdef')),
        ),
        'shard-3.json',
      ],
      'shard-1.json and other-app.json are of different apps (their stacks or accounts differ); join the shards of one run of one app',
    ],
    [
      'not a report document',
      () => ['shard-1.json', write('plan.json', { command: 'plan', accounts: [] }), 'shard-3.json'],
      'plan.json is not a report document; give the files that ncalc report --json --shard i/n printed',
    ],
    [
      'a document of no shard',
      () => [
        'shard-1.json',
        write(
          'whole.json',
          edited('2/3', (d) => delete d.shard),
        ),
        'shard-3.json',
      ],
      'whole.json is not the document of a shard (it has no "shard"); make each with ncalc report --json --shard i/n',
    ],
  ])('%s', async (_, files, message) => {
    await refused(files(), message);
  });

  it('overlapping shards', async () => {
    // An account of one shard put in another one's document.
    const from = [...shards.keys()].find((k) => shards.get(k)!.accounts.length)!;
    const to = [...shards.keys()].find((k) => k !== from)!;
    const account = shards.get(from)!.accounts[0];
    write(
      'overlap.json',
      edited(to, (d) => d.accounts.push(account)),
    );
    const files = [...shards.keys()].map((k) => (k === to ? 'overlap.json' : `shard-${k[0]}.json`));
    const [a, b] = files.filter((f) => f === 'overlap.json' || f === `shard-${from[0]}.json`);
    await refused(
      files,
      `account ${account.label} is in both ${a} and ${b}: the shards overlap; join the shards of one run`,
    );
  });

  async function refused(files: string[], message: string) {
    rmSync(path.join(dir, 'refused.html'), { force: true });
    const r = await merge(files, ['--html', 'refused.html']);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(`Error: the shards cannot be joined; nothing was written.\n  - ${message}\n`);
    expect(existsSync(path.join(dir, 'refused.html'))).toBe(false);
  }
});
