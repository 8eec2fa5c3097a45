#!/usr/bin/env node
/**
 * `npm start`: a guided tour for newcomers. Starts the emulator in this process,
 * synthesizes examples/quickstart, then plan → apply → plan → an out-of-band change →
 * drift → apply, and stops everything. Finishes in seconds and leaves nothing behind.
 */
import { stripVTControlCharacters } from 'node:util';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { request } from 'undici';
import { DEMO_ACCOUNT, startEmulator, type RunningEmulator } from '../emulator';
import { useColor, type CliIO } from './io';
import { run } from './program';

const QUICKSTART = path.resolve(__dirname, '..', '..', 'examples', 'quickstart');
const TOUR_TIME_LIMIT_MS = 90_000;

/** Downloads a report the apply generated, to show that its URL is real. */
async function showReport(url: string, say: (s?: string) => void, dim: (s: string) => string): Promise<void> {
  try {
    const res = await request(url, { headersTimeout: 5000, bodyTimeout: 5000 });
    const body = await res.body.arrayBuffer();
    say(
      dim(
        `  GET ${url} → HTTP ${res.statusCode}, ${String(res.headers['content-type'] ?? 'no content type')}, ${body.byteLength} bytes`,
      ),
    );
  } catch (e) {
    say(dim(`  (could not download the report: ${(e as Error).message})`));
  }
}

/** How the tour writes: bold, cyan and dim only when colour is on (useColor: a terminal, FORCE_COLOR, not NO_COLOR). */
interface Narrator {
  readonly say: (s?: string) => void;
  readonly bold: (s: string) => string;
  readonly cyan: (s: string) => string;
  readonly dim: (s: string) => string;
  /** The title bar of the next chapter (`━━ 3/8 · Apply ━━━…`) and its explanation, dimmed. */
  readonly heading: (title: string, ...lines: string[]) => void;
}

/** The number of chapters, shown in each heading. */
const CHAPTERS = 8;

function narrator(): Narrator {
  const color = useColor(process.stdout, process.env, undefined);
  const bold = (s: string) => (color ? `\u001b[1m${s}\u001b[22m` : s);
  const cyan = (s: string) => (color ? `\u001b[36m${s}\u001b[39m` : s);
  const dim = (s: string) => (color ? `\u001b[2m${s}\u001b[22m` : s);
  const say = (s = '') => void process.stdout.write(s + '\n');
  let chapter = 0;
  const heading = (title: string, ...lines: string[]) => {
    chapter++;
    say();
    say(bold(`━━ ${chapter}/${CHAPTERS} · ${title} ${'━'.repeat(Math.max(3, 60 - title.length))}`));
    for (const l of lines) say(dim(l));
  };
  return { say, bold, cyan, dim, heading };
}

/** `ncalc` as the tour runs it: in this process, in examples/quickstart, against the emulator. */
interface Ncalc {
  /** Shows `$ ncalc <shown>`, runs `ncalc <args>` and shows its exit code. */
  run(args: string[], shown?: string[]): Promise<number>;
  /** What the last run printed to stdout. */
  output(): string;
}

/** Chapter 1: the emulator, started in this process. */
async function startNetworkCalc(n: Narrator): Promise<RunningEmulator> {
  n.heading(
    'Start a local NetworkCalc',
    'The emulator implements the NetworkCalc Reports and Alerts API v1.9 on 127.0.0.1,',
    'with a demo account that owns example.com (www, mail) and example.org.',
  );
  const emulator = await startEmulator({ port: 0 });
  n.say(`  emulator listening on ${n.cyan(emulator.url)}`);
  return emulator;
}

/**
 * Chapter 1, continued: ncalc's environment, shown as the exports a user would type, and ncalc
 * run with it. `out` is the synth directory, outside the example.
 */
function ncalcAgainst(n: Narrator, emulator: RunningEmulator, out: string): Ncalc {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    // The app it synthesizes (through tsx) keeps no transform or compile cache in TMPDIR, as in CI.
    TSX_DISABLE_CACHE: '1',
    NODE_DISABLE_COMPILE_CACHE: '1',
    NETWORKCALC_BASE_URL: emulator.url,
    NETWORKCALC_TOKEN: DEMO_ACCOUNT.token,
    GITHUB_STEP_SUMMARY: '',
  };
  n.say(`  export NETWORKCALC_BASE_URL=${emulator.url}`);
  n.say(`  export NETWORKCALC_TOKEN=…   ${n.dim('(the demo token; ncalc never prints it)')}`);

  let captured = '';
  const stdout = {
    isTTY: process.stdout.isTTY,
    write: (chunk: string) => ((captured += chunk), process.stdout.write(chunk)),
  };
  const io: CliIO = { stdout, stderr: process.stderr, stdin: process.stdin, env, cwd: QUICKSTART };
  return {
    async run(args, shown = args) {
      n.say(n.cyan(`$ ncalc ${shown.join(' ')}`));
      captured = '';
      const code = await run([...args, '--out', out], io);
      n.say(n.dim(`(exit code ${code})`));
      return code;
    },
    output: () => captured,
  };
}

/** Chapter 2: the first plan, which synthesizes the example. */
async function plan(n: Narrator, ncalc: Ncalc): Promise<boolean> {
  const rel = path.relative(process.cwd(), QUICKSTART) || '.';
  n.heading(
    'Plan',
    `${rel}/main.ts declares 10 alerts and a report with this package's constructs, in a CDK Terrain (cdktn) app.`,
    'ncalc synthesizes the app (like `cdktn synth`), lists the account once and diffs by alert name.',
  );
  n.say(n.cyan(`$ cd ${rel}`));
  return (await ncalc.run(['plan'])) === 0;
}

