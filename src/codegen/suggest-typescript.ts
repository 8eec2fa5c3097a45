/**
 * Drift → edits of a cdktf app's TypeScript (or JavaScript) source. The app records where each
 * construct was made (src/contract/source-locations.ts); the file is parsed with this
 * package's own parser (js-source.ts) and only the props that differ are rewritten, so
 * formatting and comments stay. A value that is not a literal of this one alert is named, not
 * edited; neither is a declaration that code shared by several stacks makes for each of them.
 * This file decides what each change of the plans becomes; the files are read by
 * ts-sources.ts, declarations found by ts-declarations.ts, edits made by ts-edits.ts, and
 * assemble.ts makes the suggestions one patch.
 */
import {
  checkPropsOf,
  checkPropsSource,
  targetPropsOf,
  targetSource,
  tsValue,
  type CheckProps,
} from '../contract/alert-props';
import type { SourceLocation } from '../contract/source-locations';
import type { AlertSpec } from '../model';
import type { AccountPlan } from '../plan/account-plan';
import { indexDomains, type DomainIndex } from '../plan/targets';
import type { Change } from '../plan/types';
import { assemble, type Draft } from './assemble';
import type { SourceSnapshot, Suggestion, TextEdit } from './suggestion';
import { Declarations, sharedBy } from './ts-declarations';
import { NotLiteral, PropsEdits, statementDeletion } from './ts-edits';
import {
  type Pushed,
  type Undeclared,
  type UndeclaredContext,
  undeclaredBeside,
  undeclaredShared,
  unedited,
} from './suggest-undeclared';
import { AppSources, at, where, type Quote } from './ts-sources';

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

export function suggestTypeScript(input: TypeScriptSuggestInput): SuggestOutput {
  const s = new Suggester(input);
  for (const plan of input.plans) if (plan.status === 'ok') s.account(plan);
  return {
    suggestions: assemble(s.suggestions, (rel) => s.sources.textOf(rel)),
    snapshots: [...s.sources.snapshots.values()],
    problems: s.problems,
  };
}

/** The suggestions of a run, one plan at a time. */
class Suggester {
  readonly suggestions: Draft[] = [];
  readonly problems: string[] = [];
  readonly sources: AppSources;
  private readonly decls: Declarations;
  private readonly edits: PropsEdits;
  /** Where undeclared alerts go (suggest-undeclared.ts): these declarations, these suggestions. */
  private readonly placing: UndeclaredContext;

