import { App, TerraformElement, TerraformStack } from '../cdk';
import type { IConstruct } from 'constructs';

const GUARD_ID = 'NetworkcalcValidateFirst';

/** Node count of each root at its last clean validation, so repeated renders stay cheap. */
const validatedSize = new WeakMap<IConstruct, number>();

/**
 * Runs every validation of the whole app before the first stack is written.
 *
 * cdktf validates one stack at a time, right before writing that stack's JSON, and runs
 * app-level validations only after all stacks were written: an invalid second stack leaves
 * the first one in cdktf.out, where `ncalc` or `cdktf deploy` could pick it up. Every stack
 * renders all of its elements in `prepareStack()` before any stack is written, so this
 * element, rendered there, fails the synth while nothing is on disk yet.
 */
class ValidateFirst extends TerraformElement {
  public override toTerraform(): Record<string, unknown> {
    validateWholeApp(this);
    return {};
  }

  public override toHclTerraform(): Record<string, unknown> {
    validateWholeApp(this);
    return {};
  }
}

function validateWholeApp(from: IConstruct): void {
  const root = from.node.root;
  if (App.isApp(root) && root.skipValidation) return;
  const all = root.node.findAll();
  if (validatedSize.get(root) === all.length) return;
  const errors: string[] = [];
  for (const c of all) for (const message of c.node.validate()) errors.push(`[${c.node.path}] ${message}`);
  if (errors.length) {
    throw new Error(
      `Validation failed with the following errors:\n  ${errors.join('\n  ')}\n\n` +
        'Nothing was written. Fix the errors above and synthesize again.',
    );
  }
  validatedSize.set(root, all.length);
}

/** Makes sure the stack of `scope` validates the whole app before anything is written. */
export function ensureValidateFirst(scope: IConstruct): TerraformStack {
  const stack = TerraformStack.of(scope);
  if (!stack.node.tryFindChild(GUARD_ID)) new ValidateFirst(stack, GUARD_ID);
  return stack;
}
