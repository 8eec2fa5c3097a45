/**
 * A synth spread over worker processes (NCALC_SYNTH_WORKERS) whose part fails: the other
 * parts are stopped at once, not left to run to their end, and the app is then synthesized
 * in one process. The app here writes its stacks itself (no constructs), so no build is needed.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { FixtureApp, alert, cliEnv, ncalc, stack } from '../cli/support';
import { alive, waitFor } from '../helpers/processes';

jest.setTimeout(120_000);

/** How long the slow part would run: far beyond what the test allows the whole synth. */
const SLOW_MS = 60_000;

/**
 * Part 2 notes its pid and would write its stacks only after SLOW_MS; part 1 fails once part 2
 * runs; the whole app (no part) writes its stacks at once (synth.js of FixtureApp). Every run
 * appends its part to runs.log.
 */
const MAIN = `const fs = require('fs');
const part = process.env.NCALC_SYNTH_PART || 'whole';
fs.appendFileSync('runs.log', part + '\\n');
if (part === '2/2') {
  fs.writeFileSync('slow.pid', String(process.pid));
  setTimeout(() => { fs.writeFileSync('slow.done', ''); require('./synth.js'); }, ${SLOW_MS});
} else if (part === '1/2') {
  const until = Date.now() + 20000;
  setInterval(() => {
    if (!fs.existsSync('slow.pid') && Date.now() < until) return;
    console.error('Error: part 1 fails');
    process.exit(1);
  }, 20);
} else require('./synth.js');
`;

let app: FixtureApp;
let dir: string;
let slowPid = 0;
beforeEach(() => {
  app = new FixtureApp({ acct: stack({ provider: { token_env: 'ACCT_TOKEN' }, alerts: { A: alert({ name: 'a' }) } }) });
  dir = app.dir;
  writeFileSync(path.join(dir, 'main.js'), MAIN);
  writeFileSync(path.join(dir, 'cdktf.json'), JSON.stringify({ app: 'node main.js' }));
  slowPid = 0;
});
afterEach(() => {
  if (slowPid && alive(slowPid)) process.kill(slowPid, 'SIGKILL');
  app.remove();
});

describe('a synth spread over worker processes, one part failing', () => {
  it('stops the other parts at once, then synthesizes in one process', async () => {
    const started = Date.now();
    const r = await ncalc(['synth', '--out', 'out'], { cwd: dir, env: cliEnv({ NCALC_SYNTH_WORKERS: '2' }) });
    const elapsed = Date.now() - started;
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    // Both parts ran, then the whole app once.
    expect(readFileSync(path.join(dir, 'runs.log'), 'utf8').split('\n').filter(Boolean).sort()).toEqual([
      '1/2',
      '2/2',
      'whole',
    ]);
    expect(existsSync(path.join(dir, 'out', 'manifest.json'))).toBe(true);
    // The slow part was killed, not waited for: well under its SLOW_MS, and it never finished.
    expect(elapsed).toBeLessThan(SLOW_MS / 2);
    slowPid = Number(readFileSync(path.join(dir, 'slow.pid'), 'utf8'));
    await waitFor('the slow part outlived the synth', () => !alive(slowPid), 5_000);
    expect(existsSync(path.join(dir, 'slow.done'))).toBe(false);
  });
});