  constructor(private readonly input: TypeScriptSuggestInput) {
    this.sources = new AppSources(input.dir, input.synthStartedMs, this.problems);
    this.decls = new Declarations(input, this.sources, this.problems);
    this.edits = new PropsEdits(this.sources);
    this.placing = { decls: this.decls, push: (s) => this.push(s) };
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
    const found = this.decls.declaration(c.path, 'Alert');
    if ('reason' in found) return this.push({ ...base, ...found.at, summary: found.reason, edits: [] });
    const { src, node, loc } = found;
    const edits: TextEdit[] = [];
    const notLiteral: string[] = [];
    const wanted: string[] = [];
    const props = node.arguments[2];
    if (props?.type !== 'ObjectExpression') {
      return this.push({
        ...base,
        ...at(src, props ?? node),
        summary: `${c.path}: the props are not an object literal (${where(src, props ?? node)}); set ${describeSettings(live, index)} where they come from`,
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
      attempt(() => edits.push(this.edits.replaceTarget(src, props, targetSource(t, src.quote))));
    }
    const liveCheck = checkPropsOf(live);
    const codeCheck = checkPropsOf(code);
    if (!sameCheck(liveCheck, codeCheck)) {
      wanted.push(checkPropsSource(liveCheck, src.quote));
      attempt(() => edits.push(...this.edits.checkEdits(src, props, codeCheck, liveCheck)));
    }
    if (notLiteral.length) {
      return this.push({
        ...base,
        ...at(src, props),
        summary: `${c.path}: ${notLiteral.join('; ')}; set ${wanted.join(', ')} there to match the account`,
        edits: [],
      });
    }
    const shared = this.decls.shared(loc);
    if (shared) {
      return this.push({
        ...base,
        ...at(src, node),
        summary: `${c.path} is one of ${shared.length} alerts declared at ${where(src, node)} (${sharedBy(shared)}), so its props are not its own; set ${wanted.join(', ')} for this alert there`,
        edits: [],
      });
    }
    this.push({
      ...base,
      ...at(src, props),
      summary: `${c.path}: ${fields} changed in the account; the edit sets ${wanted.join(', ')}`,
      edits,
      src,
    });
  }

  private renamed(plan: AccountPlan, declared: Change, live: Change): void {
    const base = { kind: 'changed' as const, account: plan.account.label, alert: live.name, path: declared.path };
    const found = this.decls.declaration(declared.path, 'Alert');
    if ('reason' in found) return this.push({ ...base, ...found.at, summary: found.reason, edits: [] });
    const { src, node, loc } = found;
    const summary = `${declared.path}: renamed in the account from ${JSON.stringify(declared.name)} to ${JSON.stringify(live.name)}`;
    const props = node.arguments[2];
    try {
      if (props?.type !== 'ObjectExpression')
        throw new NotLiteral(`the props are not an object literal (${where(src, props ?? node)})`);
      const shared = this.decls.shared(loc);
      if (shared)
        throw new NotLiteral(
          `it is declared with ${shared.length - 1} other alerts at ${where(src, node)} (${sharedBy(shared)})`,
        );
      const edit = this.edits.replaceLiteral(src, props, 'name', live.name);
      this.push({ ...base, ...at(src, props), summary: `${summary}; the edit renames it`, edits: [edit], src });
    } catch (e) {
      if (!(e instanceof NotLiteral)) throw e;
      this.push({ ...base, ...at(src, node), summary: `${summary}; ${e.what}, so set name there`, edits: [] });
    }
  }

  private deleted(plan: AccountPlan, c: Change): void {
    const base = { kind: 'deleted' as const, account: plan.account.label, alert: c.name, path: c.path };
    const choice = `deleted in the account: \`ncalc apply\` re-creates it, or delete its declaration to accept the deletion`;
    const found = this.decls.declaration(c.path, 'Alert', true);
    if ('reason' in found)
      return this.push({ ...base, ...found.at, summary: `${c.path}: ${choice}; ${found.reason}`, edits: [] });
    const { src, node, loc } = found;
    const statement = src.parents.get(node);
    const shared = this.decls.shared(loc);
    if (shared || statement?.type !== 'ExpressionStatement') {
      const why = shared
        ? `it is one of ${shared.length} alerts declared at ${where(src, node)} (${sharedBy(shared)}); leave it out there`
        : `its declaration at ${where(src, node)} is used as a value; remove it and its uses`;
      return this.push({ ...base, ...at(src, node), summary: `${c.path}: ${choice} (${why})`, edits: [] });
    }
    this.push({
      ...base,
      ...at(src, statement),
      summary: `${c.path}: ${choice} (the edit deletes it)`,
      edits: [statementDeletion(src, statement.start!, statement.end!)],
      src,
    });
  }

  private undeclared(plan: AccountPlan, live: AlertSpec, index: DomainIndex, scopeKey: string): void {
    const scope = plan.account.scopes.find((s) => s.key === scopeKey) ?? plan.account.scopes[0];
    const why =
      scope.ownership === 'additive'
        ? 'live in the account, not declared (the additive scope leaves it alone)'
        : '`ncalc apply` deletes it (live in the scope, not declared)';
    const accounts = this.input.locations.filter(
      (l) => l.kind === 'NetworkcalcAccount' && l.path.split('/')[0] === scope.stack,
    );
    const account = accounts.find((l) => (l.alias ?? null) === scope.alias);
    const target = targetPropsOf(
      live.target_type as 'domain' | 'subdomain',
      index.names.get(`${live.target_type}:${live.target_id}`) ?? null,
      live.target_id as number,
    );
    const u: Undeclared = {
      plan,
      stack: scope.stack,
      accounts,
      live,
      base: { kind: 'undeclared', account: plan.account.label, alert: live.name, path: null },
      head: `${JSON.stringify(live.name)}: ${why}`,
      alertProps: (q: Quote) => [
        `name: ${tsValue(live.name, q)}`,
        `target: ${targetSource(target, q)}`,
        checkPropsSource(checkPropsOf(live), q),
      ],
    };
    if (!account)
      return unedited(
        this.placing,
        u,
        { file: null, line: null },
        `no NetworkcalcAccount of stack ${scope.stack} was found in the source to declare it beside`,
      );
    const found = this.decls.declaration(account.path, 'NetworkcalcAccount', true);
    if ('reason' in found) return unedited(this.placing, u, found.at, found.reason);
    const shared = this.decls.shared(account);
    if (shared) return undeclaredShared(this.placing, u, account, shared, found.src, found.node);
    undeclaredBeside(this.placing, u, account, found.src, found.node);
  }

  private push(s: Pushed): void {
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
