/**
 * A real cdktf app in a temporary git repository, written in TypeScript and run by tsx the
 * way users run theirs, importing this package and cdktf through its own node_modules links.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { ROOT, ncalc } from '../cli/support';

const TSX = path.join(ROOT, 'node_modules', '.bin', 'tsx');

/**
 * The app's own `typescript`: this repository's (5.9), none (tsx needs none), or one whose
 * main entry has no compiler API and throws when loaded, as TypeScript 7's exports none.
 */
export type AppTypeScript = 'ours' | 'none' | 'no-compiler-api';

export class TsApp {
  readonly dir: string;
  constructor(files: Record<string, string>, typescript: AppTypeScript = 'ours') {
    this.dir = mkdtempSync(path.join(tmpdir(), 'ncalc-suggest-'));
    const modules = path.join(this.dir, 'node_modules');
    mkdirSync(modules);
    symlinkSync(ROOT, path.join(modules, 'cdktf-provider-networkcalc'));
    for (const dep of ['cdktf', 'constructs'])
      symlinkSync(path.join(ROOT, 'node_modules', dep), path.join(modules, dep));
    if (typescript === 'ours')
      symlinkSync(path.join(ROOT, 'node_modules', 'typescript'), path.join(modules, 'typescript'));
    if (typescript === 'no-compiler-api') {
      mkdirSync(path.join(modules, 'typescript'));
      writeFileSync(
        path.join(modules, 'typescript', 'package.json'),
        JSON.stringify({ name: 'typescript', version: '7.0.2', main: 'version.cjs' }),
      );
      writeFileSync(
        path.join(modules, 'typescript', 'version.cjs'),
        "throw new Error('the typescript of the app was loaded');\n",
      );
    }
    writeFileSync(path.join(this.dir, 'cdktf.json'), JSON.stringify({ language: 'typescript', app: `${TSX} main.ts` }));
    writeFileSync(path.join(this.dir, '.gitignore'), 'node_modules\ncdktf.out\n');
    for (const [name, text] of Object.entries(files)) writeFileSync(path.join(this.dir, name), text);
    this.git('init', '-q');
    this.commit();
  }

  git(...args: string[]): string {
    return execFileSync('git', args, {
      cwd: this.dir,
      encoding: 'utf8',
      env: {
        PATH: process.env.PATH,
        GIT_AUTHOR_NAME: 't',
        GIT_AUTHOR_EMAIL: 't@example.com',
        GIT_COMMITTER_NAME: 't',
        GIT_COMMITTER_EMAIL: 't@example.com',
        GIT_CONFIG_NOSYSTEM: '1',
        HOME: this.dir,
      },
    });
  }

  commit(): void {
    this.git('add', '-A');
    this.git('commit', '-qm', 'app', '--allow-empty');
  }

  read(name: string): string {
    return readFileSync(path.join(this.dir, name), 'utf8');
  }

  write(name: string, text: string): void {
    writeFileSync(path.join(this.dir, name), text);
  }

  remove(): void {
    rmSync(this.dir, { recursive: true, force: true });
  }
}

/** The top of an app's main.ts: one stack with one account. */
export const HEADER = `import { App, TerraformStack } from 'cdktf';
import { Alert, AlertTarget, NetworkcalcAccount } from 'cdktf-provider-networkcalc';

const app = new App();
const stack = new TerraformStack(app, 'main');
new NetworkcalcAccount(stack, 'Account');
`;

/** `ncalc` in an app with a suite's environment, and the two steps the suites repeat. */
export function ncalcIn(env: () => NodeJS.ProcessEnv) {
  const run = (a: TsApp, ...args: string[]) => ncalc(args, { cwd: a.dir, env: env() });
  return {
    run,
    /** `ncalc apply --auto-approve` succeeds and says nothing on stderr. */
    applied: async (a: TsApp): Promise<void> => {
      const r = await run(a, 'apply', '--auto-approve');
      expect(r.stderr).toBe('');
      expect(r.code).toBe(0);
    },
    /** `ncalc plan --detailed-exitcode` plans no change. */
    expectEmptyPlan: async (a: TsApp): Promise<void> => {
      const r = await run(a, 'plan', '--detailed-exitcode');
      expect(r.stdout).toContain('No changes');
      expect(r.code).toBe(0);
    },
  };
}
