/**
 * The command contract (src/cli/contract.ts), checked for every registered command: each
 * declares its action; --help exits 0; an unknown flag is a usage error (exit 1, one `Error:`
 * line); and an exception nothing expected is an internal error, never CONFIG_ERROR: one
 * sentence saying it is a bug and how to report it, the stack only with --debug, and with
 * --json the error document with code INTERNAL_ERROR.
 *
 * The bug is made by the one thing a test cannot get a real command to do: an environment
 * whose every read throws a TypeError (a fault injected, since a real bug cannot be ordered).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { PassThrough } from 'node:stream';
import { buildProgram, run } from '../../src/cli/program';
import { commandPath, runnableCommands } from '../../src/cli/contract';
import { flagParser } from '../../src/cli/options';
import type { CliIO } from '../../src/cli/io';
import { FixtureApp, alert, cliEnv, ncalc, stack } from './support';

function quietIO(env: NodeJS.ProcessEnv, cwd: string) {
  const out = { stdout: '', stderr: '' };
  const io: CliIO = {
    stdout: { write: (s: string) => (out.stdout += s), isTTY: false },
    stderr: { write: (s: string) => (out.stderr += s), isTTY: false },
    stdin: new PassThrough(),
    env,
    cwd,
  };
  return { io, out };
}

const dir = mkdtempSync(path.join(tmpdir(), 'ncalc-contract-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Every command that runs something, as its words after `ncalc`, with whether it takes --json. */
const COMMANDS = runnableCommands(buildProgram(quietIO({}, dir).io, { code: 0 })).map((c) => ({
  words: commandPath(c).split(' '),
  json: c.options.some((o) => o.long === '--json'),
}));

test('the program registers the commands of --help, each with its action', () => {
  expect(COMMANDS.map((c) => c.words.join(' '))).toEqual([
    'plan',
    'validate',
    'synth',
    'apply',
    'drift',
    'github',
    'preview',
    'report',
    'coverage',
    'destroy',
    'export',
    'import-blocks',
    'emulator',
    'provider install',
    'provider schema',
  ]);
});

describe.each(COMMANDS.map((c) => [c.words.join(' '), c] as const))('ncalc %s', (_name, c) => {
  it('--help: its usage, exit 0', async () => {
    const r = await ncalc([...c.words, '--help'], { cwd: dir, env: cliEnv({}) });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(new RegExp(`^Usage: ncalc ${c.words.join(' ')} `));
  });

  it('an unknown flag: a usage error, exit 1, nothing on stdout', async () => {
    const r = await ncalc([...c.words, '--no-such-flag'], { cwd: dir, env: cliEnv({}) });
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr.split('\n')[0]).toBe("Error: unknown option '--no-such-flag'");
  });

  if (c.json)
    it('an unknown flag with --json: the USAGE_ERROR document on stdout too', async () => {
      const r = await ncalc([...c.words, '--json', '--no-such-flag'], { cwd: dir, env: cliEnv({}) });
      expect(r.code).toBe(1);
      expect(JSON.parse(r.stdout)).toMatchObject({
        command: c.words.join(' '),
        error: { code: 'USAGE_ERROR', problems: ["unknown option '--no-such-flag'"] },
        accounts: [],
      });
      expect(r.stderr.split('\n')[0]).toBe("Error: unknown option '--no-such-flag'");
    });
});

/** The flags that take a typed value: each is parsed and checked once, before the action. */
const TYPED_FLAGS = [
  '--synth-timeout',
  '--synth-workers',
  '--shard',
  '--parallelism',
  '--account-parallelism',
  '--resolver',
  '--lookup-timeout',
  '--lookup-concurrency',
  '--port',
];
const REGISTERED = runnableCommands(buildProgram(quietIO({}, dir).io, { code: 0 }));

