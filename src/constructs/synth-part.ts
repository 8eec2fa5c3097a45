/**
 * The constructs' side of one synth spread over worker processes (contract/synth-parts.ts):
 * in a run given a part, a stack holding NetworkCalc constructs is prepared, validated and
 * written only by the part it falls in; the stacks are dealt out in the order the app makes
 * them, the same in every run of one app. Stacks without NetworkCalc constructs are written by
 * every part (the same bytes each time). A stack that depends on a stack another part writes
 * (a cross-stack reference adds an output to the other stack) fails the run: `ncalc` then
 * synthesizes in one process.
 */
import type { IConstruct } from 'constructs';
import { TerraformStack } from '../cdk';
import { synthPartOf, synthPartText, type SynthPart } from '../contract/synth-parts';

/** Stacks with NetworkCalc constructs met so far, per app. */
const dealt = new WeakMap<IConstruct, number>();
/** The stacks another part writes. */
const elsewhere = new WeakSet<IConstruct>();
/** Apps whose stacks' dependencies were checked. */
const checked = new WeakSet<IConstruct>();

/**
 * Called once per stack, when its first NetworkCalc construct is made: in a part's run, a
 * stack of another part is neither prepared nor written.
 */
export function assignSynthPart(stack: TerraformStack, env: NodeJS.ProcessEnv = process.env): void {
  const part = synthPartOf(env);
  if (!part) return;
  const root = stack.node.root;
  const ordinal = dealt.get(root) ?? 0;
  dealt.set(root, ordinal + 1);
  if ((ordinal % part.count) + 1 !== part.index) {
    elsewhere.add(stack);
    // Instance fields, so cdktf's App.synth() skips this stack's work and writes nothing of it.
    Object.assign(stack, { prepareStack: () => {}, synthesizer: { synthesize: () => {} } });
    return;
  }
  const own = stack.synthesizer;
  stack.synthesizer = {
    synthesize: (session) => {
      // After every stack was prepared: cross-stack references are known by now.
      checkDependencies(root, part);
      own.synthesize(session);
    },
  };
}

function checkDependencies(root: IConstruct, part: SynthPart): void {
  if (checked.has(root)) return;
  checked.add(root);
  for (const stack of root.node.findAll().filter((c) => TerraformStack.isStack(c))) {
    if (elsewhere.has(stack)) continue;
    const other = stack.dependencies.find((d) => elsewhere.has(d));
    if (other)
      throw new Error(
        `stack ${stack.node.id} depends on stack ${other.node.id}, which part ${synthPartText(part)} does not write; synthesize in one process`,
      );
  }
}
