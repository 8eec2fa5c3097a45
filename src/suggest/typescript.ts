/**
 * Drift → edits of a cdktf app's TypeScript (or JavaScript) source. The app records where each
 * construct was made (src/constructs/source-locations.ts); the file is parsed with the
 * TypeScript compiler API and only the props that differ are rewritten, so formatting and
 * comments stay. A value that is not a literal of this one alert is named, not edited.
 */
import { readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import * as path from 'node:path';
import type * as TS from 'typescript';
import {
  checkPropsOf,
  checkPropsSource,
  targetPropsOf,
  targetSource,
  tsValue,
  type CheckProps,
} from '../constructs/alert-props';
import type { SourceLocation } from '../constructs/source-locations';
import type { AlertSpec } from '../model';
import type { AccountPlan } from '../reconcile/account-plan';
import { expandPolicies } from '../reconcile/coverage';
import type { Desired } from '../reconcile/desired';
import { constructId } from '../reconcile/export';
import { indexDomains, type DomainIndex } from '../reconcile/targets';
import type { Change } from '../reconcile/types';
import { cacheDirOf, requireWithCodeCache, type CachedModule } from './compile-cache';
import { unifiedDiff } from './patch';
import type { SourceSnapshot, Suggestion, TextEdit } from './types';
import { sha256 } from './write';

type TypeScript = typeof TS;

/** The app's own TypeScript when it has one (its version parses its syntax), else ours. */
export function loadTypeScript(dir: string): CachedModule<TypeScript> {
  for (const from of [path.join(dir, 'package.json'), __filename]) {
    let file: string;
    try {
      file = createRequire(from).resolve('typescript');
    } catch {
      continue; // try the next
    }
    try {
      return requireWithCodeCache<TypeScript>(file, cacheDirOf(dir));
    } catch {
      return { exports: createRequire(from)('typescript') as TypeScript, save: () => undefined };
    }
  }
  throw new Error(
    'ncalc drift --suggest reads the app with the TypeScript compiler, which is not installed; add it to the app: npm install --save-dev typescript',
  );
}

export interface TypeScriptSuggestInput {
  /** The app's directory (paths in suggestions are relative to it). */
  dir: string;
  plans: readonly AccountPlan[];
  desired: Pick<Desired, 'alerts' | 'policies' | 'scopes'>;
  locations: readonly SourceLocation[];
  /** When the synth started: a file modified after it is not what the app ran. */
  synthStartedMs: number;
}

export interface SuggestOutput {
  suggestions: Suggestion[];
  snapshots: SourceSnapshot[];
  /** What stops a write (nothing is written when there are any): files that do not parse, declarations not found. */
  problems: string[];
}

interface Source {
  rel: string;
  text: string;
  sf: TS.SourceFile;
  quote: "'" | '"';
  /** Every `new …(…)` of the file by start offset, made on first use (one walk, not one per alert). */
  news?: Map<number, TS.NewExpression>;
}

type Quote = Source['quote'];

/** Why a value cannot be edited here: where it comes from. */
class NotLiteral {
  constructor(readonly what: string) {}
}

export function suggestTypeScript(input: TypeScriptSuggestInput): SuggestOutput {
  const ctx = new Context(input);
  for (const plan of input.plans) if (plan.status === 'ok') ctx.account(plan);
  ctx.compiler?.save();
  return { suggestions: ctx.suggestions, snapshots: [...ctx.snapshots.values()], problems: ctx.problems };
}

class Context {
  readonly suggestions: Suggestion[] = [];
  readonly snapshots = new Map<string, SourceSnapshot>();
  readonly problems: string[] = [];
  private ts: TypeScript | null = null;
  compiler: CachedModule<TypeScript> | null = null;
  private readonly sources = new Map<string, Source | null>();
  private readonly byPath = new Map<string, SourceLocation>();
  /** How many constructs were made at one file position: more than one is a loop or a helper. */
  private readonly atPosition = new Map<string, number>();
  private readonly policyPaths: Set<string>;

  constructor(private readonly input: TypeScriptSuggestInput) {
    for (const l of input.locations) {
      this.byPath.set(l.path, l);
      const key = `${l.file}:${l.line}:${l.column}`;
      this.atPosition.set(key, (this.atPosition.get(key) ?? 0) + 1);
    }
    this.policyPaths = new Set(input.desired.policies.map((p) => p.path));
  }

  account(plan: AccountPlan): void {
    const index = indexDomains(plan.domains ?? []);
    const changes = [...plan.changes];
    // A rename in the console: declared name missing, an undeclared alert with the same settings.
    const renamed = new Map<Change, Change>();
    for (const missing of changes.filter((c) => c.reason === 'missing' && c.after)) {
      const live = changes.find(
        (c) =>
          c.reason === 'undeclared' &&
          c.before &&
          ![...renamed.values()].includes(c) &&
          sameSettings(c.before, missing.after!),
      );
      if (live) renamed.set(missing, live);
    }
    const pairedLive = new Set(renamed.values());
    for (const c of changes) {
      if (c.reason === 'changed') this.changed(plan, c, index);
      else if (c.reason === 'missing') {
        const live = renamed.get(c);
        if (live) this.renamed(plan, c, live);
        else this.deleted(plan, c);
      } else if (c.reason === 'undeclared' && !pairedLive.has(c)) this.undeclared(plan, c.before!, index, c.scopeKey);
    }
    // An additive scope owns only what it declares: live alerts beyond that are not drift,
    // but the app could adopt them.
    const additive = plan.account.scopes.find((s) => s.ownership === 'additive');
    if (additive) {
      const scopeKeys = new Set(plan.account.scopes.map((s) => s.key));
      const declared = this.input.desired.alerts.filter((a) => scopeKeys.has(a.scopeKey));
      const policies = this.input.desired.policies.filter((p) => scopeKeys.has(p.scopeKey));
      const generated = policies.length ? expandPolicies(policies, declared, plan.domains ?? []).alerts : [];
      const names = new Set([...declared, ...generated].map((a) => a.spec.name));
      for (const c of changes) names.add(c.name);
      const seen = new Set<string>();
      for (const live of plan.live) {
        if (names.has(live.name) || seen.has(live.name)) continue;
        seen.add(live.name);
        this.undeclared(plan, live, index, additive.key);
      }
    }
  }

  // ---- the four kinds ------------------------------------------------------------------

  private changed(plan: AccountPlan, c: Change, index: DomainIndex): void {
    const live = c.before!;
    const code = c.after!;
    const fields = c.fields.map((f) => f.field).join(', ');
    const base = { kind: 'changed' as const, account: plan.account.label, alert: c.name, path: c.path };
    const found = this.declaration(c.path, 'Alert');
    if ('reason' in found) return this.push({ ...base, ...found.at, summary: found.reason, edits: [] });
    const { src, node, loc } = found;
    const edits: TextEdit[] = [];
    const notLiteral: string[] = [];
    const wanted: string[] = [];
    const props = node.arguments?.[2];
    const ts = this.ts!;
    if (!props || !ts.isObjectLiteralExpression(props)) {
      return this.push({
        ...base,
        ...this.at(src, props ?? node),
        summary: `${c.path}: the props are not an object literal (${this.where(src, props ?? node)}); set ${describeSettings(live, index)} where they come from`,
        edits: [],
      });
    }
    const attempt = (fn: () => void) => {
      try {
        fn();
      } catch (e) {
        if (e instanceof NotLiteral) notLiteral.push(e.what);
        else throw e;
      }
    };
    if (live.target_type !== code.target_type || live.target_id !== code.target_id) {
      const t = targetPropsOf(
        live.target_type as 'domain' | 'subdomain',
        index.names.get(`${live.target_type}:${live.target_id}`) ?? null,
        live.target_id as number,
      );
      wanted.push(`target ${targetSource(t, src.quote)}`);
      attempt(() => edits.push(this.replaceTarget(src, props, targetSource(t, src.quote))));
    }
    const liveCheck = checkPropsOf(live);
    const codeCheck = checkPropsOf(code);
    if (!sameCheck(liveCheck, codeCheck)) {
      wanted.push(checkPropsSource(liveCheck, src.quote));
      attempt(() => edits.push(...this.checkEdits(src, props, codeCheck, liveCheck)));
    }
    if (notLiteral.length) {
      return this.push({
        ...base,
        ...this.at(src, props),
        summary: `${c.path}: ${notLiteral.join('; ')}; set ${wanted.join(', ')} there to match the account`,
        edits: [],
      });
    }
    if (this.shared(loc)) {
      return this.push({
        ...base,
        ...this.at(src, node),
        summary: `${c.path} is one of ${this.shared(loc)} alerts declared at ${this.where(src, node)} (a loop or a helper), so its props are not its own; set ${wanted.join(', ')} for this alert there`,
        edits: [],
      });
    }
    this.push({
      ...base,
      ...this.at(src, props),
      summary: `${c.path}: ${fields} changed in the account; the edit sets ${wanted.join(', ')}`,
      edits,
      src,
    });
  }

  private renamed(plan: AccountPlan, declared: Change, live: Change): void {
    const base = { kind: 'changed' as const, account: plan.account.label, alert: live.name, path: declared.path };
    const found = this.declaration(declared.path, 'Alert');
    if ('reason' in found) return this.push({ ...base, ...found.at, summary: found.reason, edits: [] });
    const { src, node, loc } = found;
    const summary = `${declared.path}: renamed in the account from ${JSON.stringify(declared.name)} to ${JSON.stringify(live.name)}`;
    const props = node.arguments?.[2];
    const ts = this.ts!;
    try {
      if (!props || !ts.isObjectLiteralExpression(props))
        throw new NotLiteral(`the props are not an object literal (${this.where(src, props ?? node)})`);
      if (this.shared(loc))
        throw new NotLiteral(`it is declared with ${this.shared(loc)! - 1} other alerts at ${this.where(src, node)}`);
      const edit = this.replaceLiteral(src, props, 'name', live.name);
      this.push({ ...base, ...this.at(src, props), summary: `${summary}; the edit renames it`, edits: [edit], src });
    } catch (e) {
      if (!(e instanceof NotLiteral)) throw e;
      this.push({ ...base, ...this.at(src, node), summary: `${summary}; ${e.what}, so set name there`, edits: [] });
    }
  }

  private deleted(plan: AccountPlan, c: Change): void {
    const base = { kind: 'deleted' as const, account: plan.account.label, alert: c.name, path: c.path };
    const choice = `deleted in the account: \`ncalc apply\` re-creates it, or delete its declaration to accept the deletion`;
    const found = this.declaration(c.path, 'Alert');
    if ('reason' in found)
      return this.push({ ...base, ...found.at, summary: `${c.path}: ${choice}; ${found.reason}`, edits: [] });
    const { src, node, loc } = found;
    const ts = this.ts!;
    const statement = node.parent;
    if (this.shared(loc) || !ts.isExpressionStatement(statement)) {
      const why = this.shared(loc)
        ? `it is one of ${this.shared(loc)} alerts declared at ${this.where(src, node)}; leave it out there`
        : `its declaration at ${this.where(src, node)} is used as a value; remove it and its uses`;
      return this.push({ ...base, ...this.at(src, node), summary: `${c.path}: ${choice} (${why})`, edits: [] });
    }
    this.push({
      ...base,
      ...this.at(src, statement),
      summary: `${c.path}: ${choice} (the edit deletes it)`,
      edits: [wholeLines(src, statement.getStart(src.sf), statement.getEnd())],
      src,
    });
  }

  private undeclared(plan: AccountPlan, live: AlertSpec, index: DomainIndex, scopeKey: string): void {
    const scope = plan.account.scopes.find((s) => s.key === scopeKey) ?? plan.account.scopes[0];
    const base = { kind: 'undeclared' as const, account: plan.account.label, alert: live.name, path: null };
    const additive = scope.ownership === 'additive';
    const why = additive
      ? 'live in the account, not declared (the additive scope leaves it alone)'
      : '`ncalc apply` deletes it (live in the scope, not declared)';
    const accounts = this.input.locations.filter(
      (l) => l.kind === 'NetworkcalcAccount' && l.path.split('/')[0] === scope.stack,
    );
    const account = accounts.find((l) => (l.alias ?? null) === scope.alias);
    const summaryHead = `${JSON.stringify(live.name)}: ${why}`;
    if (!account) {
      return this.push({
        ...base,
        file: null,
        line: null,
        summary: `${summaryHead}; no NetworkcalcAccount of stack ${scope.stack} was found in the source to declare it beside`,
        edits: [],
      });
    }
    const found = this.declaration(account.path, 'NetworkcalcAccount');
    if ('reason' in found)
      return this.push({ ...base, ...found.at, summary: `${summaryHead}; ${found.reason}`, edits: [] });
    const { src, node } = found;
    const ts = this.ts!;
    const statement = enclosingStatement(ts, node);
    const block = statement?.parent;
    const scopeArg = node.arguments?.[0];
    if (!statement || !block || !(ts.isBlock(block) || ts.isSourceFile(block)) || !scopeArg) {
      return this.push({
        ...base,
        ...this.at(src, node),
        summary: `${summaryHead}; the account at ${this.where(src, node)} is not a statement of a block, so add the Alert by hand`,
        edits: [],
      });
    }
    // Which account: needed when the stack has several (each has an alias then).
    let accountProp = '';
    if (accounts.length > 1) {
      const variable =
        ts.isVariableDeclaration(node.parent) && ts.isIdentifier(node.parent.name) ? node.parent.name.text : null;
      if (!variable) {
        return this.push({
          ...base,
          ...this.at(src, node),
          summary: `${summaryHead}; stack ${scope.stack} has several accounts and the one at ${this.where(src, node)} is not held in a variable, so add the Alert with its account by hand`,
          edits: [],
        });
      }
      accountProp = `account: ${variable}`;
    }
    // After the last `new Alert(...)` of the block, else after the account.
    const statements = [...(block as TS.Block).statements];
    const alertStatements = statements.filter(
      (s) =>
        ts.isExpressionStatement(s) &&
        ts.isNewExpression(s.expression) &&
        s.expression.expression.getText(src.sf) === 'Alert',
    );
    const after = alertStatements.length ? alertStatements[alertStatements.length - 1] : statement;
    const parentPath = account.path.split('/').slice(0, -1).join('/');
    const used = new Set(
      this.input.locations
        .filter((l) => l.path.split('/').slice(0, -1).join('/') === parentPath)
        .map((l) => l.path.split('/').pop()!),
    );
    const id = constructId(live.name, used);
    const q = src.quote;
    const target = targetPropsOf(
      live.target_type as 'domain' | 'subdomain',
      index.names.get(`${live.target_type}:${live.target_id}`) ?? null,
      live.target_id as number,
    );
    const indent = indentOf(src.text, after.getStart(src.sf));
    const props = [
      `name: ${tsValue(live.name, q)}`,
      `target: ${targetSource(target, q)}`,
      checkPropsSource(checkPropsOf(live), q),
      ...(accountProp ? [accountProp] : []),
    ];
    const declaration =
      `\n${indent}new Alert(${scopeArg.getText(src.sf)}, ${tsValue(id, q)}, {\n` +
      props.map((p) => `${indent}  ${p},\n`).join('') +
      `${indent}});`;
    const edits: TextEdit[] = [{ start: after.getEnd(), end: after.getEnd(), text: declaration }];
    const importEdit = this.importEdit(src, ['Alert', 'AlertTarget']);
    if (importEdit) edits.push(importEdit);
    this.push({
      ...base,
      ...this.at(src, after),
      summary: `${summaryHead}; the edit declares it in ${scope.stack} (account ${plan.account.label})`,
      edits,
      src,
    });
  }

  // ---- finding things ------------------------------------------------------------------

  private push(
    s: Omit<Suggestion, 'diff' | 'file' | 'line'> & { file?: string | null; line?: number | null; src?: Source },
  ): void {
    const { src, ...rest } = s;
    const file = rest.file ?? src?.rel ?? null;
    this.suggestions.push({
      kind: rest.kind,
      account: rest.account,
      alert: rest.alert,
      path: rest.path,
      file,
      line: rest.line ?? null,
      summary: rest.summary,
      edits: rest.edits,
      diff: src && rest.edits.length ? unifiedDiff(src.rel.split(path.sep).join('/'), src.text, rest.edits) : null,
    });
  }

  /** The `new <kind>(...)` that made the construct at `constructPath`, or why it is not found. */
  private declaration(
    constructPath: string | null,
    kind: string,
  ):
    | { src: Source; node: TS.NewExpression; loc: SourceLocation }
    | { reason: string; at: { file: string | null; line: number | null } } {
    const loc = constructPath ? this.byPath.get(constructPath) : undefined;
    if (constructPath && this.policyPaths.has(constructPath)) {
      const policyLoc = this.byPath.get(constructPath);
      const at = policyLoc ? this.relLoc(policyLoc) : { file: null, line: null };
      return {
        reason: `generated by the alert policy ${constructPath}${at.file ? ` (${at.file}:${at.line})` : ''}; change the policy's check, or exclude this target from it and declare the alert`,
        at,
      };
    }
    if (!loc) {
      this.problems.push(
        `${constructPath}: no source location was recorded for it, so its declaration cannot be found; it must be made by this package's ${kind} construct, in the app ncalc runs`,
      );
      return { reason: 'its declaration was not found in the source', at: { file: null, line: null } };
    }
    const src = this.source(loc.file);
    const at = this.relLoc(loc);
    if (!src) return { reason: `${at.file} could not be read or parsed`, at };
    const ts = this.ts!;
    const node = newExpressions(ts, src).get(positionOf(src, loc.line, loc.column)) ?? null;
    if (!node) {
      this.problems.push(
        `${constructPath}: the app made it at ${at.file}:${at.line}:${loc.column}, but no \`new ${kind}(...)\` starts there in the source; the file may have changed since the synth: run again`,
      );
      return { reason: `its declaration was not found at ${at.file}:${at.line}`, at };
    }
    return { src, node, loc };
  }

  private relLoc(loc: SourceLocation): { file: string; line: number } {
    return { file: path.relative(this.input.dir, loc.file), line: loc.line };
  }

  private source(file: string): Source | null {
    if (this.sources.has(file)) return this.sources.get(file)!;
    const rel = path.relative(this.input.dir, file);
    let src: Source | null = null;
    try {
      const text = readFileSync(file, 'utf8');
      const changed = statSync(file).mtimeMs > this.input.synthStartedMs;
      this.snapshots.set(rel, { file: rel, sha256: sha256(text), ...(changed ? { changedSincePlan: true } : {}) });
      if (changed) this.problems.push(`${rel} changed after the app was synthesized; run ncalc drift --suggest again`);
      this.compiler ??= loadTypeScript(this.input.dir);
      this.ts = this.compiler.exports;
      const ts = this.ts;
      const kind = /\.[cm]?jsx?$/.test(file)
        ? ts.ScriptKind.JS
        : file.endsWith('x')
          ? ts.ScriptKind.TSX
          : ts.ScriptKind.TS;
      const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, kind);
      const syntax = (sf as unknown as { parseDiagnostics?: readonly TS.Diagnostic[] }).parseDiagnostics ?? [];
      if (syntax.length) {
        const d = syntax[0];
        const { line } = sf.getLineAndCharacterOfPosition(d.start ?? 0);
        this.problems.push(
          `${rel}:${line + 1}: ${ts.flattenDiagnosticMessageText(d.messageText, ' ')}: the file does not parse, so no edit can be made in it; fix it and run again`,
        );
      } else {
        src = { rel, text, sf, quote: dominantQuote(ts, sf) };
      }
    } catch (e) {
      if ((e as Error).message.includes('TypeScript compiler')) throw e;
      this.problems.push(`${rel}: cannot be read (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
    }
    this.sources.set(file, src);
    return src;
  }

  private shared(loc: SourceLocation): number | null {
    const n = this.atPosition.get(`${loc.file}:${loc.line}:${loc.column}`) ?? 1;
    return n > 1 ? n : null;
  }

  private at(src: Source, node: TS.Node): { file: string; line: number } {
    return { file: src.rel, line: src.sf.getLineAndCharacterOfPosition(node.getStart(src.sf)).line + 1 };
  }

  private where(src: Source, node: TS.Node): string {
    const { file, line } = this.at(src, node);
    return `${file}:${line}`;
  }

  // ---- edits ---------------------------------------------------------------------------

  private property(src: Source, obj: TS.ObjectLiteralExpression, key: string): TS.PropertyAssignment | null {
    const ts = this.ts!;
    for (const p of obj.properties) {
      const name = p.name && (ts.isIdentifier(p.name) || ts.isStringLiteral(p.name)) ? p.name.text : null;
      if (name !== key) continue;
      if (ts.isPropertyAssignment(p)) return p;
      throw new NotLiteral(`${key} is not a literal (${this.where(src, p)}: ${p.getText(src.sf)})`);
    }
    const spread = obj.properties.find((p) => ts.isSpreadAssignment(p));
    if (spread) throw new NotLiteral(`${key} may come from ${spread.getText(src.sf)} (${this.where(src, spread)})`);
    return null;
  }

  /** A string or number literal's replacement; anything else names where the value comes from. */
  private replaceLiteral(src: Source, obj: TS.ObjectLiteralExpression, key: string, value: string | number): TextEdit {
    const ts = this.ts!;
    const p = this.property(src, obj, key);
    if (!p) throw new NotLiteral(`${key} is not given (${this.where(src, obj)})`);
    const init = this.literalOf(src, p);
    const quote = ts.isStringLiteral(init) ? (src.text[init.getStart(src.sf)] as Quote) : src.quote;
    return { start: init.getStart(src.sf), end: init.getEnd(), text: tsValue(value, quote) };
  }

  /** The property's value when it is a string or number literal; otherwise where it comes from, thrown. */
  private literalOf(src: Source, p: TS.PropertyAssignment): TS.Expression {
    const ts = this.ts!;
    const key = p.name.getText(src.sf);
    const init = p.initializer;
    const literal =
      ts.isStringLiteral(init) ||
      ts.isNoSubstitutionTemplateLiteral(init) ||
      ts.isNumericLiteral(init) ||
      (ts.isPrefixUnaryExpression(init) && ts.isNumericLiteral(init.operand));
    if (!literal) throw new NotLiteral(`${key} is not a literal (${this.where(src, init)}: ${this.origin(src, init)})`);
    return init;
  }

  /** `days` (main.ts:5), `props.days`, …: the expression, and where an identifier is declared. */
  private origin(src: Source, expr: TS.Expression): string {
    const ts = this.ts!;
    const text = expr.getText(src.sf).replace(/\s+/g, ' ');
    if (!ts.isIdentifier(expr)) return text;
    // The nearest declaration of that name in an enclosing scope of this file.
    let found: TS.Node | null = null;
    const visit = (n: TS.Node): void => {
      if (
        (ts.isVariableDeclaration(n) || ts.isParameter(n)) &&
        ts.isIdentifier(n.name) &&
        n.name.text === expr.text &&
        n.getStart(src.sf) < expr.getStart(src.sf)
      )
        found = n;
      n.forEachChild(visit);
    };
    visit(src.sf);
    return found ? `${text}, declared at ${this.where(src, found)}` : text;
  }

  private replaceTarget(src: Source, obj: TS.ObjectLiteralExpression, replacement: string): TextEdit {
    const ts = this.ts!;
    const p = this.property(src, obj, 'target');
    if (!p) throw new NotLiteral(`target is not given (${this.where(src, obj)})`);
    const init = p.initializer;
    const isFactoryCall =
      ts.isCallExpression(init) &&
      ts.isPropertyAccessExpression(init.expression) &&
      init.expression.expression.getText(src.sf) === 'AlertTarget' &&
      init.arguments.length === 1 &&
      (ts.isStringLiteral(init.arguments[0]) || ts.isNumericLiteral(init.arguments[0]));
    if (!isFactoryCall)
      throw new NotLiteral(`target is not a literal (${this.where(src, init)}: ${this.origin(src, init)})`);
    return { start: init.getStart(src.sf), end: init.getEnd(), text: replacement };
  }

  /** The edits that turn the check prop `code` into `live` in the props object. */
  private checkEdits(src: Source, obj: TS.ObjectLiteralExpression, code: CheckProps, live: CheckProps): TextEdit[] {
    const ts = this.ts!;
    const p = this.property(src, obj, code.prop);
    if (!p) throw new NotLiteral(`${code.prop} is not given (${this.where(src, obj)})`);
    const init = p.initializer;
    if (!ts.isObjectLiteralExpression(init))
      throw new NotLiteral(
        `${code.prop} is not an object literal (${this.where(src, init)}: ${this.origin(src, init)})`,
      );
    if (code.prop !== live.prop) {
      // Another kind of check: the whole prop is replaced, once every value in it is a literal.
      for (const key of Object.keys(code.fields)) this.replaceLiteral(src, init, key, code.fields[key]);
      return [{ start: p.getStart(src.sf), end: p.getEnd(), text: checkPropsSource(live, src.quote) }];
    }
    const edits: TextEdit[] = [];
    const removed: string[] = [];
    const added: string[] = [];
    for (const key of new Set([...Object.keys(code.fields), ...Object.keys(live.fields)])) {
      const want = live.fields[key];
      const have = code.fields[key];
      if (want === have) continue;
      if (want === undefined) removed.push(key);
      else if (have === undefined) added.push(key);
      else edits.push(this.replaceLiteral(src, init, key, want));
    }
    // A prop that gives way to another (expiresInDays → subject) is replaced where it stands.
    while (removed.length && added.length) {
      const key = added.shift()!;
      const p = this.property(src, init, removed.shift()!)!;
      this.literalOf(src, p);
      edits.push({
        start: p.getStart(src.sf),
        end: p.getEnd(),
        text: `${key}: ${tsValue(live.fields[key], src.quote)}`,
      });
    }
    for (const key of removed) edits.push(this.removeProperty(src, init, key));
    for (const key of added) edits.push(this.addProperty(src, init, key, live.fields[key]));
    return edits;
  }

  private removeProperty(src: Source, obj: TS.ObjectLiteralExpression, key: string): TextEdit {
    const p = this.property(src, obj, key)!;
    const i = obj.properties.indexOf(p as TS.ObjectLiteralElementLike);
    this.literalOf(src, p); // only a literal may go without a word
    const text = src.text;
    if (i > 0) {
      // From the comma after the previous property to the end of this one (a trailing comma stays).
      const prev = obj.properties[i - 1];
      const comma = text.indexOf(',', prev.getEnd());
      return { start: comma, end: p.getEnd(), text: '' };
    }
    // The first: up to the start of the next one (or the closing brace).
    const next = obj.properties[i + 1];
    return { start: p.getStart(src.sf), end: next ? next.getStart(src.sf) : p.getEnd(), text: '' };
  }

  private addProperty(src: Source, obj: TS.ObjectLiteralExpression, key: string, value: string | number): TextEdit {
    const last = obj.properties[obj.properties.length - 1];
    const entry = `${key}: ${tsValue(value, src.quote)}`;
    if (!last) return { start: obj.getStart(src.sf) + 1, end: obj.getStart(src.sf) + 1, text: ` ${entry} ` };
    const multiline = src.text.slice(obj.getStart(src.sf), obj.getEnd()).includes('\n');
    const text = multiline ? `,\n${indentOf(src.text, last.getStart(src.sf))}${entry}` : `, ${entry}`;
    return { start: last.getEnd(), end: last.getEnd(), text };
  }

  /** Named imports missing from the import that brings in this package's constructs. */
  private importEdit(src: Source, names: readonly string[]): TextEdit | null {
    const ts = this.ts!;
    for (const s of src.sf.statements) {
      if (!ts.isImportDeclaration(s) || !s.importClause?.namedBindings) continue;
      const bindings = s.importClause.namedBindings;
      if (!ts.isNamedImports(bindings)) continue;
      const have = bindings.elements.map((e) => e.name.text);
      if (!have.includes('NetworkcalcAccount')) continue;
      const missing = names.filter((n) => !have.includes(n));
      if (!missing.length) return null;
      const first = bindings.elements[0];
      return {
        start: first.getStart(src.sf),
        end: first.getStart(src.sf),
        text: missing.map((n) => `${n}, `).join(''),
      };
    }
    return null;
  }
}

// ---- helpers -----------------------------------------------------------------------------

function sameSettings(a: AlertSpec, b: AlertSpec): boolean {
  return (
    a.type === b.type &&
    (a.subtype ?? null) === (b.subtype ?? null) &&
    a.filter === b.filter &&
    a.filter_value === b.filter_value &&
    a.target_type === b.target_type &&
    a.target_id === b.target_id
  );
}

function sameCheck(a: CheckProps, b: CheckProps): boolean {
  return a.prop === b.prop && JSON.stringify(a.fields) === JSON.stringify(b.fields);
}

function describeSettings(live: AlertSpec, index: DomainIndex): string {
  const t = targetPropsOf(
    live.target_type as 'domain' | 'subdomain',
    index.names.get(`${live.target_type}:${live.target_id}`) ?? null,
    live.target_id as number,
  );
  return `target ${targetSource(t, "'")}, ${checkPropsSource(checkPropsOf(live), "'")}`;
}

function newExpressions(ts: TypeScript, src: Source): Map<number, TS.NewExpression> {
  if (src.news) return src.news;
  const news = new Map<number, TS.NewExpression>();
  const visit = (n: TS.Node): void => {
    if (ts.isNewExpression(n)) news.set(n.getStart(src.sf), n);
    n.forEachChild(visit);
  };
  visit(src.sf);
  src.news = news;
  return news;
}

function positionOf(src: Source, line: number, column: number): number {
  const lines = src.sf.getLineStarts();
  return (lines[line - 1] ?? src.text.length) + column - 1;
}

function indentOf(text: string, offset: number): string {
  const lineStart = text.lastIndexOf('\n', offset - 1) + 1;
  return /^[ \t]*/.exec(text.slice(lineStart, offset))![0];
}

/** The lines [start, end) span, whole: the statement and its line break go. */
function wholeLines(src: Source, start: number, end: number): TextEdit {
  const from = src.text.lastIndexOf('\n', start - 1) + 1;
  const nl = src.text.indexOf('\n', end);
  return { start: from, end: nl === -1 ? src.text.length : nl + 1, text: '' };
}

function enclosingStatement(ts: TypeScript, node: TS.Node): TS.Statement | null {
  for (let n: TS.Node | undefined = node; n; n = n.parent) {
    if (n.parent && (ts.isBlock(n.parent) || ts.isSourceFile(n.parent))) return n as TS.Statement;
  }
  return null;
}

function dominantQuote(ts: TypeScript, sf: TS.SourceFile): Quote {
  let single = 0;
  let double = 0;
  const visit = (n: TS.Node): void => {
    if (ts.isStringLiteral(n)) {
      if (sf.text[n.getStart(sf)] === "'") single++;
      else double++;
    }
    n.forEachChild(visit);
  };
  visit(sf);
  return single >= double ? "'" : '"';
}
