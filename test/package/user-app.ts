import { stripVTControlCharacters } from 'node:util';
/**
 * The end-to-end checks every CDK flavor passes, from the packed tarball: install with no
 * flags and no overrides, import every entry point from CommonJS and ES modules, type-check,
 * `ncalc plan`/`apply` against the emulator, and the flavor's own `deploy` without
 * --skip-provider-lock after `ncalc provider install --lock`.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import semver from 'semver';
import { DEMO_ACCOUNT, startEmulator, type RunningEmulator } from '../../src/emulator';
import { expectStatus, requireTerraform } from '../provider/nc-harness';
import {
  APP_TSCONFIG,
  appSource,
  cdkCliEnv,
  cdktfJson,
  createUserApp,
  ENTRY_POINTS,
  NOT_EXPORTED,
  FLAVORS,
  installedPackages,
  providerLockArgs,
  REPO_ROOT,
  TSC,
  UNREVIEWED_SCRIPTS_WARNING,
  type Flavor,
  type UserApp,
} from './support';

/** A CLI's output without colours, its whitespace runs (line wraps) as one space. */
export const plain = (text: string) => stripVTControlCharacters(text).replace(/\s+/g, ' ');

/** cdktn-cli 0.24 declares node >= 22.19.0; older Node runs everything else of the flavor. */
export const CDKTN_CLI_RUNS = semver.gte(process.version, '22.19.0');
/** cdktf-cli 0.21 loads node-pty, which ships binaries up to Node 22's ABI only (and cdktf is archived). */
export const CDKTF_CLI_RUNS = semver.lt(process.version, '23.0.0');

/**
 * `deploy`: run the flavor's CLI from this repository's node_modules ('repo'), install it into
 * the app ('app'), or skip that one test ('skip', when the CLI cannot run on this Node).
 */
