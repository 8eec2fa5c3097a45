import { recordSourceLocation } from '../contract/source-locations';
import { App, TerraformElement, TerraformStack } from '../cdk';
import type { IConstruct } from 'constructs';
import { writeProblemsFile, type ConstructProblem } from '../contract/problems';
import { problemData, problemLine, type Problem } from '../model/problems';
import { isObject } from '../support/json';
import { describeValue } from '../support/describe';
import { assignSynthPart } from './synth-part';
import { unknownKeyMessages } from '../support/unknown-keys';

const GUARD_ID = 'NetworkcalcValidateFirst';

/** Node count of each stack (and, under the app, of the part outside stacks) at its last clean validation. */
const validatedSize = new WeakMap<IConstruct, number>();

/** The structured checks of each construct (they also run as its plain `node.addValidation`). */
const checks = new WeakMap<IConstruct, Array<() => Problem[]>>();

/**
 * Adds a validation whose problems carry the prop, the value given and what is allowed.
 * cdktf's own validation (and `Testing`) sees the messages as usual. Problems that depend
 * only on what the construct was given are passed as found (in its constructor): a synth
 * validates twice (ours before anything is written, then cdktf's per stack), and nothing
 * the check would read has to stay in memory until then.
 */
export function addChecks(construct: IConstruct, check: (() => Problem[]) | readonly Problem[]): void {
  // Nothing found is nothing to keep: no closure, no validation for every later walk to call.
  if (typeof check !== 'function' && check.length === 0) return;
  const run = typeof check === 'function' ? check : () => [...check];
  checks.set(construct, [...(checks.get(construct) ?? []), run]);
  construct.node.addValidation({ validate: () => run().map((f) => f.message) });
}

/** A problem of a construct (its path is added when the app is validated). */
export const finding = (message: string, field: string | null = null, value?: unknown): Problem => ({
  field,
  message,
  value,
});

/**
 * What an app's `synth()` throws when constructs are not valid: every problem in the
 * message, one per line with its construct path, and no JavaScript stack (the stack of a
 * synth says nothing about the user's mistake). `problems` holds them as data.
 */
export class NetworkcalcValidationError extends Error {
  public readonly problems!: readonly ConstructProblem[];
  constructor(problems: readonly ConstructProblem[]) {
    super(
      `Validation failed with the following errors:\n  ${problems.map(problemLine).join('\n  ')}\n\n` +
        'Nothing was written. Fix the errors above and synthesize again.',
    );
    // Not enumerable, so that Node does not print them again after the message.
    Object.defineProperty(this, 'name', {
      value: 'NetworkcalcValidationError',
      enumerable: false,
      writable: true,
      configurable: true,
    });
    Object.defineProperty(this, 'problems', { value: problems, enumerable: false });
    Object.defineProperty(this, 'stack', {
      value: `${this.name}: ${this.message}`,
      enumerable: false,
      writable: true,
      configurable: true,
    });
  }
}

/**
 * Runs every validation of the whole app before the first stack is written, each stack's as
 * that stack is prepared (see validateOwnStack).
 *
 * cdktf validates one stack at a time, right before writing that stack's JSON, and runs
 * app-level validations only after all stacks were written: an invalid second stack leaves
 * the first one in cdktf.out, where `ncalc` or `cdktf deploy` could pick it up. Every stack
 * renders all of its elements in `prepareStack()` before any stack is written, so this
 * element, rendered there, fails the synth while nothing is on disk yet.
 */
class ValidateFirst extends TerraformElement {
  public override toTerraform(): Record<string, unknown> {
    validateOwnStack(this);
    return {};
  }

  public override toHclTerraform(): Record<string, unknown> {
    validateOwnStack(this);
    return {};
  }
}

/**
 * Every problem of the app (`constructs`: every construct of it, `root.node.findAll()`):
 * structured where a construct says more than a sentence.
 */
