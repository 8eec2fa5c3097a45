/**
 * `ncalc github` for 1,000 drifted accounts on one scheduled run, against the local GitHub API
 * of the tests (every request checked against GitHub's OpenAPI description) with GitHub's
 * secondary limits on content creation (80 a minute, 500 an hour), on a clock 100 times
 * faster for both sides (the plugins' waits and the server's windows). Prints the requests and
 * the minutes they take at real speed: the scaled time of the schedule × 100 (an upper
 * bound: the bench machine's own time per request is scaled up with it).
 *
 *   npx tsx bench/github-fleet.ts
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { PassThrough } from 'node:stream';
import { githubCommand } from '../src/cli/github-command';
import { startGitHubServer } from '../test/helpers/github-server';

const N = 1000;
const SCALE = 0.01;

async function main(): Promise<void> {
  const dir = mkdtempSync(path.join(tmpdir(), 'ncalc-bench-github-'));
  const github = await startGitHubServer({ timeScale: SCALE });
  try {
    const reports = Array.from({ length: N }, (_, i) => {
      const marker = `<!-- ncalc-drift account=${i.toString(16).padStart(16, '0')} -->`;
      const file = `acct${i}.md`;
      writeFileSync(path.join(dir, file), `${marker}\n## NetworkCalc alert drift\n\n1 difference in acct${i}.\n`);
      return { account: `acct${i}`, marker, file, status: 'drift', title: `NetworkCalc alert drift: acct${i}` };
    });
    writeFileSync(path.join(dir, 'index.md'), '<!-- ncalc-drift -->\n## NetworkCalc alert drift\n');
    writeFileSync(path.join(dir, 'index.json'), JSON.stringify({ shard: null, report: 'index.md', reports }));
    let err = '';
    const io = {
      stdout: { write: () => true },
      stderr: { write: (t: string) => ((err += t), true) },
      stdin: new PassThrough(),
      env: github.env('schedule'),
      cwd: dir,
    };
    const started = Date.now();
    const code = await githubCommand(io, [dir], {}, { timeScale: SCALE });
    const wall = (Date.now() - started) / 1000;
    const last = github.log[github.log.length - 1]!.at;
    const limited = github.log.filter((l) => l.status === 403).length;
    console.log(
      JSON.stringify({
        exit: code,
        stderr: err,
        issues: github.openDriftIssues().length,
        requests: github.log.length,
        writes: github.log.filter((l) => l.method !== 'GET' && l.status < 300).length,
        secondary_403: limited,
        violations: github.violations.length,
        minutes_at_real_speed: +(last / 60_000).toFixed(1),
        wall_seconds_scaled: wall,
      }),
    );
    // The next run with nothing changed: reads only.
    const before = github.log.length;
    const again = await githubCommand(io, [dir], {}, { timeScale: SCALE });
    const second = github.log.slice(before);
    console.log(
      JSON.stringify({
        second_run_exit: again,
        requests: second.length,
        writes: second.filter((l) => l.method !== 'GET').length,
        minutes_at_real_speed: +((second[second.length - 1]!.at - second[0]!.at) / 60_000).toFixed(2),
      }),
    );
  } finally {
    await github.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

void main();
