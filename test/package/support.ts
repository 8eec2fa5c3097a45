/**
 * A user's app, made the way a user makes it: `npm pack` of this checkout, then a fresh
 * directory that installs the tarball beside its CDK library (cdktf or CDK Terrain) from the
 * registry. So only the compat tier (`*.compat.test.ts`, `npm run test:compat`) makes such apps.
 * Each test file installs once; the npm cache is `.cache/npm` in this checkout (ignored by git),
 * kept between runs so that a repeated run installs from it (`--prefer-offline`).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { REPO_ROOT, requireBuild } from '../helpers/build';
import { runCommand } from '../provider/nc-harness';
import type { TfResult } from '../provider/harness';

export { REPO_ROOT };
export const NPM = process.platform === 'win32' ? 'npm.cmd' : 'npm';
export const TSC = path.join(REPO_ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
const INSTALL_TIMEOUT_MS = 300_000;
/** The npm cache of the apps' installs: in the checkout, so that CI can keep it between runs. */
export const NPM_CACHE = path.join(REPO_ROOT, '.cache', 'npm');

export type Flavor = 'cdktf' | 'cdktn';

/** The versions an app of each flavor installs: the library, its CLI, and the constructs it accepts. */
export const FLAVORS: Record<Flavor, { library: string; cli: string; constructs: string; other: Flavor }> = {
  cdktf: { library: 'cdktf@0.21.0', cli: 'cdktf-cli@0.21.0', constructs: 'constructs@^10.4.2', other: 'cdktn' },
  cdktn: { library: 'cdktn@0.24.0', cli: 'cdktn-cli@0.24.0', constructs: 'constructs@~10.7.0', other: 'cdktf' },
};

/** Writes the package tarball (scripts skipped: dist/ is built already) into `dir`; returns its path. */
export function packTarball(dir: string): string {
  requireBuild('dist/cli/main.js');
  const out = execFileSync(NPM, ['pack', '--json', '--ignore-scripts', '--pack-destination', dir], {
    cwd: REPO_ROOT,
    encoding: 'utf8',
    timeout: 120_000,
  });
  const [{ filename }] = JSON.parse(out) as { filename: string }[];
  return path.join(dir, path.basename(filename));
}

/** Environment for the app's commands: none of this machine's API or terraform settings, no prompts, no network probes. */
export function appEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (
      !k.startsWith('TF_') &&
      !k.startsWith('NETWORKCALC_') &&
      !k.startsWith('CDKTF_') &&
      k !== 'NCALC_CDK' &&
      !k.startsWith('npm_')
    )
      env[k] = v;
  }
  return {
    ...env,
    CHECKPOINT_DISABLE: '1',
    CI: '1',
    NO_COLOR: '1',
    FORCE_COLOR: '0',
    NO_UPDATE_NOTIFIER: '1',
    ...extra,
  };
}

/**
 * The install-script decisions an app of this package records (docs/install.md, "Install
 * scripts"): npm 11 lists every dependency with an install script that the app's own
 * package.json has not decided on. protobufjs (through @grpc/proto-loader) is the one this
 * package brings; its postinstall does nothing in an npm tree. A tarball install also lists the
 * package's own `prepare`, which npm does not run for a tarball; npm matches that entry by the
 * tarball's absolute path. The CLIs these apps install (cdktn-cli) bring none.
 */
export function appAllowScripts(tarball: string): Record<string, boolean> {
  return { [`file:${path.resolve(tarball)}`]: false, protobufjs: false };
}

/** The line npm 11 prints after an install that ran into install scripts no allowScripts entry covers. */
export const UNREVIEWED_SCRIPTS_WARNING = 'install scripts not yet covered by allowScripts';

export interface UserApp {
  root: string;
  dir: string;
  tarball: string;
  /** What `npm install` printed (warnings included) when the app was made. */
  installOutput: string;
  /** Runs a command in the app directory (asynchronously: an emulator may answer in this process). */
  run(
    cmd: string,
    args: string[],
    opts?: { env?: Record<string, string>; timeoutMs?: number; cwd?: string },
  ): Promise<TfResult>;
  /** A binary of the app's node_modules/.bin. */
  bin(name: string): string;
  dispose(): void;
}

/**
 * A temporary app of `flavor` with this package installed from its tarball. `withCli` also
 * installs the flavor's CLI (cdktn-cli needs Node 22.19 or later to run); `packages`, more
 * packages of the app (npm specs).
 */
export function createUserApp(flavor: Flavor, opts: { withCli?: boolean; packages?: string[] } = {}): UserApp {
  const root = mkdtempSync(path.join(tmpdir(), `ncalc-${flavor}-app-`));
  try {
    const tarball = packTarball(root);
    const dir = path.join(root, 'app');
    execFileSync('mkdir', [dir]);
    writeFileSync(
      path.join(dir, 'package.json'),
      JSON.stringify(
        { name: `ncalc-${flavor}-user-app`, version: '1.0.0', private: true, allowScripts: appAllowScripts(tarball) },
        null,
        2,
      ),
    );
    const f = FLAVORS[flavor];
    const install = spawnSync(
      NPM,
      [
        'install',
        '--no-audit',
        '--no-fund',
        '--prefer-offline',
        `--cache=${NPM_CACHE}`,
        // Warnings shown, so that a test can see npm's install-scripts notice.
        '--loglevel=warn',
        tarball,
        f.library,
        f.constructs,
        ...(opts.withCli ? [f.cli] : []),
        ...(opts.packages ?? []),
      ],
      { cwd: dir, env: appEnv(), encoding: 'utf8', timeout: INSTALL_TIMEOUT_MS, killSignal: 'SIGKILL' },
    );
    if (install.status !== 0)
      throw new Error(
        `npm install in the ${flavor} app failed (${install.error?.message ?? `exit ${install.status}`}):\n${install.stdout}\n${install.stderr}`,
      );
    return {
      root,
      dir,
      tarball,
      installOutput: `${install.stdout}${install.stderr}`,
      run: (cmd, args, o = {}) =>
        runCommand(cmd, args, { cwd: o.cwd ?? dir, env: appEnv(o.env), timeoutMs: o.timeoutMs ?? 180_000 }),
      bin: (name) => path.join(dir, 'node_modules', '.bin', name),
      dispose: () => rmSync(root, { recursive: true, force: true }),
    };
  } catch (e) {
    rmSync(root, { recursive: true, force: true });
    throw e;
  }
}