export function appProblems(
  root: IConstruct,
  constructs: readonly IConstruct[] = root.node.findAll(),
): ConstructProblem[] {
  const problems: ConstructProblem[] = [];
  for (const c of constructs) {
    const messages = c.node.validate();
    if (!messages.length) continue;
    const path = c.node.path;
    const found = (checks.get(c) ?? []).flatMap((check) => check());
    const known = new Set(found.map((f) => f.message));
    for (const f of found) problems.push(problemData({ ...f, path }));
    // Validations added by others (the app itself, cdktf) are sentences only.
    for (const message of messages) if (!known.has(message)) problems.push(problemData({ path, field: null, message }));
  }
  return problems;
}

/**
 * Validates the stack of a `ValidateFirst` guard, and once per app what lies outside stacks
 * (the app's own validations): each stack validates its own subtree, so a synth costs one walk
 * of the app, not one per stack. The guard renders in its stack's `prepareStack()` (after the
 * stack got its backend) and again when the stack is written; the second time the subtree
 * has the size it was validated at and is not validated again. A problem anywhere fails the
 * synth with every problem of the app, as found by walking all of it (the error path only).
 */
function validateOwnStack(guard: IConstruct): void {
  const root = guard.node.root;
  if (App.isApp(root) && root.skipValidation) return;
  const stack = guard.node.scope ?? root;
  if (!validatedSize.has(root)) {
    const outside = constructsOutsideStacks(root);
    if (appProblems(root, outside).length) failWith(appProblems(root));
    validatedSize.set(root, outside.length);
  }
  const own = stack.node.findAll();
  if (validatedSize.get(stack) === own.length) return;
  if (appProblems(stack, own).length) failWith(appProblems(root));
  validatedSize.set(stack, own.length);
}

/** The app and the constructs not in any stack (constructs of an unguarded stack included). */
function constructsOutsideStacks(root: IConstruct): IConstruct[] {
  const found: IConstruct[] = [];
  const visit = (c: IConstruct) => {
    if (c !== root && TerraformStack.isStack(c) && c.node.tryFindChild(GUARD_ID)) return;
    found.push(c);
    for (const child of c.node.children) visit(child);
  };
  visit(root);
  return found;
}

function failWith(problems: ConstructProblem[]): never {
  writeProblemsFile(problems);
  throw new NetworkcalcValidationError(problems); // NetworkCalc constructs are not valid: the problems are listed below; nothing was written.
}

/**
 * Makes sure the stack of `scope` validates the whole app before anything is written.
 * @internal
 */
export function ensureValidateFirst(scope: IConstruct): TerraformStack {
  // Every construct of ours passes here once, as it is made: the place to note where.
  recordSourceLocation(scope);
  const stack = TerraformStack.of(scope);
  if (!stack.node.tryFindChild(GUARD_ID)) {
    new ValidateFirst(stack, GUARD_ID);
    assignSynthPart(stack);
  }
  return stack;
}

/**
 * The props a construct was given, as an object: JavaScript callers (or a cast) can pass
 * `null` or a string, which must be a problem to report, not a TypeError.
 */
export function propsObject<T extends object>(props: unknown, what: string): { props: Partial<T>; problem?: Problem } {
  if (isObject(props)) return { props: props as Partial<T> };
  return {
    props: {},
    problem: finding(`props must be an object (${what}); got ${describeValue(props)}`, 'props', props ?? null),
  };
}

/**
 * Props a construct was given that its props interface does not have, one problem each naming
 * the prop meant. `keys`: every prop of the interface (the compiler holds the list to it).
 */
export function unknownProps<T>(props: object, keys: Record<keyof T, true>): Problem[] {
  return unknownKeyMessages(props, Object.keys(keys)).map((m) => finding(m, null));
}

/**
 * A value the L1 construct can render whatever a JavaScript caller gave: a string, number or
 * boolean (tokens included) as it is, anything else left out. What was wrong with it is
 * reported by validation, which must get to run: a `null` reaching the L1 fails the synth with
 * a TypeError first.
 */
export function renderable<T>(value: T): NonNullable<T> | undefined {
  return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean'
    ? (value as NonNullable<T>)
    : undefined;
}
