/**
 * What `npm install cdktf-provider-networkcalc` delivers: the compiled code, the provider's
 * protocol definitions, the docs, and nothing of the tests or sources; every target of the
 * exports map; the peers an app provides. (Installing the tarball into apps of each CDK
 * flavor is cdktf-app.compat.test.ts and cdktn-app.compat.test.ts.)
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import semver from 'semver';
import { REPO_ROOT, requireBuild } from '../helpers/build';

interface PackResult {
  files: { path: string }[];
}

let files: string[];
beforeAll(() => {
  requireBuild('dist/cli/main.js');
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const out = execFileSync(npm, ['pack', '--dry-run', '--json', '--ignore-scripts'], {
    cwd: REPO_ROOT,
    encoding: 'utf8',
    timeout: 60_000,
  });
  files = (JSON.parse(out) as PackResult[])[0]!.files.map((f) => f.path);
}, 90_000);

it('ships the CLI, the provider entry, the library entry and the proto files', () => {
  for (const f of [
    'dist/cli/main.js',
    'dist/provider/bin.js',
    'dist/index.js',
    'dist/index.d.ts',
    'src/provider/proto/tfplugin6.proto',
    'src/provider/proto/go_plugin.proto',
    'README.md',
    'docs/cli.md',
  ]) {
    expect(files).toContain(f);
  }
});

it('ships no tests and no TypeScript sources', () => {
  expect(files.filter((f) => f.startsWith('test/') || (f.startsWith('src/') && f.endsWith('.ts')))).toEqual([]);
});

it('takes the CDK library and constructs from the app: cdktf and cdktn are optional peers, constructs a required one', () => {
  const pkg = require('../../package.json') as {
    peerDependencies: Record<string, string>;
    peerDependenciesMeta: Record<string, { optional?: boolean }>;
    dependencies: Record<string, string>;
  };
  expect(Object.keys(pkg.peerDependencies).sort()).toEqual(['cdktf', 'cdktn', 'constructs']);
  expect(pkg.peerDependenciesMeta).toEqual({ cdktf: { optional: true }, cdktn: { optional: true } });
  for (const name of ['cdktf', 'cdktn', 'constructs']) expect(pkg.dependencies).not.toHaveProperty(name);
  // ncalc drift --suggest reads the app with a parser of its own, never the app's typescript.
  expect(pkg.dependencies).not.toHaveProperty('typescript');
  expect(pkg.dependencies).toHaveProperty('@babel/parser');
  expect(semver.satisfies('0.21.0', pkg.peerDependencies.cdktf!)).toBe(true);
  expect(semver.satisfies('0.24.0', pkg.peerDependencies.cdktn!)).toBe(true);
});

it('every target of the exports map is in the package, with its types', () => {
  const pkg = require('../../package.json') as {
    exports: Record<string, string | { types: string; default: string }>;
    typesVersions: Record<string, Record<string, string[]>>;
  };
  const targets = Object.values(pkg.exports).flatMap((t) => (typeof t === 'string' ? [t] : [t.types, t.default]));
  const concrete = targets.filter((t) => !t.includes('*')).map((t) => t.replace(/^\.\//, ''));
  expect(concrete.filter((t) => !files.includes(t))).toEqual([]);
  for (const [sub, t] of Object.entries(pkg.exports)) {
    if (typeof t !== 'string') expect([sub, t.types]).toEqual([sub, t.default.replace(/\.js$/, '.d.ts')]);
  }
  // TypeScript's older "node" resolution reads typesVersions instead of exports.
  for (const [sub, [types]] of Object.entries(pkg.typesVersions['*']!))
    expect((pkg.exports[`./${sub}`] as { types: string }).types).toBe(`./${types}`);
});

it('every production dependency runs on the oldest Node this package accepts', () => {
  const pkg = require('../../package.json') as { engines: { node: string } };
  const floor = semver.minVersion(pkg.engines.node)!.version;
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const dirs = execFileSync(npm, ['ls', '--omit=dev', '--all', '--parseable'], {
    cwd: REPO_ROOT,
    encoding: 'utf8',
    timeout: 60_000,
  })
    .split('\n')
    .filter((d) => d.includes('node_modules'));
  expect(dirs.length).toBeGreaterThan(20);
  const tooNew = dirs.flatMap((dir) => {
    const dep = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as {
      name: string;
      version: string;
      engines?: { node?: string };
    };
    const range = dep.engines?.node;
    return range && !semver.satisfies(floor, range) ? [`${dep.name}@${dep.version} needs node ${range}`] : [];
  });
  expect(tooNew).toEqual([]);
}, 90_000);

it('exports opens exactly the documented entry points: the root, the client, the emulator (and package.json)', () => {
  const pkg = require('../../package.json') as { exports: Record<string, unknown> };
  expect(Object.keys(pkg.exports)).toEqual(['.', './client', './emulator', './package.json']);
});

it('says what it is and where it comes from: license file, repository, homepage, bugs, module type', () => {
  const pkg = require('../../package.json') as Record<string, unknown>;
  expect(files).toContain('LICENSE');
  expect(readFileSync(path.join(REPO_ROOT, 'LICENSE'), 'utf8')).toMatch(/^MIT License\n/);
  expect(pkg).toMatchObject({
    license: 'MIT',
    type: 'commonjs',
    repository: { type: 'git', url: expect.any(String) },
    homepage: expect.any(String),
    bugs: { url: expect.any(String) },
  });
});

it('every shipped module finds what it loads in the package: no require of a file left out, no read of examples/, test/ or bench/', () => {
  const shipped = new Set(files);
  const missing: string[] = [];
  for (const file of files.filter((f) => f.endsWith('.js'))) {
    const source = readFileSync(path.join(REPO_ROOT, file), 'utf8');
    for (const [, spec] of source.matchAll(/require\("(\.{1,2}\/[^"]*)"\)/g)) {
      const base = path.posix.normalize(path.posix.join(path.posix.dirname(file), spec!));
      if (![base, `${base}.js`, `${base}.json`, `${base}/index.js`].some((f) => shipped.has(f)))
        missing.push(`${file} requires ${spec}`);
    }
    for (const [literal] of source.matchAll(/['"](?:\.\.\/)*(?:examples|test|bench)['"/]/g))
      missing.push(`${file} names ${literal}`);
  }
  expect(missing).toEqual([]);
  // The tour (npm start) runs from a clone, where examples/ is.
  expect(files.filter((f) => f.startsWith('dist/cli/tour'))).toEqual([]);
  // The build's own information (what lets npm run build reuse dist/) stays in the clone.
  expect(files).not.toContain('dist/.tsbuildinfo');
});

it('every relative link of the shipped README and docs resolves to a shipped file', () => {
  const shipped = new Set(files);
  const dirs = new Set(
    files.flatMap((f) =>
      f
        .split('/')
        .slice(0, -1)
        .map((_, i, parts) => parts.slice(0, i + 1).join('/')),
    ),
  );
  const broken: string[] = [];
  let links = 0;
  for (const doc of files.filter((f) => f.endsWith('.md'))) {
    const text = readFileSync(path.join(REPO_ROOT, doc), 'utf8').replace(/```[\s\S]*?```/g, '');
    for (const [, target] of text.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
      if (/^[a-z][a-z0-9+.-]*:/i.test(target!) || target!.startsWith('#')) continue;
      links++;
      const file = decodeURIComponent(target!.split('#')[0]!);
      const resolved = path.posix.normalize(path.posix.join(path.posix.dirname(doc), file)).replace(/\/$/, '');
      if (!shipped.has(resolved) && !dirs.has(resolved)) broken.push(`${doc}: ${target}`);
    }
  }
  expect(links).toBeGreaterThan(20);
  expect(broken).toEqual([]);
});
