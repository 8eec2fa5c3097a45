/**
 * Drift → edits of a cdktf app's TypeScript (or JavaScript) source. The app records where each
 * construct was made (src/contract/source-locations.ts); the file is parsed with this
 * package's own parser (js-source.ts) and only the props that differ are rewritten, so
 * formatting and comments stay. A value that is not a literal of this one alert is named, not
 * edited; neither is a declaration that code shared by several stacks makes for each of them.
 */
import { readFileSync, statSync } from 'node:fs';
import * as path from 'node:path';
import type * as B from '@babel/types';
import {
  checkPropsOf,
  checkPropsSource,
  targetPropsOf,
  targetSource,
  tsValue,
  type CheckProps,
} from '../contract/alert-props';
import type { Frame, SourceLocation } from '../contract/source-locations';
import type { AlertSpec } from '../model';
import type { AccountPlan } from '../plan/account-plan';
import { constructId } from './export';
import { indexDomains, type DomainIndex } from '../plan/targets';
import type { Change } from '../plan/types';
import {
  dominantQuote,
  lineOf,
  lineStartsOf,
  offsetOf,
  parseJsSource,
  parseNewExpressionAt,
  SourceSyntaxError,
  textOf,
  type JsSource,
  type Node,
} from './js-source';
import { assemble, type Draft } from './assemble';
import type { SourceSnapshot, Suggestion, TextEdit } from './suggestion';
import { sha256 } from './write';

export interface TypeScriptSuggestInput {
  /** The app's directory (paths in suggestions are relative to it). */
  dir: string;
  /**
   * The accounts' plans: their changes, live lists, declarations (policies expanded) and the
   * domains they listed (`liveTargetNames`), which name the targets of live alerts.
   */
  plans: readonly AccountPlan[];
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

/** A file of the app, read; parsed as a whole only when a suggestion needs more than one declaration. */
interface Source {
  file: string;
  rel: string;
  text: string;
  lineStarts: number[];
  quote: "'" | '"';
  /** The whole file parsed, once asked for; null when it does not parse (a problem says where). */
  whole?: Whole | null;
}

type Whole = Source & JsSource;

type Quote = Source['quote'];

/** Why a value cannot be edited here: where it comes from. */
class NotLiteral {
  constructor(readonly what: string) {}
}

export function suggestTypeScript(input: TypeScriptSuggestInput): SuggestOutput {
  const ctx = new Context(input);
  for (const plan of input.plans) if (plan.status === 'ok') ctx.account(plan);
  return {
    suggestions: assemble(ctx.suggestions, (rel) => ctx.textOf(rel)),
    snapshots: [...ctx.snapshots.values()],
    problems: ctx.problems,
  };
}

class Context {
  readonly suggestions: Draft[] = [];
  readonly snapshots = new Map<string, SourceSnapshot>();
  readonly problems: string[] = [];
  private readonly sources = new Map<string, Source | null>();
  /** The text of each file read, by its path relative to the app's directory. */
  private readonly texts = new Map<string, string>();
  private readonly byPath = new Map<string, SourceLocation>();
  /** The constructs made at one file position: more than one is a loop, a helper or a class shared by stacks. */
  private readonly atPosition = new Map<string, SourceLocation[]>();
  private readonly policyPaths: Set<string>;
  /** Construct ids taken under a parent path, the new declarations' included. */
  private readonly usedIds = new Map<string, Set<string>>();