/**
 * The arguments of `ncalc provider install` that lock the provider in the app (as its docs
 * say before a deploy) into a mirror of the app's temporary root, with a terraform CLI
 * configuration of its own; `cdkCliEnv` points the flavor's CLI at them.
 */
export function providerLockArgs(app: UserApp): string[] {
  return [
    'provider',
    'install',
    '--dir',
    path.join(app.root, 'mirror'),
    '--cli-config',
    cliConfigOf(app),
    '--lock',
    '.',
  ];
}

/** Environment of the flavor's CLI (deploy, diff, destroy) after `providerLockArgs`. */
export function cdkCliEnv(app: UserApp): Record<string, string> {
  // Without CDKTF_DISABLE_PLUGIN_CACHE_ENV the CLI shares ~/.terraform.d/plugin-cache between
  // apps: its entry would point into another app's mirror, removed when that suite ends (two
  // suites run at once).
  return { TF_CLI_CONFIG_FILE: cliConfigOf(app), CDKTF_DISABLE_PLUGIN_CACHE_ENV: '1' };
}

const cliConfigOf = (app: UserApp) => path.join(app.root, 'terraform.rc');

/** The packages directly under node_modules (scoped ones as @scope/name). */
export function installedPackages(dir: string): string[] {
  const nm = path.join(dir, 'node_modules');
  return readdirSync(nm).flatMap((n) =>
    n.startsWith('@') ? readdirSync(path.join(nm, n)).map((s) => `${n}/${s}`) : n.startsWith('.') ? [] : [n],
  );
}

/** Entry points of the package, each with a name it must export (CommonJS and ESM alike). */
export const ENTRY_POINTS: Record<string, string> = {
  'cdktf-provider-networkcalc': 'NetworkcalcAccount',
  'cdktf-provider-networkcalc/client': 'NetworkCalcClient',
  'cdktf-provider-networkcalc/emulator': 'startEmulator',
};

/** Paths into the package that no entry point opens: its modules are internal. */
export const NOT_EXPORTED = [
  'cdktf-provider-networkcalc/dist/client',
  'cdktf-provider-networkcalc/dist/index.js',
  'cdktf-provider-networkcalc/dist/cdk.js',
];

/** An app declaring one account, two alerts and a report, importing the CDK from `flavor`. */
export function appSource(flavor: Flavor): string {
  return `import { App, TerraformOutput, TerraformStack } from '${flavor}';
import { Construct } from 'constructs';
import { Alert, AlertTarget, NetworkcalcAccount, Ownership, ReportTarget, ReportTrigger } from 'cdktf-provider-networkcalc';
import type { NetworkCalcClient } from 'cdktf-provider-networkcalc/client';
import type { RunningEmulator } from 'cdktf-provider-networkcalc/emulator';

// Types of the other entry points resolve too.
export type Tools = { client?: NetworkCalcClient; emulator?: RunningEmulator };

class AlertsStack extends TerraformStack {
  constructor(scope: Construct, id: string) {
    super(scope, id);
    const account = new NetworkcalcAccount(this, 'Account', { ownership: Ownership.exclusive() });
    new Alert(this, 'Spf', { account, name: 'example.com SPF valid', target: AlertTarget.domain('example.com'), spfRecord: { filter: 'validity' } });
    new Alert(this, 'WwwCert', {
      account,
      name: 'www.example.com certificate expiry',
      target: AlertTarget.subdomain('www.example.com'),
      certificate: { expiresInDays: 21 },
    });
    const report = new ReportTrigger(this, 'Report', { target: ReportTarget.domain('example.com') });
    new TerraformOutput(this, 'ReportUrl', { value: report.reportUrl });
  }
}

const app = new App();
new AlertsStack(app, 'alerts');
app.synth();
`;
}

/** The tsconfig of \`cdktn init --template typescript\` (cdktf's is the same in what matters here). */
export const APP_TSCONFIG = {
  compilerOptions: {
    alwaysStrict: true,
    declaration: true,
    experimentalDecorators: true,
    lib: ['es2018'],
    module: 'CommonJS',
    noEmitOnError: true,
    noImplicitAny: true,
    noImplicitReturns: true,
    noUnusedLocals: true,
    strict: true,
    target: 'ES2018',
    skipLibCheck: true,
  },
  include: ['**/*.ts'],
  exclude: ['node_modules', 'cdktf.out'],
};

export function cdktfJson(): string {
  return JSON.stringify(
    {
      language: 'typescript',
      app: 'node main.js',
      output: 'cdktf.out',
      projectId: '00000000-0000-4000-8000-00000000beef',
      sendCrashReports: 'false',
      terraformProviders: [],
      terraformModules: [],
      context: {},
    },
    null,
    2,
  );
}
