#!/usr/bin/env node
/**
 * Compiles the construct library (src/constructs/index.ts and the modules it imports) with
 * jsii into a .jsii assembly, and with `--pacmak` generates its Python and Java sources
 * (jsii-pacmak --code-only: no Python or Java toolchain needed).
 *
 *   npm run build:jsii [-- --pacmak]
 *
 * jsii compiles a whole package and checks every dependency is a jsii module, so the library
 * is staged as a package of its own in jsii/.build: package.json from this directory (the
 * jsii targets; version from the root package.json), the root README, and exactly the source
 * files the library imports, found by following relative imports from its entry point.
 * Dependencies (cdktf, constructs) resolve from the root node_modules.
 */
'use strict';
const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');
const ts = require('typescript');

const ROOT = path.resolve(__dirname, '..');
const STAGE = path.join(__dirname, '.build');
const ENTRY = path.join(ROOT, 'src', 'constructs', 'index.ts');
const BIN = path.join(ROOT, 'node_modules', '.bin');

/** The .ts files `entry` reaches through relative imports and re-exports. */
function importClosure(entry) {
  const seen = new Set();
  const pending = [entry];
  while (pending.length) {
    const file = pending.pop();
    if (seen.has(file)) continue;
    seen.add(file);
    const { importedFiles } = ts.preProcessFile(fs.readFileSync(file, 'utf8'), true, true);
    for (const { fileName } of importedFiles) {
      if (!fileName.startsWith('.')) continue; // a package: resolved from node_modules
      const base = path.resolve(path.dirname(file), fileName);
      const found = [`${base}.ts`, path.join(base, 'index.ts')].find((f) => fs.existsSync(f));
      if (!found) throw new Error(`${path.relative(ROOT, file)} imports ${fileName}, which is not a .ts file of this package`);
      pending.push(found);
    }
  }
  return [...seen].sort();
}

/**
 * Files staged with other contents. src/public-types.ts writes the CDK's `IResolvable`
 * structurally, so that the published TypeScript declarations name no CDK library; in the
 * assembly, the type the other languages see, it stays the CDK's own (a jsii type of cdktf).
 */
const JSII_SOURCES = {
  [path.join('src', 'public-types.ts')]: (source) =>
    source.replace(/export interface IResolvable \{[\s\S]*?\n\}\n/, "export type { IResolvable } from 'cdktf';\n"),
};

function stage() {
  fs.rmSync(STAGE, { recursive: true, force: true });
  const files = importClosure(ENTRY);
  for (const file of files) {
    const relative = path.relative(ROOT, file);
    const to = path.join(STAGE, relative);
    fs.mkdirSync(path.dirname(to), { recursive: true });
    const rewrite = JSII_SOURCES[relative];
    if (!rewrite) {
      fs.copyFileSync(file, to);
      continue;
    }
    const source = fs.readFileSync(file, 'utf8');
    const staged = rewrite(source);
    if (staged === source) throw new Error(`${relative}: its jsii rewrite no longer applies; update JSII_SOURCES in jsii/build.js`);
    fs.writeFileSync(to, staged);
  }
  const manifest = JSON.parse(fs.readFileSync(path.join(__dirname, 'package.json'), 'utf8'));
  manifest.version = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')).version;
  fs.writeFileSync(path.join(STAGE, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  fs.copyFileSync(path.join(ROOT, 'README.md'), path.join(STAGE, 'README.md'));
  return files;
}

function run(tool, args) {
  try {
    execFileSync(path.join(BIN, tool), args, { cwd: STAGE, stdio: 'inherit' });
  } catch (err) {
    // The tool has printed what is wrong, with file and line; a stack from here adds nothing.
    console.error(`${tool} failed (${err.status ?? err.signal ?? err.message}); the library must stay jsii-ready: see docs/constructs.md, "Other languages (jsii)"`);
    process.exit(1);
  }
}

function main() {
  const files = stage();
  console.log(`jsii: ${files.length} source files staged in ${path.relative(ROOT, STAGE)}`);
  // reserved-word: member names such as `name` or `filter` are fine in the target languages
  // (jsii renames them there); the warning would only repeat that for each.
  run('jsii', ['--silence-warnings=reserved-word', '--fail-on-warnings']);
  const assembly = JSON.parse(fs.readFileSync(path.join(STAGE, '.jsii'), 'utf8'));
  console.log(`jsii: ${path.relative(ROOT, path.join(STAGE, '.jsii'))}: ${Object.keys(assembly.types).length} types`);
  if (process.argv.includes('--pacmak')) {
    run('jsii-pacmak', ['--code-only', '--target', 'python', '--target', 'java', '--outdir', 'dist']);
    console.log(`jsii-pacmak: Python and Java sources in ${path.relative(ROOT, path.join(STAGE, 'dist'))}`);
  }
}

module.exports = { importClosure, ENTRY, ROOT };

if (require.main === module) main();
