#!/usr/bin/env node
/**
 * `npm run build`: src/ → dist/ with tsc, reusing an up-to-date dist/. tsconfig.build.json keeps
 * tsc's build information in dist/.tsbuildinfo, and `tsc -b` compiles again only when a source
 * or the configuration changed (so `npm ci`, `npm start`, `npm test` and `npm pack` compile
 * once between them). tsc does not notice an output removed by hand, nor the outputs of a
 * source since deleted: unless dist/ holds exactly a .js and a .d.ts per source, it is removed
 * and built from scratch.
 */
const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const ROOT = path.resolve(__dirname, '..');
const SRC = path.join(ROOT, 'src');
const DIST = path.join(ROOT, 'dist');
const CONFIG = path.join(ROOT, 'tsconfig.build.json');
/** Sources tsconfig.build.json leaves out (its `exclude`). */
const NOT_BUILT = new Set(['schema/generate-bindings.ts']);

const files = (dir) =>
  fs.readdirSync(dir, { recursive: true, encoding: 'utf8' }).map((f) => f.split(path.sep).join('/'));

/** True when dist/ has build information and exactly the outputs of the sources. */
function distMatchesSources() {
  if (!fs.existsSync(path.join(DIST, '.tsbuildinfo'))) return false;
  const expected = new Set(
    files(SRC)
      .filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts') && !NOT_BUILT.has(f))
      .flatMap((f) => [`${f.slice(0, -3)}.js`, `${f.slice(0, -3)}.d.ts`]),
  );
  const outputs = files(DIST).filter((f) => f.endsWith('.js') || f.endsWith('.d.ts'));
  return outputs.length === expected.size && outputs.every((f) => expected.has(f));
}

if (!fs.existsSync(DIST) || !distMatchesSources()) fs.rmSync(DIST, { recursive: true, force: true });
const tsc = require.resolve('typescript/bin/tsc', { paths: [ROOT] });
const run = spawnSync(process.execPath, [tsc, '-b', CONFIG], { stdio: 'inherit' });
// tsc writes every file 0644; the package's bins are run as programs in the clone itself too
// (`npx --no-install ncalc` in an example), as npm makes them executable when it installs the package.
if (run.status === 0) {
  const { bin } = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
  for (const file of Object.values(bin ?? {})) fs.chmodSync(path.join(ROOT, file), 0o755);
}
process.exit(run.status ?? 1);
