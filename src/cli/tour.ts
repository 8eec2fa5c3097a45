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

async function tour(): Promise<number> {
  const color = useColor(process.stdout, process.env, undefined);
  const bold = (s: string) => (color ? `\u001b[1m${s}\u001b[22m` : s);
  const cyan = (s: string) => (color ? `\u001b[36m${s}\u001b[39m` : s);
  const dim = (s: string) => (color ? `\u001b[2m${s}\u001b[22m` : s);
  const say = (s = '') => process.stdout.write(s + '\n');
  let step = 0;
  const steps = 8;
  const heading = (title: string, ...lines: string[]) => {
    step++;
    say();
    say(bold(`━━ ${step}/${steps} · ${title} ${'━'.repeat(Math.max(3, 60 - title.length))}`));
    for (const l of lines) say(dim(l));
  };

  const out = mkdtempSync(path.join(tmpdir(), 'ncalc-tour-'));
  let emulator: RunningEmulator | undefined;
  try {
    heading(
      'Start a local NetworkCalc',
      'The emulator implements the NetworkCalc Reports and Alerts API v1.9 on 127.0.0.1,',
      'with a demo account that owns example.com (www, mail) and example.org.',
    );
    emulator = await startEmulator({ port: 0 });
    say(`  emulator listening on ${cyan(emulator.url)}`);
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      NETWORKCALC_BASE_URL: emulator.url,
      NETWORKCALC_TOKEN: DEMO_ACCOUNT.token,
      GITHUB_STEP_SUMMARY: '',
    };
    say(`  export NETWORKCALC_BASE_URL=${emulator.url}`);
    say(`  export NETWORKCALC_TOKEN=…   ${dim('(the demo token; ncalc never prints it)')}`);

    let captured = '';
    const stdout = {
      isTTY: process.stdout.isTTY,
      write: (chunk: string) => ((captured += chunk), process.stdout.write(chunk)),
    };
    const io: CliIO = { stdout, stderr: process.stderr, stdin: process.stdin, env, cwd: QUICKSTART };
    const rel = path.relative(process.cwd(), QUICKSTART) || '.';
    const ncalc = async (args: string[], shown: string[] = args): Promise<number> => {
      say(cyan(`$ ncalc ${shown.join(' ')}`));
      captured = '';
      const code = await run([...args, '--out', out], io);
      say(dim(`(exit code ${code})`));
      return code;
    };

    heading(
      'Plan',
      `${rel}/main.ts declares 10 alerts and a report with the cdktf constructs.`,
      'ncalc synthesizes the app (like `cdktf synth`), lists the account once and diffs by alert name.',
    );
    say(cyan(`$ cd ${rel}`));
    if ((await ncalc(['plan'])) !== 0) return 1;

    heading(
      'Apply',
      'Creates the alerts (8 at a time), then runs the report trigger and prints its URL.',
      'On a terminal apply asks first; --auto-approve is for scripts and this tour.',
    );
    if ((await ncalc(['apply', '--auto-approve', '--no-synth'], ['apply', '--auto-approve'])) !== 0) return 1;
    const reportUrl = /report: (http\S+)/.exec(stripVTControlCharacters(captured))?.[1];
    if (reportUrl) await showReport(reportUrl, say, dim);

    heading('Plan again', 'Nothing to change: the live alerts match the code. The report trigger runs on every apply.');
    if ((await ncalc(['plan', '--detailed-exitcode', '--no-synth'], ['plan', '--detailed-exitcode'])) !== 0) return 1;

    heading(
      'Someone edits the account by hand',
      'Out of band, through the emulator’s control surface: a threshold is changed and an alert is added.',
    );
    const live = (await (
      await request(`${emulator.url}/api/alerts/`, { headers: { authorization: `Bearer ${DEMO_ACCOUNT.token}` } })
    ).body.json()) as { alerts: Array<{ id: number; name: string }> };
    const cert = live.alerts.find((a) => a.name === 'www.example.com certificate expiry') ?? live.alerts[0];
    await emulator.control.patchAlert(DEMO_ACCOUNT.name, cert.id, { filter_value: '3' });
    say(`  changed ${JSON.stringify(cert.name)} (id ${cert.id}): filter_value → "3"`);
    const added = await emulator.control.createAlert(DEMO_ACCOUNT.name, {
      name: 'temporary check',
      type: 'SPF Record',
      filter: 'validity',
      target: 'example.org',
    });
    say(`  added   "temporary check" (id ${added.id})`);

    heading(
      'Detect drift',
      'What a scheduled CI job runs: exit 2 means drift (0 in sync, 1 error). --format markdown',
      'writes a table for a pull request or $GITHUB_STEP_SUMMARY.',
    );
    const drift = await ncalc(['drift', '--no-synth'], ['drift']);
    if (drift !== 2) return 1;

    heading(
      'Converge',
      'The account is exclusive (the default ownership): apply restores the edit and removes the addition.',
      '--no-triggers skips the report this time.',
    );
    if (
      (await ncalc(
        ['apply', '--auto-approve', '--no-triggers', '--no-synth'],
        ['apply', '--auto-approve', '--no-triggers'],
      )) !== 0
    )
      return 1;
    if ((await ncalc(['drift', '--no-synth'], ['drift'])) !== 0) return 1;

    heading('Stop', 'The emulator stops with this process; its state was in memory.');
    await emulator.close();
    emulator = undefined;
    say('  emulator stopped.');
    say();
    say(bold('Next:') + ' docs/cli.md (every command and flag), examples/drift-ci (drift in CI),');
    say(
      '      `npx --no-install ncalc emulator` for a long-running local API, and `ncalc export` to turn an existing account into code.',
    );
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