/** Chapter 3: apply, and the report it made, downloaded. */
async function apply(n: Narrator, ncalc: Ncalc): Promise<boolean> {
  n.heading(
    'Apply',
    'Creates the alerts (8 at a time), then runs the report trigger and prints its URL.',
    'On a terminal apply asks first; --auto-approve is for scripts and this tour.',
  );
  if ((await ncalc.run(['apply', '--auto-approve', '--no-synth'], ['apply', '--auto-approve'])) !== 0) return false;
  const reportUrl = /report: (http\S+)/.exec(stripVTControlCharacters(ncalc.output()))?.[1];
  if (reportUrl) await showReport(reportUrl, n.say, n.dim);
  return true;
}

/** Chapter 4: a second plan, with nothing to change. */
async function planAgain(n: Narrator, ncalc: Ncalc): Promise<boolean> {
  n.heading('Plan again', 'Nothing to change: the live alerts match the code. The report trigger runs on every apply.');
  return (await ncalc.run(['plan', '--detailed-exitcode', '--no-synth'], ['plan', '--detailed-exitcode'])) === 0;
}

/** Chapter 5: an alert changed and one added behind ncalc's back. */
async function editByHand(n: Narrator, emulator: RunningEmulator): Promise<void> {
  n.heading(
    'Someone edits the account by hand',
    'Out of band, through the emulator’s control surface: a threshold is changed and an alert is added.',
  );
  const live = (await (
    await request(`${emulator.url}/api/alerts/`, { headers: { authorization: `Bearer ${DEMO_ACCOUNT.token}` } })
  ).body.json()) as { alerts: Array<{ id: number; name: string }> };
  const cert = live.alerts.find((a) => a.name === 'www.example.com certificate expiry') ?? live.alerts[0];
  await emulator.control.patchAlert(DEMO_ACCOUNT.name, cert.id, { filter_value: '3' });
  n.say(`  changed ${JSON.stringify(cert.name)} (id ${cert.id}): filter_value → "3"`);
  const added = await emulator.control.createAlert(DEMO_ACCOUNT.name, {
    name: 'temporary check',
    type: 'SPF Record',
    filter: 'validity',
    target: 'example.org',
  });
  n.say(`  added   "temporary check" (id ${added.id})`);
}

/** Chapter 6: drift finds both edits (exit code 2). */
async function detectDrift(n: Narrator, ncalc: Ncalc): Promise<boolean> {
  n.heading(
    'Detect drift',
    'What a scheduled CI job runs: exit 2 means drift (0 in sync, 1 error). --format markdown',
    'writes a table for a pull request or $GITHUB_STEP_SUMMARY.',
  );
  return (await ncalc.run(['drift', '--no-synth'], ['drift'])) === 2;
}

/** Chapter 7: apply undoes both edits, and drift finds none. */
async function converge(n: Narrator, ncalc: Ncalc): Promise<boolean> {
  n.heading(
    'Converge',
    'The account is exclusive (the default ownership): apply restores the edit and removes the addition.',
    '--no-triggers skips the report this time.',
  );
  if (
    (await ncalc.run(
      ['apply', '--auto-approve', '--no-triggers', '--no-synth'],
      ['apply', '--auto-approve', '--no-triggers'],
    )) !== 0
  )
    return false;
  return (await ncalc.run(['drift', '--no-synth'], ['drift'])) === 0;
}

/** Chapter 8: the emulator stopped, and where to go next. */
async function stop(n: Narrator, emulator: RunningEmulator): Promise<void> {
  n.heading('Stop', 'The emulator stops with this process; its state was in memory.');
  await emulator.close();
  n.say('  emulator stopped.');
  n.say();
  n.say(n.bold('Next:') + ' docs/cli.md (every command and flag), examples/drift-ci (drift in CI),');
  n.say(
    '      `npx --no-install ncalc emulator` for a long-running local API, and `ncalc export` to turn an existing account into code.',
  );
}

/** The tour, chapter by chapter; 1 when a step did not go as expected. */
async function tour(): Promise<number> {
  const n = narrator();
  const out = mkdtempSync(path.join(tmpdir(), 'ncalc-tour-'));
  let emulator: RunningEmulator | undefined;
  try {
    emulator = await startNetworkCalc(n);
    const ncalc = ncalcAgainst(n, emulator, out);
    if (!(await plan(n, ncalc))) return 1;
    if (!(await apply(n, ncalc))) return 1;
    if (!(await planAgain(n, ncalc))) return 1;
    await editByHand(n, emulator);
    if (!(await detectDrift(n, ncalc))) return 1;
    if (!(await converge(n, ncalc))) return 1;
    await stop(n, emulator);
    emulator = undefined;
    return 0;
  } finally {
    await emulator?.close().catch(() => undefined);
    rmSync(out, { recursive: true, force: true });
  }
}

if (require.main === module) {
  const limit = setTimeout(() => {
    process.stderr.write(`tour: did not finish within ${TOUR_TIME_LIMIT_MS / 1000} s; stopping\n`);
    process.exit(1);
  }, TOUR_TIME_LIMIT_MS);
  limit.unref();
  tour().then(
    (code) => {
      if (code) process.stderr.write('tour: a step did not go as expected (see above)\n');
      process.exitCode = code;
    },
    (err: unknown) => {
      process.stderr.write(`tour: ${(err as Error).stack ?? String(err)}\n`);
      process.exitCode = 1;
    },
  );
}
