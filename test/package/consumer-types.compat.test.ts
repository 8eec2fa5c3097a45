/**
 * The published types compile in the apps users have: an app of either CDK flavor (with only
 * its own library installed), TypeScript 5.9, 6 and 7, `strict` without `skipLibCheck`,
 * module resolution node16, nodenext and bundler, with `"types": []` and with @types/node.
 * The app installs the packed tarball, as a user does; the three compilers are installed in it
 * under aliases (TypeScript 7's `tsc` runs a native binary from a platform package).
 * Every TypeScript snippet of the README and docs/ compiles there too, as written.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { docFiles, snippetsOf } from './doc-snippets';
import { createUserApp, type Flavor, type UserApp } from './support';

jest.setTimeout(600_000);

/** Package alias in the app → the compiler it installs. */
const COMPILERS = { ts59: 'typescript@5.9.3', ts6: 'typescript@6.0.3', ts7: 'typescript@7.0.2' } as const;
type Compiler = keyof typeof COMPILERS;

const RESOLUTIONS = [
  { moduleResolution: 'node16', module: 'node16' },
  { moduleResolution: 'nodenext', module: 'nodenext' },
  { moduleResolution: 'bundler', module: 'esnext' },
] as const;

/** `"types": []` loads no ambient types: the root entry must need none. `node`: every entry. */
const TYPES = ['none', 'node'] as const;

/** An app of the constructs: only the package root, so nothing but our declarations can bring in Node's types. */
function constructsApp(flavor: Flavor): string {
  return `import { App, TerraformOutput, TerraformStack, type IResolvable } from '${flavor}';
import { Construct } from 'constructs';
import {
  Alert,
  AlertPolicy,
  AlertTarget,
  NetworkcalcAccount,
  NetworkcalcValidationError,
  Ownership,
  PolicyMode,
  ReportTarget,
  ReportTrigger,
  type ConstructProblem,
} from 'cdktf-provider-networkcalc';

class AlertsStack extends TerraformStack {
  constructor(scope: Construct, id: string) {
    super(scope, id);
    const account = new NetworkcalcAccount(this, 'Account', { ownership: Ownership.prefix('team-') });
    const spf = new Alert(this, 'Spf', {
      account,
      name: 'team-example.com SPF valid',
      target: AlertTarget.domain('example.com'),
      spfRecord: { filter: 'validity' },
    });
    // The token is one the app's own CDK library accepts.
    const active: IResolvable = spf.isActive;
    new TerraformOutput(this, 'SpfActive', { value: active });
    new AlertPolicy(this, 'Baseline', {
      account,
      mode: PolicyMode.REQUIRE,
      targets: { subdomains: false, include: ['example.com'] },
      checks: [{ label: 'team-SPF', spfRecord: { filter: 'validity' } }],
    });
    const report = new ReportTrigger(this, 'Report', { target: ReportTarget.domain('example.com') });
    new TerraformOutput(this, 'ReportUrl', { value: report.reportUrl });
  }
}

const app = new App();
new AlertsStack(app, 'alerts');
try {
  app.synth();
} catch (e) {
  const problems: readonly ConstructProblem[] = e instanceof NetworkcalcValidationError ? e.problems : [];
  console.error(problems.map((p) => p.message).join('\\n'));
}
`;
}

/** The client and the emulator entries beside the constructs (they run on Node, so with @types/node). */
function toolsModule(): string {
  return `import { NetworkCalcClient } from 'cdktf-provider-networkcalc/client';
import { startEmulator, type RunningEmulator } from 'cdktf-provider-networkcalc/emulator';
import { ALERT_TYPES } from 'cdktf-provider-networkcalc';

export async function listAlerts(): Promise<number> {
  const emulator: RunningEmulator = await startEmulator({ port: 0 });
  try {
    const client = NetworkCalcClient.fromEnv({ baseUrl: emulator.url }, { NETWORKCALC_TOKEN: 'token' });
    const alerts = await client.listAlerts();
    return alerts.filter((a) => ALERT_TYPES.includes(a.type)).length;
  } finally {
    await emulator.close();
  }
}
`;
}

interface Compiled {
  status: number | null;
  output: string;
}

function tsc(app: UserApp, compiler: Compiler, project: string): Promise<Compiled> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [path.join(app.dir, 'node_modules', compiler, 'bin', 'tsc'), '-p', project], {
      cwd: app.dir,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 180_000);
    child.on('error', (e) => (output += e.message));
    child.on('close', (status) => {
      clearTimeout(timer);
      resolve({ status, output });
    });
  });
}

/** Runs `jobs` two at a time (CI machines have two cores). */
async function twoAtATime<T>(jobs: (() => Promise<T>)[]): Promise<T[]> {
  const results: T[] = new Array<T>(jobs.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < jobs.length) {
      const i = next++;
      results[i] = await jobs[i]!();
    }
  };
  await Promise.all([worker(), worker()]);
  return results;
}

const CASES = (Object.keys(COMPILERS) as Compiler[]).flatMap((compiler) =>
  RESOLUTIONS.flatMap(({ moduleResolution }) => TYPES.map((types) => [compiler, moduleResolution, types] as const)),
);