export function describeUserApp(flavor: Flavor, opts: { deploy: 'repo' | 'app' | 'skip' }): void {
  const other = FLAVORS[flavor].other;

  describe(`a ${flavor} app using the packed package`, () => {
    let app: UserApp;
    let emu: RunningEmulator;
    const api = () => ({ NETWORKCALC_BASE_URL: emu.url, NETWORKCALC_TOKEN: DEMO_ACCOUNT.token });
    const ncalc = (args: string[], env: Record<string, string> = {}) =>
      app.run(process.execPath, [app.bin('ncalc'), ...args], { env: { ...api(), ...env } });
    const liveNames = async () =>
      ((await emu.control.state()).accounts.find((a) => a.name === DEMO_ACCOUNT.name)?.alerts ?? [])
        .map((a) => a.name)
        .sort();

    beforeAll(async () => {
      requireTerraform();
      app = createUserApp(flavor, { withCli: opts.deploy === 'app' });
      writeFileSync(path.join(app.dir, 'main.ts'), appSource(flavor));
      writeFileSync(path.join(app.dir, 'tsconfig.json'), JSON.stringify(APP_TSCONFIG, null, 2));
      writeFileSync(path.join(app.dir, 'cdktf.json'), cdktfJson());
      // As `npm run build` of an app from the template: tsc with the app's tsconfig.
      const tsc = await app.run(process.execPath, [TSC, '-p', '.']);
      if (tsc.status !== 0)
        throw new Error(`the ${flavor} app does not compile against the installed package:\n${tsc.output}`);
      emu = await startEmulator();
    });
    afterAll(async () => {
      await emu?.close();
      app?.dispose();
    });

    test(`installs with no flags or overrides, and brings no copy of ${other}`, async () => {
      const pkgs = installedPackages(app.dir);
      expect(pkgs).toEqual(expect.arrayContaining(['cdktf-provider-networkcalc', flavor, 'constructs']));
      expect(pkgs).not.toContain(other);
      expect(JSON.parse(readFileSync(path.join(app.dir, 'package.json'), 'utf8'))).not.toHaveProperty('overrides');
      // Every peer satisfied, nothing extraneous or invalid.
      const ls = await app.run('npm', ['ls', '--all', '--loglevel=error']);
      expectStatus(ls, 0);
    });

    test('installs with no install-scripts warning on npm 11, given the allowScripts entries docs/install.md names', () => {
      expect(app.installOutput).not.toContain(UNREVIEWED_SCRIPTS_WARNING);
    });

    test('every entry point loads from CommonJS and from an ES module, with its names; only the root loads the CDK', async () => {
      const entries = Object.entries(ENTRY_POINTS);
      writeFileSync(
        path.join(app.dir, 'check.cjs'),
        `const cdk = () => Object.keys(require.cache).filter((f) => /node_modules[\\\\/](cdktf|cdktn)[\\\\/]lib[\\\\/]index\\.js$/.test(f)).length;
const out = {};
${entries
  .filter(([spec]) => spec !== 'cdktf-provider-networkcalc')
  .map(([spec, name]) => `out[${JSON.stringify(spec)}] = typeof require(${JSON.stringify(spec)}).${name};`)
  .join('\n')}
out.cdkBeforeRoot = cdk();
out.root = typeof require('cdktf-provider-networkcalc').NetworkcalcAccount;
out.cdkAfterRoot = cdk();
// The library the constructs took, and every CDK name they use present in it (an internal
// module, which no entry point exports: required by its file name).
const pkgDir = require('node:path').dirname(require.resolve('cdktf-provider-networkcalc/package.json'));
const lib = require(require('node:path').join(pkgDir, 'dist', 'cdk.js'));
out.library = lib.cdkChoice.library;
out.missing = Object.keys(lib).filter((k) => lib[k] === undefined);
console.log(JSON.stringify(out));
`,
      );
      writeFileSync(
        path.join(app.dir, 'check.mjs'),
        `${entries.map(([spec, name], i) => `import { ${name} as e${i} } from ${JSON.stringify(spec)};`).join('\n')}
console.log(JSON.stringify({ ${entries.map(([spec], i) => `${JSON.stringify(spec)}: typeof e${i}`).join(', ')} }));
`,
      );
      const cjs = await app.run(process.execPath, ['check.cjs']);
      expectStatus(cjs, 0);
      const expected = Object.fromEntries(entries.map(([spec]) => [spec, 'function']));
      const { root, cdkBeforeRoot, cdkAfterRoot, library, missing, ...rest } = JSON.parse(cjs.stdout) as Record<
        string,
        unknown
      >;
      expect({ 'cdktf-provider-networkcalc': root, ...rest }).toEqual(expected);
      expect({ cdkBeforeRoot, cdkAfterRoot, library, missing }).toEqual({
        cdkBeforeRoot: 0,
        cdkAfterRoot: 1,
        library: flavor,
        missing: [],
      });
      const esm = await app.run(process.execPath, ['check.mjs']);
      expectStatus(esm, 0);
      expect(JSON.parse(esm.stdout)).toEqual(expected);
    });

    test('the modules behind the entry points are not importable by path', async () => {
      writeFileSync(
        path.join(app.dir, 'internal.cjs'),
        `const codes = {};
for (const spec of ${JSON.stringify(NOT_EXPORTED)}) {
  try { require(spec); codes[spec] = 'loaded'; } catch (e) { codes[spec] = e.code; }
}
console.log(JSON.stringify(codes));
`,
      );
      const r = await app.run(process.execPath, ['internal.cjs']);
      expectStatus(r, 0);
      expect(JSON.parse(r.stdout)).toEqual(
        Object.fromEntries(NOT_EXPORTED.map((spec) => [spec, 'ERR_PACKAGE_PATH_NOT_EXPORTED'])),
      );
    });

    test('the app type-checks with node16 and bundler module resolution as well (the exports map carries the types)', async () => {
      for (const [mod, resolution] of [
        ['node16', 'node16'],
        ['preserve', 'bundler'],
      ]) {
        const r = await app.run(process.execPath, [
          TSC,
          '-p',
          '.',
          '--noEmit',
          '--module',
          mod,
          '--moduleResolution',
          resolution,
        ]);
        if (r.status !== 0) throw new Error(`tsc --moduleResolution ${resolution}:\n${r.output}`);
      }
    });

    test('ncalc synthesizes the app and applies it to the emulator; the next plan has no changes', async () => {
      const plan = await ncalc(['plan', '--detailed-exitcode']);
      expectStatus(plan, 2);
      expect(plan.stdout).toContain('Plan: 2 to create, 0 to update, 0 to delete.');
      const stack = JSON.parse(
        readFileSync(path.join(app.dir, 'cdktf.out', 'stacks', 'alerts', 'cdk.tf.json'), 'utf8'),
      );
      expect(stack.terraform.required_providers).toEqual({
        networkcalc: { source: 'networkcalc/networkcalc', version: '~> 0.1' },
      });
      expect(Object.values(stack.resource.networkcalc_alert)).toHaveLength(2);

      const apply = await ncalc(['apply', '--auto-approve']);
      expectStatus(apply, 0);
      expect(apply.stdout).toContain('Apply complete: 2 created, 0 updated, 0 deleted, 0 failed.');
      expect(await liveNames()).toEqual(['example.com SPF valid', 'www.example.com certificate expiry']);
      expectStatus(await ncalc(['plan', '--detailed-exitcode']), 0);
    });

    const deployName = `${flavor} deploy without --skip-provider-lock, after ncalc provider install --lock${opts.deploy === 'skip' ? ` (skipped: ${flavor}-cli does not run on Node ${process.version})` : ''}`;
    (opts.deploy === 'skip' ? test.skip : test)(deployName, async () => {
      await emu.control.reset();
      const lock = await ncalc(providerLockArgs(app));
      expectStatus(lock, 0);
      expect(lock.stdout).toContain(`Locked networkcalc/networkcalc 0.1.0 (h1:`);
      expect(lock.stdout).toContain(path.join('cdktf.out', 'stacks', 'alerts', '.terraform.lock.hcl'));

      const cli = opts.deploy === 'repo' ? path.join(REPO_ROOT, 'node_modules', '.bin', flavor) : app.bin(flavor);
      const deploy = await app.run(cli, ['deploy', '--auto-approve'], {
        env: { ...api(), ...cdkCliEnv(app) },
        timeoutMs: 240_000,
      });
      expectStatus(deploy, 0);
      expect(plain(deploy.output)).toContain('Apply complete! Resources: 3 added, 0 changed, 0 destroyed.');
      expect(plain(deploy.output)).not.toContain('Could not retrieve providers for locking');
      expect(await liveNames()).toEqual(['example.com SPF valid', 'www.example.com certificate expiry']);
      // What terraform created is what ncalc wants: the two front doors agree.
      expectStatus(await ncalc(['plan', '--detailed-exitcode']), 0);
    });
  });
}
