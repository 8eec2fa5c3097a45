/**
 * The environment read in one copy (environmentSnapshot) in a process of its own, whose
 * process.env is Node's own: the copy is taken (not process.env itself), holds what the
 * process started with and what it set since, and leaves nothing of its probe behind.
 */
import { spawnSync } from 'node:child_process';
import * as path from 'node:path';

const ROOT = path.resolve(__dirname, '../..');

it('GIVEN 2,000 variables and changes made at run time THEN the copy holds every value process.env holds', () => {
  const variables = Object.fromEntries(Array.from({ length: 2000 }, (_, i) => [`FLEET_${i}_TOKEN`, `token-${i}`]));
  const script = `
    const { environmentSnapshot } = require(${JSON.stringify(path.join(ROOT, 'src/accounts/environment'))});
    process.env.FLEET_1_TOKEN = 'changed';
    delete process.env.FLEET_2_TOKEN;
    process.env.ADDED_LATER = 'added';
    const copy = environmentSnapshot(process.env);
    const keys = Object.keys(process.env);
    console.log(JSON.stringify({
      copied: copy !== process.env,
      same: keys.length === Object.keys(copy).length && keys.every((k) => copy[k] === process.env[k]),
      values: [copy.FLEET_0_TOKEN, copy.FLEET_1_TOKEN, copy.FLEET_2_TOKEN ?? null, copy.ADDED_LATER],
      probes: Object.keys(process.env).filter((k) => k.startsWith('NCALC_ENVIRONMENT_PROBE')).length,
    }));`;
  const r = spawnSync(process.execPath, ['--require', require.resolve('tsx/cjs'), '-e', script], {
    env: { PATH: process.env.PATH, TMPDIR: process.env.TMPDIR, TSX_DISABLE_CACHE: '1', ...variables },
    encoding: 'utf8',
  });
  expect(r.stderr).toBe('');
  expect(JSON.parse(r.stdout)).toEqual({
    copied: process.platform !== 'win32',
    same: true,
    values: ['token-0', 'changed', null, 'added'],
    probes: 0,
  });
});
