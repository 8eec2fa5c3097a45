/**
 * Which CDK library the constructs load (src/cdk.ts): the app's own, so that its stacks and
 * this package's resources are elements of one library.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { CDK_ENV, chooseCdk, type CdkLibrary, type CdkProbe } from '../../src/cdk-choice';

const main = (lib: CdkLibrary, at = '/app') => path.join(at, 'node_modules', lib, 'lib', 'index.js');

/** A probe where `forApp` resolve from the app directory and `beside` from this package. */
function probe(opts: {
  forApp?: CdkLibrary[];
  beside?: CdkLibrary[];
  loaded?: string[];
  env?: Record<string, string>;
  appDirs?: string[];
}): CdkProbe {
  return {
    env: opts.env ?? {},
    appDirs: opts.appDirs ?? ['/app'],
    loaded: opts.loaded ?? [],
    resolve: (lib, dirs) =>
      dirs
        ? (opts.forApp ?? []).includes(lib)
          ? main(lib)
          : undefined
        : (opts.beside ?? []).includes(lib)
          ? main(lib, '/pkg')
          : undefined,
  };
}

test('the library installed for the app, whichever it is', () => {
  expect(chooseCdk(probe({ forApp: ['cdktn'] }))).toMatchObject({ library: 'cdktn', entry: main('cdktn') });
  expect(chooseCdk(probe({ forApp: ['cdktf'] }))).toMatchObject({ library: 'cdktf', entry: main('cdktf') });
});

test('the one the app has already loaded wins, at the very file the app loaded', () => {
  const loaded = ['/elsewhere/node_modules/cdktf/lib/index.js', '/app/node_modules/constructs/lib/index.js'];
  expect(chooseCdk(probe({ forApp: ['cdktn', 'cdktf'], loaded }))).toEqual({
    library: 'cdktf',
    entry: '/elsewhere/node_modules/cdktf/lib/index.js',
    reason: 'the app loaded cdktf',
  });
});

test('both installed and neither loaded: cdktn, with a reason naming the override', () => {
  const c = chooseCdk(probe({ forApp: ['cdktf', 'cdktn'], appDirs: ['/nonexistent-app-dir'] }));
  expect(c.library).toBe('cdktn');
  expect(c.reason).toContain(`set ${CDK_ENV} to choose`);
});

test("both installed: the one the app's package.json declares", () => {
  const app = mkdtempSync(path.join(tmpdir(), 'ncalc-cdk-'));
  try {
    writeFileSync(
      path.join(app, 'package.json'),
      JSON.stringify({ name: 'x', dependencies: { constructs: '^10' }, devDependencies: { cdktf: '0.21.0' } }),
    );
    expect(chooseCdk(probe({ forApp: ['cdktn', 'cdktf'], appDirs: [app] })).library).toBe('cdktf');
  } finally {
    rmSync(app, { recursive: true, force: true });
  }
});

test(`${CDK_ENV} overrides, and says what to fix when wrong`, () => {
  expect(
    chooseCdk(probe({ forApp: ['cdktn', 'cdktf'], loaded: [main('cdktn')], env: { [CDK_ENV]: 'cdktf' } })),
  ).toMatchObject({ library: 'cdktf' });
  expect(() => chooseCdk(probe({ forApp: ['cdktn'], env: { [CDK_ENV]: 'cdk8s' } }))).toThrow(
    `${CDK_ENV}=cdk8s is not a CDK library this package supports; set it to cdktn or cdktf, or unset it`,
  );
  expect(() => chooseCdk(probe({ forApp: ['cdktn'], env: { [CDK_ENV]: 'cdktf' } }))).toThrow(
    `${CDK_ENV}=cdktf, but cdktf is not installed for this app; run npm install cdktf, or unset ${CDK_ENV}`,
  );
});

test('installed beside this package only (a linked checkout), else a message saying what to install', () => {
  expect(chooseCdk(probe({ beside: ['cdktf'] }))).toMatchObject({ library: 'cdktf', entry: main('cdktf', '/pkg') });
  expect(() => chooseCdk(probe({}))).toThrow(
    'install CDK Terrain (npm install cdktn constructs) or cdktf (npm install cdktf@0.21 constructs)',
  );
});
