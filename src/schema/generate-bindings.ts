/**
 * Generates the cdktf bindings (src/gen) from the provider schema, with no terraform binary:
 * the schema is printed as `terraform providers schema -json` and handed to
 * @cdktf/provider-generator. Run with `npm run generate`; a test fails when src/gen is stale.
 *
 *   tsx src/schema/generate-bindings.ts [outDir]
 */
import { promises as fs } from 'fs';
import * as path from 'path';
import { CodeMaker, TerraformProviderConstraint, TerraformProviderGenerator } from '@cdktf/provider-generator';
import { ConstructsMakerProviderTarget, LANGUAGES } from '@cdktf/commons';
import * as ts from 'typescript';
import { terraformSchemaJson } from './json';
import { PROVIDER_SOURCE, PROVIDER_VERSION_CONSTRAINT } from './provider-schema';

export const DEFAULT_BINDINGS_DIR = path.resolve(__dirname, '..', 'gen');

/**
 * Writes the bindings into `outDir` (emptied first, so removed resources disappear).
 * The constraint `networkcalc/networkcalc@~> 0.1` makes the synthesized required_providers
 * read `{ source: "networkcalc/networkcalc", version: "~> 0.1" }`; an exact provider
 * version from the schema document would take precedence over it, so it is dropped here.
 */
export async function generateBindings(outDir: string = DEFAULT_BINDINGS_DIR): Promise<void> {
  const schema = terraformSchemaJson();

  const code = new CodeMaker();
  const generator = new TerraformProviderGenerator(code, schema as never);
  const constraint = new TerraformProviderConstraint(`${PROVIDER_SOURCE}@${PROVIDER_VERSION_CONSTRAINT}`);
  generator.generate(new ConstructsMakerProviderTarget(constraint, LANGUAGES[0]));

  await fs.rm(outDir, { recursive: true, force: true });
  await code.save(outDir);
  await addOverrideModifiers(outDir);
  await importCdkModule(outDir);
}

/** src/cdk: the app's own cdktn or cdktf, loaded at run time. */
const CDK_MODULE = path.resolve(__dirname, '..', 'cdk');
const CDKTF_IMPORT = "import * as cdktf from 'cdktf';";

/**
 * The generator imports 'cdktf'; the bindings must use the CDK library of the app instead
 * (see src/cdk.ts), so that import is pointed at src/cdk, relative to where the file sits in
 * src/gen (also when generated elsewhere for comparison). Only the import line changes: the
 * bindings keep calling it `cdktf`.
 */
async function importCdkModule(outDir: string): Promise<void> {
  for (const file of await listTs(outDir)) {
    const text = await fs.readFile(file, 'utf8');
    if (!text.includes(CDKTF_IMPORT)) continue;
    const committedAt = path.join(DEFAULT_BINDINGS_DIR, path.relative(outDir, file));
    const relative = path.relative(path.dirname(committedAt), CDK_MODULE).split(path.sep).join('/');
    const rewritten = text.replace(CDKTF_IMPORT, `import * as cdktf from '${relative}';`);
    if (/from ['"]cdktf['"]/.test(rewritten))
      throw new Error(`${file} imports 'cdktf' in a form this script does not rewrite`);
    await fs.writeFile(file, rewritten);
  }
}

/** TS4114 / TS4115: a member or parameter property that overrides one needs `override`. */
const MISSING_OVERRIDE = new Set([4114, 4115]);

async function listTs(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await fs.readdir(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...(await listTs(full)));
    else if (entry.name.endsWith('.ts')) out.push(full);
  }
  return out.sort();
}

/**
 * The generator writes overriding members without `override`, which our tsconfig's
 * noImplicitOverride rejects. Rather than exempt the bindings from type-checking, ask the
 * compiler where the keyword is missing and insert it after the access modifier.
 */
async function addOverrideModifiers(outDir: string): Promise<void> {
  const files = await listTs(outDir);
  // Resolve cdktf and constructs from this package, wherever outDir is.
  const nodeModules = path.dirname(path.dirname(require.resolve('cdktf/package.json')));
  const program = ts.createProgram(files, {
    paths: { '*': [path.join(nodeModules, '*')] },
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.CommonJS,
    moduleResolution: ts.ModuleResolutionKind.Node10,
    strict: true,
    noImplicitOverride: true,
    skipLibCheck: true,
    noEmit: true,
    types: [],
  });
  const edits = new Map<string, number[]>();
  const diagnostics = program.getSemanticDiagnostics();
  const unresolved = diagnostics.find((d) => d.code === 2307);
  if (unresolved)
    throw new Error(`bindings do not type-check: ${ts.flattenDiagnosticMessageText(unresolved.messageText, '\n')}`);
  for (const d of diagnostics) {
    if (!MISSING_OVERRIDE.has(d.code) || !d.file || d.start === undefined) continue;
    const at = overrideInsertionPoint(d.file, d.start);
    const list = edits.get(d.file.fileName) ?? [];
    list.push(at);
    edits.set(d.file.fileName, list);
  }
  for (const [file, positions] of edits) {
    let text = await fs.readFile(file, 'utf8');
    for (const at of [...new Set(positions)].sort((a, b) => b - a)) {
      text = `${text.slice(0, at)}override ${text.slice(at)}`;
    }
    await fs.writeFile(file, text);
  }
}

/** Just after the accessibility modifier of the declaration at `pos`, else at its start. */
function overrideInsertionPoint(file: ts.SourceFile, pos: number): number {
  let node: ts.Node | undefined = findToken(file, pos);
  while (node && !ts.isClassElement(node) && !ts.isParameter(node)) node = node.parent;
  if (!node) throw new Error(`no declaration at ${file.fileName}:${pos}`);
  const modifiers = ts.canHaveModifiers(node) ? (ts.getModifiers(node) ?? []) : [];
  const access = modifiers.find((m) =>
    [ts.SyntaxKind.PublicKeyword, ts.SyntaxKind.ProtectedKeyword, ts.SyntaxKind.PrivateKeyword].includes(m.kind),
  );
  if (access) return access.getEnd() + 1;
  return node.getStart(file);
}

function findToken(file: ts.SourceFile, pos: number): ts.Node {
  let current: ts.Node = file;
  for (;;) {
    const child: ts.Node | undefined = current
      .getChildren(file)
      .find((c) => c.getStart(file) <= pos && pos < c.getEnd());
    if (!child) return current;
    current = child;
  }
}

if (require.main === module) {
  const outDir = process.argv[2] ? path.resolve(process.argv[2]) : DEFAULT_BINDINGS_DIR;
  generateBindings(outDir).then(
    () => console.log(`bindings written to ${path.relative(process.cwd(), outDir) || '.'}`),
    (err: unknown) => {
      console.error(err);
      process.exit(1);
    },
  );
}
