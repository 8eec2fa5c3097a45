/**
 * The golden record of what `ncalc` prints: the --help of every command, and the output, exit
 * code and JSON bytes of command lines (ok, drift, refusals, usage errors, service errors, the
 * same with --json) run in-process against the emulator on 127.0.0.1. A restructuring of the
 * sources must leave every byte of it as it was.
 *
 * Only what differs from run to run is normalised: the emulator's port, the app's temporary
 * directory, the temporary directory and the report's time of writing. `GOLDEN_UPDATE=1 npx jest test/golden` writes
 * `baseline.json` anew (only for a change of behaviour meant as such).
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { useEmulator } from '../helpers/emulator';
import { FixtureApp, cliEnv, ncalc, stack } from '../cli/support';
import type { RunningEmulator } from '../../src/emulator';
import { CASES, HELP_COMMANDS, type GoldenScenario } from './cases';

const BASELINE = path.join(__dirname, 'baseline.json');
const UPDATE = process.env.GOLDEN_UPDATE === '1';

interface Record {
  args: string[];
  code: number;
  stdout: string;
  stderr: string;
}

const emulator = useEmulator({ deleteForm: 'path' });
const recorded: { [scenario: string]: Record[] } = {};
const baseline: { [scenario: string]: Record[] } =
  !UPDATE && existsSync(BASELINE) ? (JSON.parse(readFileSync(BASELINE, 'utf8')) as typeof baseline) : {};

afterAll(() => {
  if (UPDATE) writeFileSync(BASELINE, JSON.stringify(recorded, null, 2) + '\n');
});

/** What varies per run, replaced by a fixed word; nothing else is touched. */
function normalise(text: string, emu: RunningEmulator, dirs: string[]): string {
  let out = text.split(emu.url).join('<URL>');
  const port = new URL(emu.url).port;
  out = out.split(`127.0.0.1:${port}`).join('127.0.0.1:<PORT>');
  for (const dir of dirs) out = out.split(dir).join('<DIR>');
  out = out.split(tmpdir()).join('<TMP>');
  // The report document's time of writing.
  return out.replace(/"generated_at": "[0-9T:.-]+Z"/g, '"generated_at": "<TIME>"');
}

async function runScenario(name: string, scenario: GoldenScenario): Promise<void> {
  const emu = emulator();
  const app = new FixtureApp(scenario.stacks ?? { main: stack({ provider: {} }) });
  const empty = mkdtempSync(path.join(tmpdir(), 'ncalc-golden-'));
  const records: Record[] = [];
  try {
    const env = cliEnv({ NETWORKCALC_TOKEN: 'demo-token', NETWORKCALC_BASE_URL: emu.url, ...scenario.env });
    for (const step of scenario.steps) {
      if (typeof step === 'function') {
        await step({ emu, app });
        continue;
      }
      const [first, ...rest] = step;
      const args = first === '@empty' ? rest : step;
      const cwd = first === '@empty' ? empty : app.dir;
      const r = await ncalc(args, { cwd, env });
      const dirs = [app.dir, empty];
      records.push({
        args: step,
        code: r.code,
        stdout: normalise(r.stdout, emu, dirs),
        stderr: normalise(r.stderr, emu, dirs),
      });
    }
  } finally {
    app.remove();
    rmSync(empty, { recursive: true, force: true });
  }
  recorded[name] = records;
  if (!UPDATE) expect(records).toEqual(baseline[name]);
}

describe('help of every command', () => {
  it('is as recorded', async () => {
    await runScenario('help', { steps: HELP_COMMANDS.map((c) => [...c, '--help']).concat([['--version']]) });
  });
});

describe('command lines against the emulator', () => {
  for (const [name, scenario] of Object.entries(CASES)) {
    it(
      name,
      async () => {
        await runScenario(name, scenario);
      },
      120_000,
    );
  }

  it('runs at least 70 command lines', () => {
    const lines = Object.values(CASES).reduce((n, s) => n + s.steps.filter((x) => typeof x !== 'function').length, 0);
    expect(lines).toBeGreaterThanOrEqual(70);
  });
});
