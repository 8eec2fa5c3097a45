/**
 * examples/terraform-hcl from a clone, the way its README says: the README's shell block runs
 * as written (bash, in the example's directory of this clone), on a free port instead of 8787,
 * with the real terraform. The wrapper finds the clone's own build above the mirror; no
 * node_modules/cdktf-provider-networkcalc is needed. And a wrapper that finds no package says
 * so in one line, which terraform shows.
 */
import { spawn, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { freePort } from '../helpers/ports';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { requireBuild } from '../helpers/build';

jest.setTimeout(600_000);

const ROOT = path.resolve(__dirname, '..', '..');
const EXAMPLE = path.join(ROOT, 'examples', 'terraform-hcl');
/** What the README's commands leave in the example's directory (all ignored by git). */
const LEFT = [
  'terraform-mirror',
  'terraform.rc',
  '.terraform',
  '.terraform.lock.hcl',
  'terraform.tfstate',
  'terraform.tfstate.backup',
];

/** The README's ```sh block, as written. */
function readmeScript(): string {
  const readme = readFileSync(path.join(EXAMPLE, 'README.md'), 'utf8');
  const block = /```sh\n([\s\S]*?)```/.exec(readme);
  if (!block) throw new Error('examples/terraform-hcl/README.md has no sh block');
  return block[1]!;
}

function run(script: string, cwd: string, timeoutMs: number): Promise<{ code: number; out: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['-c', script], {
      cwd,
      env: { PATH: process.env.PATH, HOME: process.env.HOME, TMPDIR: tmpdir() },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    const timer = setTimeout(() => {
      process.kill(-child.pid!, 'SIGKILL');
      reject(new Error(`did not finish in time:\n${out}`));
    }, timeoutMs);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code: code ?? -1, out });
    });
  });
}

const cleanExample = () => LEFT.forEach((f) => rmSync(path.join(EXAMPLE, f), { recursive: true, force: true }));

beforeAll(() => {
  requireBuild('dist/cli/main.js');
  const present = LEFT.filter((f) => existsSync(path.join(EXAMPLE, f)));
  if (present.length) throw new Error(`examples/terraform-hcl already holds ${present.join(', ')}; remove them first`);
});
afterAll(cleanExample);

test('GIVEN a clone THEN the README of examples/terraform-hcl runs as written: init, plan, apply, no drift, destroy', async () => {
  const port = await freePort();
  // Every step must succeed; the emulator (step 1) is stopped whatever happens.
  const script = `set -e\ntrap 'kill %1 2>/dev/null || true' EXIT\n${readmeScript().replace(/8787/g, String(port))}`;
  const r = await run(script, EXAMPLE, 540_000);
  expect({ code: r.code, out: r.out }).toEqual({ code: 0, out: expect.any(String) });
  expect(r.out).toContain('Terraform has been successfully initialized');
  expect(r.out).toMatch(/Apply complete! Resources: 4 added, 0 changed, 0 destroyed\./);
  expect(r.out).toMatch(/Destroy complete! Resources: 4 destroyed\./);
  expect(r.out).not.toContain('Unrecognized remote plugin message');
  // What the commands leave is ignored by git: nothing shows as untracked.
  const status = spawnSync('git', ['status', '--porcelain', '--untracked-files=all', '--ignored=no', '--', '.'], {
    cwd: EXAMPLE,
    encoding: 'utf8',
  });
  expect({ status: status.status, untracked: status.stdout }).toEqual({ status: 0, untracked: '' });
});

test("GIVEN no package above the mirror or the working directory THEN terraform shows the wrapper's one-line reason", async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'ncalc-tf-nopkg-'));
  try {
    copyFileSync(path.join(EXAMPLE, 'main.tf'), path.join(dir, 'main.tf'));
    const env = {
      PATH: process.env.PATH,
      HOME: dir,
      CHECKPOINT_DISABLE: '1',
      TF_CLI_CONFIG_FILE: path.join(dir, 'terraform.rc'),
    };
    const install = spawnSync(
      process.execPath,
      [
        path.join(ROOT, 'dist', 'cli', 'main.js'),
        'provider',
        'install',
        '--dir',
        path.join(dir, 'm'),
        '--cli-config',
        path.join(dir, 'terraform.rc'),
      ],
      { cwd: dir, env, encoding: 'utf8' },
    );
    expect(install.status).toBe(0);
    const init = spawnSync('terraform', ['init', '-input=false', '-no-color'], {
      cwd: dir,
      env,
      encoding: 'utf8',
      timeout: 120_000,
    });
    expect(init.status).toBe(0);
    const plan = spawnSync('terraform', ['plan', '-input=false', '-no-color'], {
      cwd: dir,
      env: { ...env, NETWORKCALC_TOKEN: 'x' },
      encoding: 'utf8',
      timeout: 120_000,
    });
    expect(plan.status).toBe(1);
    // terraform wraps long lines: compare the words.
    const words = plan.stderr.replace(/\s+/g, ' ');
    expect(words).toContain(
      'Unrecognized remote plugin message: networkcalc provider: cdktf-provider-networkcalc not found:',
    );
    expect(words).toContain(
      'run npm install in the app (in a clone of cdktf-provider-networkcalc: npm ci && npm run build)',
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
