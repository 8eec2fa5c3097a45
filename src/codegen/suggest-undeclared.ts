/**
 * Where the declaration of a live alert the app does not declare goes, when the account's
 * construct is found: beside it, or, when that construct is shared by several stacks, where
 * this stack's alone is made; otherwise a line without an edit that says why.
 */
import type * as B from '@babel/types';
import type { SourceLocation } from '../contract/source-locations';
import type { AlertSpec } from '../model';
import type { AccountPlan } from '../plan/account-plan';
import { textOf, type Node } from './js-source';
import type { Suggestion } from './suggestion';
import { enclosingStatement, sharedBy, type Declarations } from './ts-declarations';
import { importEdits, newAlert } from './ts-edits';
import { at, where, type Quote, type Source, type Whole } from './ts-sources';

export /** A live alert the app does not declare, and what its suggestion says whatever it becomes. */
interface Undeclared {
  plan: AccountPlan;
  stack: string;
  /** The NetworkcalcAccounts recorded in its stack. */
  accounts: readonly SourceLocation[];
  live: AlertSpec;
  base: Pick<Suggestion, 'kind' | 'account' | 'alert' | 'path'>;
  /** The start of its summary: the alert and what apply does with it. */
  head: string;
  /** Its props as source, in a file's quote. */
  alertProps(q: Quote): string[];
}

/** A suggestion as the suggester takes it: the file and line from its source unless given. */
export type Pushed = Omit<Suggestion, 'diff' | 'file' | 'line'> & {
  file?: string | null;
  line?: number | null;
  src?: Source;
};

/** What the placement needs of the suggester: the app's declarations and where suggestions go. */
export interface UndeclaredContext {
  readonly decls: Declarations;
  push(s: Pushed): void;
}

/** An undeclared alert's line without an edit. */
export function unedited(
  ctx: UndeclaredContext,
  u: Undeclared,
  place: { file: string | null; line: number | null },
  summary: string,
): void {
  ctx.push({ ...u.base, ...place, summary: `${u.head}; ${summary}`, edits: [] });
}

/**
 * The account is declared in code shared by several stacks: beside it, the Alert would be
 * made for every construct made there, so it goes where this account's stack alone is made.
 */
export function undeclaredShared(
  ctx: UndeclaredContext,
  u: Undeclared,
  account: SourceLocation,
  shared: readonly SourceLocation[],
  src: Whole,
  node: Node,
): void {
  const place = at(src, node);
  const sharedLine = `the NetworkcalcAccount at ${where(src, node)} is shared by ${shared.length} accounts (${sharedBy(shared)}), so an Alert declared beside it would be created in each of the ${shared.length} accounts`;
  const own = ctx.decls.ownCallSite(account, shared, u.stack);
  if ('reason' in own)
    return unedited(ctx, u, place, `${sharedLine}; ${own.reason}, so declare it for stack ${u.stack} by hand`);
  if (u.accounts.length > 1)
    return unedited(
      ctx,
      u,
      place,
      `${sharedLine}; stack ${u.stack} has several accounts, so declare it with its account for stack ${u.stack} by hand`,
    );
  const { src: ownSrc, statement, variable, declare } = own;
  const anchor = ctx.decls.lastAlertStatement(ownSrc, statement, u.stack);
  const edits = [
    ...(declare ? [declare] : []),
    newAlert(ownSrc, anchor, variable, ctx.decls.freeId(u.live.name, u.stack), u.alertProps(ownSrc.quote)),
    ...importEdits(ownSrc),
  ];
  ctx.push({
    ...u.base,
    ...at(ownSrc, anchor),
    summary: `${u.head}; the NetworkcalcAccount at ${where(src, node)} is shared by ${shared.length} accounts (${sharedBy(shared)}), so the edit declares it for stack ${u.stack} alone, beside ${where(ownSrc, statement)} (account ${u.plan.account.label})`,
    edits,
    src: ownSrc,
  });
}

/** The account's own declaration: the Alert goes after the last alert of its stack there. */
export function undeclaredBeside(
  ctx: UndeclaredContext,
  u: Undeclared,
  account: SourceLocation,
  src: Whole,
  node: B.NewExpression,
): void {
  const statement = enclosingStatement(src, node);
  const scopeArg = node.arguments[0];
  if (!statement || !scopeArg)
    return unedited(
      ctx,
      u,
      at(src, node),
      `the account at ${where(src, node)} is not a statement of a block, so add the Alert by hand`,
    );
  const props = u.alertProps(src.quote);
  // Which account: needed when the stack has several (each has an alias then).
  if (u.accounts.length > 1) {
    const holder = src.parents.get(node);
    const variable = holder?.type === 'VariableDeclarator' && holder.id.type === 'Identifier' ? holder.id.name : null;
    if (!variable)
      return unedited(
        ctx,
        u,
        at(src, node),
        `stack ${u.stack} has several accounts and the one at ${where(src, node)} is not held in a variable, so add the Alert with its account by hand`,
      );
    props.push(`account: ${variable}`);
  }
  const parentPath = account.path.split('/').slice(0, -1).join('/');
  const anchor = ctx.decls.lastAlertStatement(src, statement, u.stack);
  ctx.push({
    ...u.base,
    ...at(src, anchor),
    summary: `${u.head}; the edit declares it in ${u.stack} (account ${u.plan.account.label})`,
    edits: [
      newAlert(src, anchor, textOf(src, scopeArg), ctx.decls.freeId(u.live.name, parentPath), props),
      ...importEdits(src),
    ],
    src,
  });
}