describe.each<Flavor>(['cdktn', 'cdktf'])('an app on %s', (flavor) => {
  let app: UserApp;
  const compiled = new Map<string, Compiled>();
  const wrong = new Map<Compiler, Compiled>();
  const snippets = docFiles()
    .flatMap(snippetsOf)
    .filter((s) => s.flavor === flavor);
  const snippetResults = new Map<Compiler, Compiled>();
  /** Snippet file name → where the snippet is in the docs. */
  const snippetFiles = snippets.map((s) => ({ ...s, file: `snippets/${s.where.replace(/[^A-Za-z0-9]+/g, '_')}.ts` }));
  const SNIPPET_COMPILERS = snippetFiles.length ? (['ts59', 'ts7'] as const) : [];
  beforeAll(async () => {
    app = createUserApp(flavor, {
      packages: [...Object.entries(COMPILERS).map(([alias, spec]) => `${alias}@npm:${spec}`), '@types/node@24'],
    });
    writeFileSync(path.join(app.dir, 'main.ts'), constructsApp(flavor));
    writeFileSync(path.join(app.dir, 'tools.ts'), toolsModule());
    for (const { moduleResolution, module } of RESOLUTIONS)
      for (const types of TYPES)
        writeFileSync(
          path.join(app.dir, `tsconfig.${moduleResolution}.${types}.json`),
          JSON.stringify({
            compilerOptions: {
              strict: true,
              noEmit: true,
              target: 'es2022',
              module,
              moduleResolution,
              types: types === 'none' ? [] : ['node'],
            },
            files: types === 'none' ? ['main.ts'] : ['main.ts', 'tools.ts'],
          }),
        );
    // A check that cannot fail proves nothing: a type error must be reported by every compiler.
    writeFileSync(
      path.join(app.dir, 'wrong.ts'),
      `import { AlertTarget } from 'cdktf-provider-networkcalc';\nexport const t: number = AlertTarget.domain('example.com');\n`,
    );
    writeFileSync(
      path.join(app.dir, 'tsconfig.wrong.json'),
      JSON.stringify({
        compilerOptions: { strict: true, noEmit: true, module: 'nodenext', moduleResolution: 'nodenext', types: [] },
        files: ['wrong.ts'],
      }),
    );
    mkdirSync(path.join(app.dir, 'snippets'));
    for (const s of snippetFiles) writeFileSync(path.join(app.dir, s.file), s.source);
    writeFileSync(
      path.join(app.dir, 'tsconfig.snippets.json'),
      JSON.stringify({
        compilerOptions: {
          strict: true,
          noEmit: true,
          module: 'nodenext',
          moduleResolution: 'nodenext',
          types: ['node'],
        },
        files: snippetFiles.map((s) => s.file),
      }),
    );
    const compilers = Object.keys(COMPILERS) as Compiler[];
    const results = await twoAtATime([
      ...SNIPPET_COMPILERS.map((compiler) => () => tsc(app, compiler, 'tsconfig.snippets.json')),
      ...CASES.map(
        ([compiler, resolution, types]) =>
          () =>
            tsc(app, compiler, `tsconfig.${resolution}.${types}.json`),
      ),
      ...compilers.map((compiler) => () => tsc(app, compiler, 'tsconfig.wrong.json')),
    ]);
    for (const c of SNIPPET_COMPILERS) snippetResults.set(c, results.shift()!);
    CASES.forEach((c, i) => compiled.set(c.join(' '), results[i]!));
    compilers.forEach((c, i) => wrong.set(c, results[CASES.length + i]!));
  });
  afterAll(() => app?.dispose());

  it('has only its own CDK library installed', () => {
    const pkg = JSON.parse(readFileSync(path.join(app.dir, 'package.json'), 'utf8')) as {
      dependencies: Record<string, string>;
    };
    expect(pkg.dependencies).toHaveProperty(flavor);
    expect(pkg.dependencies).not.toHaveProperty(flavor === 'cdktn' ? 'cdktf' : 'cdktn');
  });

  it.each(CASES)('%s, moduleResolution %s, types %s: strict, no skipLibCheck, no errors', (...c) => {
    expect(compiled.get(c.join(' '))).toEqual({ status: 0, output: '' });
  });

  it('every TypeScript snippet of the README and docs/ for this library compiles as written (TypeScript 5.9 and 7)', () => {
    if (flavor === 'cdktn') expect(snippets.length).toBeGreaterThan(10);
    expect([...snippetResults.keys()]).toEqual([...SNIPPET_COMPILERS]);
    for (const [compiler, { status, output }] of snippetResults) {
      // Errors name the snippet's file: say where it is in the docs.
      const located = snippetFiles.reduce((text, s) => text.split(s.file).join(s.where), output);
      expect([compiler, located]).toEqual([compiler, '']);
      expect(status).toBe(0);
    }
  });

  it.each(Object.keys(COMPILERS) as Compiler[])('%s reports a type error in the app', (compiler) => {
    const { status, output } = wrong.get(compiler)!;
    expect(status).not.toBe(0);
    expect(output).toMatch(/wrong\.ts\(2,14\): error TS2322/);
  });
});