  constructor(private readonly input: TypeScriptSuggestInput) {
    for (const l of input.locations) {
      this.byPath.set(l.path, l);
      const key = positionKey(l);
      if (!this.atPosition.has(key)) this.atPosition.set(key, []);
      this.atPosition.get(key)!.push(l);
    }
    this.policyPaths = new Set();
    for (const plan of input.plans) for (const a of plan.declared ?? []) if (a.fromPolicy) this.policyPaths.add(a.path);
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
      // The plan's declarations: the app's and those its policies generated.
      const names = new Set((plan.declared ?? []).map((a) => a.spec.name));
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
    const props = node.arguments[2];
    if (props?.type !== 'ObjectExpression') {
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
    const shared = this.shared(loc);
    if (shared) {
      return this.push({
        ...base,
        ...this.at(src, node),
        summary: `${c.path} is one of ${shared.length} alerts declared at ${this.where(src, node)} (${sharedBy(shared)}), so its props are not its own; set ${wanted.join(', ')} for this alert there`,
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
    const props = node.arguments[2];
    try {
      if (props?.type !== 'ObjectExpression')
        throw new NotLiteral(`the props are not an object literal (${this.where(src, props ?? node)})`);
      const shared = this.shared(loc);
      if (shared)
        throw new NotLiteral(
          `it is declared with ${shared.length - 1} other alerts at ${this.where(src, node)} (${sharedBy(shared)})`,
        );
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
    const found = this.declaration(c.path, 'Alert', true);
    if ('reason' in found)
      return this.push({ ...base, ...found.at, summary: `${c.path}: ${choice}; ${found.reason}`, edits: [] });
    const { src, node, loc } = found;
    const statement = src.parents.get(node);
    const shared = this.shared(loc);
    if (shared || statement?.type !== 'ExpressionStatement') {
      const why = shared
        ? `it is one of ${shared.length} alerts declared at ${this.where(src, node)} (${sharedBy(shared)}); leave it out there`
        : `its declaration at ${this.where(src, node)} is used as a value; remove it and its uses`;
      return this.push({ ...base, ...this.at(src, node), summary: `${c.path}: ${choice} (${why})`, edits: [] });
    }
    this.push({
      ...base,
      ...this.at(src, statement),
      summary: `${c.path}: ${choice} (the edit deletes it)`,
      edits: [statementDeletion(src, statement.start!, statement.end!)],
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
    const head = `${JSON.stringify(live.name)}: ${why}`;
    const line = (at: { file: string | null; line: number | null }, summary: string) =>
      this.push({ ...base, ...at, summary: `${head}; ${summary}`, edits: [] });
    if (!account)
      return line(
        { file: null, line: null },
        `no NetworkcalcAccount of stack ${scope.stack} was found in the source to declare it beside`,
      );
    const found = this.declaration(account.path, 'NetworkcalcAccount', true);
    if ('reason' in found) return line(found.at, found.reason);
    const { src, node } = found;
    const target = targetPropsOf(
      live.target_type as 'domain' | 'subdomain',
      index.names.get(`${live.target_type}:${live.target_id}`) ?? null,
      live.target_id as number,
    );
    const alertProps = (q: Quote) => [
      `name: ${tsValue(live.name, q)}`,
      `target: ${targetSource(target, q)}`,
      checkPropsSource(checkPropsOf(live), q),
    ];
    const shared = this.shared(account);
    if (shared) {
      // Beside this account's declaration, the Alert would be made for every construct made there.
      const at = this.at(src, node);
      const sharedLine = `the NetworkcalcAccount at ${this.where(src, node)} is shared by ${shared.length} accounts (${sharedBy(shared)}), so an Alert declared beside it would be created in each of the ${shared.length} accounts`;
      const own = this.ownCallSite(account, shared, scope.stack);
      if ('reason' in own)
        return line(at, `${sharedLine}; ${own.reason}, so declare it for stack ${scope.stack} by hand`);
      if (accounts.length > 1)
        return line(
          at,
          `${sharedLine}; stack ${scope.stack} has several accounts, so declare it with its account for stack ${scope.stack} by hand`,
        );
      const { src: ownSrc, statement, variable, declare } = own;
      const props = alertProps(ownSrc.quote);
      const anchor = this.lastAlertStatement(ownSrc, statement, scope.stack);
      const edits = [
        ...(declare ? [declare] : []),
        this.newAlert(ownSrc, anchor, variable, this.freeId(live.name, scope.stack), props),
        ...this.importEdits(ownSrc),
      ];
      return this.push({
        ...base,
        ...this.at(ownSrc, anchor),
        summary: `${head}; the NetworkcalcAccount at ${this.where(src, node)} is shared by ${shared.length} accounts (${sharedBy(shared)}), so the edit declares it for stack ${scope.stack} alone, beside ${this.where(ownSrc, statement)} (account ${plan.account.label})`,
        edits,
        src: ownSrc,
      });
    }
    const statement = enclosingStatement(src, node);
    const scopeArg = node.arguments[0];
    if (!statement || !scopeArg)
      return line(
        this.at(src, node),
        `the account at ${this.where(src, node)} is not a statement of a block, so add the Alert by hand`,
      );
    const props = alertProps(src.quote);
    // Which account: needed when the stack has several (each has an alias then).
    if (accounts.length > 1) {
      const holder = src.parents.get(node);
      const variable = holder?.type === 'VariableDeclarator' && holder.id.type === 'Identifier' ? holder.id.name : null;
      if (!variable)
        return line(
          this.at(src, node),
          `stack ${scope.stack} has several accounts and the one at ${this.where(src, node)} is not held in a variable, so add the Alert with its account by hand`,
        );
      props.push(`account: ${variable}`);
    }
    const parentPath = account.path.split('/').slice(0, -1).join('/');
    const anchor = this.lastAlertStatement(src, statement, scope.stack);
    this.push({
      ...base,
      ...this.at(src, anchor),
      summary: `${head}; the edit declares it in ${scope.stack} (account ${plan.account.label})`,
      edits: [
        this.newAlert(src, anchor, textOf(src, scopeArg), this.freeId(live.name, parentPath), props),
        ...this.importEdits(src),
      ],
      src,
    });
  }

  // ---- declarations to add -------------------------------------------------------------

  /**
   * Where shared code was called for this account's stack alone: the innermost call site of
   * the app that no other construct made at the shared position went through. It must be the
   * `new …(scope, '<stack>', …)` that made the stack, as a statement of a block, so that an
   * Alert can be given that stack as its scope.
   */
  private ownCallSite(
    account: SourceLocation,
    shared: readonly SourceLocation[],
    stack: string,
  ): { src: Whole; statement: Node; variable: string; declare: TextEdit | null } | { reason: string } {
    const others = shared.filter((l) => l !== account);
    const own = (account.callers ?? []).find((f) =>
      others.every((o) => !(o.callers ?? []).some((g) => sameFrame(f, g))),
    );
    if (!own)
      return { reason: `no call site of stack ${stack}'s own was found (it is made in a loop or a helper too)` };
    const read = this.source(own.file);
    const src = read && this.whole(read);
    const at = `${path.relative(this.input.dir, own.file)}:${own.line}`;
    if (!src) return { reason: `${at} could not be read or parsed` };
    const made = src.news.get(offsetOf(src, own.line, own.column));
    const id = made?.arguments[1];
    if (!made || id?.type !== 'StringLiteral' || id.value !== stack)
      return { reason: `the code at ${at} that makes it for stack ${stack} is not a \`new …(scope, '${stack}', …)\`` };
    const holder = src.parents.get(made);
    const statement = enclosingStatement(src, made);
    if (holder?.type === 'VariableDeclarator' && holder.id.type === 'Identifier' && statement)
      return { src, statement, variable: holder.id.name, declare: null };
    if (holder?.type === 'ExpressionStatement' && statement === holder) {
      // Kept in a variable, so that the Alert can name the stack.
      const variable = freeIdentifier(src, stack);
      return {
        src,
        statement,
        variable,
        declare: { start: made.start!, end: made.start!, text: `const ${variable} = ` },
      };
    }
    return { reason: `the stack made at ${this.where(src, made)} is used as a value, not held in a variable` };
  }

  /**
   * The statement a new Alert goes after: the last statement of `statement`'s block that
   * declares an alert of the same stack on its own (not a loop or a helper), else `statement`.
   */
  private lastAlertStatement(src: Whole, statement: Node, stack: string): Node {
    const block = src.parents.get(statement)!;
    let last = statement;
    for (const l of this.input.locations) {
      if (l.kind !== 'Alert' || l.path.split('/')[0] !== stack || this.shared(l)) continue;
      if (path.resolve(l.file) !== path.resolve(this.input.dir, src.rel)) continue;
      const made = src.news.get(offsetOf(src, l.line, l.column));
      const s = made && enclosingStatement(src, made);
      if (s && src.parents.get(s) === block && s.start! > last.start!) last = s;
    }
    return last;
  }

  /** A construct id for a new child of `parentPath`, unused by the constructs recorded there and the ids given before. */
  private freeId(name: string, parentPath: string): string {
    let used = this.usedIds.get(parentPath);
    if (!used) {
      used = new Set(
        this.input.locations
          .filter((l) => l.path.split('/').slice(0, -1).join('/') === parentPath)
          .map((l) => l.path.split('/').pop()!),
      );
      this.usedIds.set(parentPath, used);
    }
    return constructId(name, used);
  }

  /**
   * `new Alert(scope, 'Id', {…});` on the lines after `after` (after its trailing comment,
   * which stays its own). When `after` ends its line, the lines go in at the start of the next
   * one: an edit that deletes `after`'s lines then ends where this one starts, so both apply.
   */
  private newAlert(src: Source, after: Node, scope: string, id: string, props: readonly string[]): TextEdit {
    const indent = indentOf(src.text, after.start!);
    const q = src.quote;
    const lines = [
      `${indent}new Alert(${scope}, ${tsValue(id, q)}, {`,
      ...props.map((p) => `${indent}  ${p},`),
      `${indent}});`,
    ];
    const at = afterTrailingComment(src.text, after.end!);
    const eol = /^(\r\n|\n)/.exec(src.text.slice(at, at + 2))?.[0];
    if (eol) return { start: at + eol.length, end: at + eol.length, text: lines.map((l) => l + eol).join('') };
    return { start: at, end: at, text: lines.map((l) => '\n' + l).join('') };
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
      // Edits only where the file was read: their diff is made from its text.
      edits: src ? rest.edits : [],
    });
  }

  /** The text of a file read, by its path relative to the app's directory. */
  textOf(rel: string): string | undefined {
    return this.texts.get(rel);
  }

  /** The `new <kind>(...)` that made the construct at `constructPath`, or why it is not found. */
  private declaration<W extends boolean = false>(
    constructPath: string | null,
    kind: string,
    whole?: W,
  ):
    | { src: W extends true ? Whole : Source; node: B.NewExpression; loc: SourceLocation }
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
    const read = this.source(loc.file);
    const at = this.relLoc(loc);
    const src = read && whole ? this.whole(read) : read;
    if (!src) return { reason: `${at.file} could not be read or parsed`, at };
    const node = this.newAt(src, offsetOf(src, loc.line, loc.column));
    if (node === undefined) return { reason: `${at.file} could not be read or parsed`, at };
    if (!node) {
      this.problems.push(
        `${constructPath}: the app made it at ${at.file}:${at.line}:${loc.column}, but no \`new ${kind}(...)\` starts there in the source; the file may have changed since the synth: run again`,
      );
      return { reason: `its declaration was not found at ${at.file}:${at.line}`, at };
    }
    return { src: src as W extends true ? Whole : Source, node, loc };
  }

  /**
   * The `new` expression at `offset`: parsed alone when it can be, else from the whole file.
   * Undefined when the file does not parse.
   */
  private newAt(src: Source, offset: number): B.NewExpression | null | undefined {
    if (src.whole === undefined) {
      const alone = parseNewExpressionAt(src.file, src.text, offset);
      if (alone) return alone;
    }
    const whole = this.whole(src);
    return whole ? (whole.news.get(offset) ?? null) : undefined;
  }

  /** The whole file parsed (once); null, and one problem naming file and line, when it does not parse. */
  private whole(src: Source): Whole | null {
    if (src.whole !== undefined) return src.whole;
    try {
      const whole: Whole = { ...parseJsSource(src.file, src.text), ...src };
      whole.whole = whole; // a Whole is its own: its nodes are the ones its parents map knows
      src.whole = whole;
    } catch (e) {
      if (!(e instanceof SourceSyntaxError)) throw e;
      this.problems.push(
        `${src.rel}:${e.line}: ${e.message}: the file does not parse, so no edit can be made in it; fix it and run again`,
      );
      src.whole = null;
    }
    return src.whole;
  }

  private relLoc(loc: Frame): { file: string; line: number } {
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
      src = { file, rel, text, lineStarts: lineStartsOf(text), quote: dominantQuote(text) };
      this.texts.set(rel, text);
    } catch (e) {
      this.problems.push(`${rel}: cannot be read (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
    }
    this.sources.set(file, src);
    return src;
  }

  /** The constructs made at `loc`'s position when there are several (a loop, a helper, a class shared by stacks). */
  private shared(loc: Frame): SourceLocation[] | null {
    const all = this.atPosition.get(positionKey(loc)) ?? [];
    return all.length > 1 ? all : null;
  }

  private at(src: Source, node: Node): { file: string; line: number } {
    return { file: src.rel, line: lineOf(src, node.start!) };
  }

  private where(src: Source, node: Node): string {
    const { file, line } = this.at(src, node);
    return `${file}:${line}`;
  }

  // ---- edits ---------------------------------------------------------------------------

  private property(src: Source, obj: B.ObjectExpression, key: string): B.ObjectProperty | null {
    for (const p of obj.properties) {
      if (p.type === 'SpreadElement') continue;
      const name =
        !p.computed && p.key.type === 'Identifier' ? p.key.name : p.key.type === 'StringLiteral' ? p.key.value : null;
      if (name !== key) continue;
      if (p.type === 'ObjectProperty' && !p.shorthand) return p;
      throw new NotLiteral(`${key} is not a literal (${this.where(src, p)}: ${textOf(src, p)})`);
    }
    const spread = obj.properties.find((p) => p.type === 'SpreadElement');
    if (spread) throw new NotLiteral(`${key} may come from ${textOf(src, spread)} (${this.where(src, spread)})`);
    return null;
  }

  /** A string or number literal's replacement; anything else names where the value comes from. */
  private replaceLiteral(src: Source, obj: B.ObjectExpression, key: string, value: string | number): TextEdit {
    const p = this.property(src, obj, key);
    if (!p) throw new NotLiteral(`${key} is not given (${this.where(src, obj)})`);
    const init = this.literalOf(src, p);
    const quote = init.type === 'StringLiteral' ? (src.text[init.start!] as Quote) : src.quote;
    return { start: init.start!, end: init.end!, text: tsValue(value, quote) };
  }

  /** The property's value when it is a string or number literal; otherwise where it comes from, thrown. */
  private literalOf(src: Source, p: B.ObjectProperty): Node {
    const key = textOf(src, p.key);
    const init = p.value;
    const literal =
      init.type === 'StringLiteral' ||
      (init.type === 'TemplateLiteral' && init.expressions.length === 0) ||
      init.type === 'NumericLiteral' ||
      (init.type === 'UnaryExpression' &&
        (init.operator === '-' || init.operator === '+') &&
        init.argument.type === 'NumericLiteral');
    if (!literal) throw new NotLiteral(`${key} is not a literal (${this.where(src, init)}: ${this.origin(src, init)})`);
    return init;
  }

  /** `days` (main.ts:5), `props.days`, …: the expression, and where an identifier is declared. */
  private origin(src: Source, expr: Node): string {
    const text = textOf(src, expr).replace(/\s+/g, ' ');
    if (expr.type !== 'Identifier') return text;
    // The nearest declaration of that name before it in the file.
    let found: Node | null = null;
    for (const d of this.whole(src)?.declarations.get(expr.name) ?? [])
      if (d.start! < expr.start! && (!found || d.start! > found.start!)) found = d;
    return found ? `${text}, declared at ${this.where(src, found)}` : text;
  }

  private replaceTarget(src: Source, obj: B.ObjectExpression, replacement: string): TextEdit {
    const p = this.property(src, obj, 'target');
    if (!p) throw new NotLiteral(`target is not given (${this.where(src, obj)})`);
    const init = p.value;
    const arg = init.type === 'CallExpression' ? init.arguments : [];
    const isFactoryCall =
      init.type === 'CallExpression' &&
      init.callee.type === 'MemberExpression' &&
      !init.callee.computed &&
      init.callee.object.type === 'Identifier' &&
      init.callee.object.name === 'AlertTarget' &&
      arg.length === 1 &&
      (arg[0].type === 'StringLiteral' || arg[0].type === 'NumericLiteral');
    if (!isFactoryCall)
      throw new NotLiteral(`target is not a literal (${this.where(src, init)}: ${this.origin(src, init)})`);
    return { start: init.start!, end: init.end!, text: replacement };
  }

  /** The edits that turn the check prop `code` into `live` in the props object. */
  private checkEdits(src: Source, obj: B.ObjectExpression, code: CheckProps, live: CheckProps): TextEdit[] {
    const p = this.property(src, obj, code.prop);
    if (!p) throw new NotLiteral(`${code.prop} is not given (${this.where(src, obj)})`);
    const init = p.value;
    if (init.type !== 'ObjectExpression')
      throw new NotLiteral(
        `${code.prop} is not an object literal (${this.where(src, init)}: ${this.origin(src, init)})`,
      );
    if (code.prop !== live.prop) {
      // Another kind of check: the whole prop is replaced, once every value in it is a literal.
      for (const key of Object.keys(code.fields)) this.replaceLiteral(src, init, key, code.fields[key]);
      return [{ start: p.start!, end: p.end!, text: checkPropsSource(live, src.quote) }];
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
      edits.push({ start: p.start!, end: p.end!, text: `${key}: ${tsValue(live.fields[key], src.quote)}` });
    }
    for (const key of removed) edits.push(this.removeProperty(src, init, key));
    for (const key of added) edits.push(this.addProperty(src, init, key, live.fields[key]));
    return edits;
  }

  private removeProperty(src: Source, obj: B.ObjectExpression, key: string): TextEdit {
    const p = this.property(src, obj, key)!;
    const i = obj.properties.indexOf(p);
    this.literalOf(src, p); // only a literal may go without a word
    const text = src.text;
    if (i > 0) {
      // From the comma after the previous property to the end of this one (a trailing comma stays).
      const prev = obj.properties[i - 1];
      const comma = text.indexOf(',', prev.end!);
      return { start: comma, end: p.end!, text: '' };
    }
    // The first: up to the start of the next one (or the closing brace).
    const next = obj.properties[i + 1];
    return { start: p.start!, end: next ? next.start! : p.end!, text: '' };
  }

  private addProperty(src: Source, obj: B.ObjectExpression, key: string, value: string | number): TextEdit {
    const last = obj.properties[obj.properties.length - 1];
    const entry = `${key}: ${tsValue(value, src.quote)}`;
    if (!last) return { start: obj.start! + 1, end: obj.start! + 1, text: ` ${entry} ` };
    const multiline = textOf(src, obj).includes('\n');
    const text = multiline ? `,\n${indentOf(src.text, last.start!)}${entry}` : `, ${entry}`;
    return { start: last.end!, end: last.end!, text };
  }

  /**
   * Alert and AlertTarget added to the import that brings in this package's constructs, when
   * missing. None when the file has no such import (a `require`, which the author extends).
   */
  private importEdits(src: Whole): TextEdit[] {
    const names = ['Alert', 'AlertTarget'];
    for (const s of src.program.body) {
      if (s.type !== 'ImportDeclaration') continue;
      const named = s.specifiers.filter((x): x is B.ImportSpecifier => x.type === 'ImportSpecifier');
      const have = named.map((e) => e.local.name);
      if (!have.some((n) => OWN_CONSTRUCTS.has(n))) continue;
      const missing = names.filter((n) => !have.includes(n));
      if (!missing.length) return [];
      return [{ start: named[0].start!, end: named[0].start!, text: missing.map((n) => `${n}, `).join('') }];
    }
    return [];
  }
}

/** Names of this package's exports an app's import of it has; the one to extend. */
const OWN_CONSTRUCTS = new Set(['NetworkcalcAccount', 'Alert', 'AlertTarget', 'AlertPolicy']);

// ---- helpers -----------------------------------------------------------------------------

function positionKey(f: Frame): string {
  return `${f.file}:${f.line}:${f.column}`;
}

function sameFrame(a: Frame, b: Frame): boolean {
  return a.file === b.file && a.line === b.line && a.column === b.column;
}

/** Why several constructs share one declaration: `2 stacks: prod, staging`, or a loop or helper in one. */
function sharedBy(shared: readonly SourceLocation[]): string {
  const stacks = [...new Set(shared.map((l) => l.path.split('/')[0]))];
  return stacks.length > 1 ? `code shared by ${stacks.length} stacks: ${stacks.join(', ')}` : 'a loop or a helper';
}

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

function indentOf(text: string, offset: number): string {
  const lineStart = text.lastIndexOf('\n', offset - 1) + 1;
  return /^[ \t]*/.exec(text.slice(lineStart, offset))![0];
}

/**
 * Where text goes after a statement ending at `end`: past the comments on the rest of its
 * line (`}); // why`), which belong to it; at `end` when code follows on that line.
 */
function afterTrailingComment(text: string, end: number): number {
  let i = end;
  for (;;) {
    while (text[i] === ' ' || text[i] === '\t') i++;
    if (text.startsWith('//', i)) {
      const nl = text.slice(i).search(/[\r\n\u2028\u2029]/);
      return nl === -1 ? text.length : i + nl;
    }
    if (!text.startsWith('/*', i)) break;
    const close = text.indexOf('*/', i + 2);
    if (close === -1 || /[\r\n\u2028\u2029]/.test(text.slice(i, close))) return end;
    i = close + 2;
  }
  return i >= text.length || /[\r\n\u2028\u2029]/.test(text[i]) ? i : end;
}

/**
 * The deletion of the statement [start, end): its lines, whole, when nothing else is on them
 * (the statement, blanks, a trailing comment); otherwise only its text and the blanks after
 * it, so that the code sharing its lines stays.
 */
function statementDeletion(src: Source, start: number, end: number): TextEdit {
  const text = src.text;
  const from = text.lastIndexOf('\n', start - 1) + 1;
  const after = afterTrailingComment(text, end);
  const alone =
    text.slice(from, start).trim() === '' && (after >= text.length || text[after] === '\n' || text[after] === '\r');
  if (!alone) {
    // The blanks after it go, or those before it when it ends its line.
    let to = end;
    while (text[to] === ' ' || text[to] === '\t') to++;
    let at = start;
    if (to >= text.length || text[to] === '\n' || text[to] === '\r') {
      to = end;
      while (at > from && (text[at - 1] === ' ' || text[at - 1] === '\t')) at--;
    }
    return { start: at, end: to, text: '' };
  }
  const nl = text.indexOf('\n', end);
  return { start: from, end: nl === -1 ? text.length : nl + 1, text: '' };
}

/** The statement of a block (or of the file) that holds `node`. */
function enclosingStatement(src: JsSource, node: Node): Node | null {
  for (let n: Node | undefined = node; n; n = src.parents.get(n)) {
    const parent = src.parents.get(n);
    if (parent && (parent.type === 'BlockStatement' || parent.type === 'Program')) return n;
  }
  return null;
}

/** A variable name for stack `stack` that no identifier of the file uses. */
function freeIdentifier(src: JsSource, stack: string): string {
  const words = stack.split(/[^A-Za-z0-9_$]+/).filter(Boolean);
  let base = words.map((w, i) => (i ? w[0].toUpperCase() + w.slice(1) : w)).join('') || 'stack';
  if (/^[0-9]/.test(base)) base = `stack${base}`;
  if (RESERVED.has(base)) base = `${base}Stack`;
  let name = base;
  for (let n = 2; src.identifiers.has(name); n++) name = `${base}${n}`;
  return name;
}

const RESERVED = new Set(
  'break case catch class const continue debugger default delete do else enum export extends false finally for function if import in instanceof let new null return static super switch this throw true try typeof var void while with yield await implements interface package private protected public'.split(
    ' ',
  ),
);