test('every command declares its typed flags with their parser', () => {
  const declared = REGISTERED.flatMap((c) =>
    c.options
      .filter((o) => TYPED_FLAGS.includes(o.long ?? ''))
      .map((o) => ({ o, name: `${commandPath(c)} ${o.long}` })),
  );
  expect(declared.filter(({ o }) => !flagParser(o)).map(({ name }) => name)).toEqual([]);
  expect(new Set(declared.map(({ o }) => o.long))).toEqual(new Set(TYPED_FLAGS));
});

const WITH_SYNTH_TIMEOUT = REGISTERED.filter((c) => c.options.some((o) => o.long === '--synth-timeout'));

it.each(WITH_SYNTH_TIMEOUT.map((c) => [commandPath(c)] as const))(
  'ncalc %s --synth-timeout 0: refused before any work (no app is needed to say so)',
  async (name) => {
    const r = await ncalc([...name.split(' '), '--synth-timeout', '0'], { cwd: dir, env: cliEnv({}) });
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      'Error: --synth-timeout must be a whole number of at least 1, got "0"\n(run with --help for usage)\n',
    );
  },
);

/** An environment any read of which is a bug (a TypeError), like a property of undefined read. */
function brokenEnv(): NodeJS.ProcessEnv {
  return new Proxy({} as NodeJS.ProcessEnv, {
    get: (_t, key) => {
      if (typeof key === 'symbol') return undefined;
      throw new TypeError(`Cannot read properties of undefined (reading '${key}')`);
    },
    has: () => {
      throw new TypeError('Cannot use the in operator on undefined');
    },
  });
}

describe('an exception nothing expected is an internal error', () => {
  const app = new FixtureApp({ main: stack({ provider: {}, alerts: { A: alert({ name: 'a' }) } }) });
  afterAll(() => app.remove());
  // The emulator command runs a server of its own process; it is left out of this one.
  const RUN = COMMANDS.filter((c) => c.words[0] !== 'emulator' && c.words.join(' ') !== 'provider schema');

  // What each command needs to get past its own checks of the command line.
  const EXTRA: Record<string, string[]> = {
    apply: ['--auto-approve'],
    destroy: ['--auto-approve'],
    report: ['--no-preview', '--html', path.join(app.dir, 'page.html')],
    github: [reportDir()],
  };

  /** A report directory as ncalc drift --report-dir writes it, of no account. */
  function reportDir(): string {
    const dir = path.join(app.dir, 'drift-report');
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, 'index.md'), '# drift\n');
    writeFileSync(path.join(dir, 'index.json'), JSON.stringify({ report: 'index.md', reports: [] }));
    return dir;
  }

  it.each(RUN.map((c) => [c.words.join(' '), c] as const))('ncalc %s', async (_name, c) => {
    const args = [...c.words, ...(EXTRA[c.words[0]!] ?? [])];
    const { io, out } = quietIO(brokenEnv(), app.dir);
    const code = await run(args, io);
    expect(code).toBe(1);
    const lines = out.stderr.split('\n');
    expect(lines[0]).toMatch(/^Error: internal error: Cannot (read properties|use the in operator)/);
    expect(lines[1]).toMatch(
      /This is a bug of ncalc .*, not of your configuration\. Please report it .* with --debug\.$/,
    );
    expect(out.stderr).not.toMatch(/CONFIG_ERROR|\n\s+at /);

    const debug = quietIO(brokenEnv(), app.dir);
    expect(await run([...args, '--debug'], debug.io)).toBe(1);
    expect(debug.out.stderr).toMatch(/\n\s+at /);

    if (c.json) {
      const json = quietIO(brokenEnv(), app.dir);
      expect(await run([...args, '--json'], json.io)).toBe(1);
      const doc = JSON.parse(json.out.stdout) as { error: { code: string; problems: string[] } };
      expect(doc.error.code).toBe('INTERNAL_ERROR');
      expect(doc.error.problems[0]).toMatch(/^Cannot /);
    }
  });
});
