/**
 * How an `Alert` reaches cdk.tf.json without an L1 of its own until one is asked for.
 *
 * An L1 per alert (a TerraformResource child) made the constructs cost 1.1–1.4x what cdktf
 * alone costs for the same JSON: one more construct per alert for every walk of the tree, and
 * cdktf's generic resource rendering, three times per synth. So the alerts of a stack are
 * written by one element, `AlertBlocks`, in the form their L1 would write them (same logical
 * id, attributes, `provider` and `//` metadata), and an alert gets its L1, child `Resource`,
 * when something reaches for it: `node.defaultChild`, `node.findChild('Resource')` /
 * `tryFindChild`, an attribute (`alertId`, ...) or an Aspect that applies to the alert. From
 * then on its L1 writes it and the shared element leaves it out. Apps that write HCL, and
 * stacks that allocate logical ids their own way, give every alert its L1 at once.
 */
import { App, Aspects, TerraformElement, TerraformStack, numberToTerraform, stringToTerraform } from '../cdk';
import type { IAspect } from '../cdk';
import type { IConstruct, Node } from 'constructs';
import { Alert as AlertResource, type AlertConfig } from '../gen/providers/networkcalc/alert';

/** The id of an alert's L1 (its `node.defaultChild`); part of every alert's logical id. */
const L1_ID = 'Resource';
const BLOCKS_ID = 'NetworkcalcAlerts';

/**
 * On the construct node of an alert without an L1 yet: its DeferredAlertResource (for
 * `tryFindChild` and the aspect). A property of the node, not a WeakMap entry per alert,
 * which the garbage collector would have to trace as such.
 */
const DEFERRED = Symbol('networkcalc.deferredAlertResource');
type DeferredNode = Node & { [DEFERRED]?: DeferredAlertResource };
const deferredOf = (node: Node) => (node as DeferredNode)[DEFERRED];
/** The shared element of each stack; `null` for stacks that allocate logical ids their own way. */
const blocksByStack = new WeakMap<TerraformStack, AlertBlocks | null>();

/**
 * `node.tryFindChild` of a deferred alert: `Resource` makes the L1 first. Node's own
 * `defaultChild` and `findChild` go through `tryFindChild`, so they are covered too.
 */
function tryFindChild(this: Node, id: string): IConstruct | undefined {
  if (id === L1_ID) deferredOf(this)?.get();
  return (Object.getPrototypeOf(this) as Node).tryFindChild.call(this, id);
}

/** An alert's L1, made when first asked for; until then the stack's `AlertBlocks` writes the alert. */
export class DeferredAlertResource {
  private resource?: AlertResource;
  private cached?: readonly [string, Record<string, unknown>];

  /** `stack`: the stack of `alert`, when the caller has it already. */
  constructor(
    private readonly alert: IConstruct,
    private readonly config: AlertConfig,
    stack: TerraformStack = TerraformStack.of(alert),
  ) {
    const blocks = AlertBlocks.of(alert, stack);
    if (!blocks) {
      this.get();
      return;
    }
    blocks.pending.add(this);
    const node = alert.node as DeferredNode;
    node[DEFERRED] = this;
    node.tryFindChild = tryFindChild;
  }

  /** The L1, made now if it was not yet. */
  public get(): AlertResource {
    if (!this.resource) {
      (this.alert.node as DeferredNode)[DEFERRED] = undefined;
      AlertBlocks.of(this.alert)?.pending.delete(this);
      this.resource = new AlertResource(this.alert, L1_ID, this.config);
    }
    return this.resource;
  }

  /** The alert's logical id in `stack`, whether its L1 or the stack's shared element writes it. */
  public logicalId(stack: TerraformStack): string {
    return this.resource ? stack.getLogicalId(this.resource) : this.written(stack)[0];
  }

  /**
   * The logical id cdktf gives the L1 (path `<alert>/Resource`) in `stack`, and what the L1
   * would write under it as `resource.networkcalc_alert.<id>` (it has no meta-arguments but
   * `provider`). Made once: neither can change, and cdktf's resolve copies what it is given.
   */
  public written(stack: TerraformStack): readonly [string, Record<string, unknown>] {
    if (!this.cached) {
      // The stack's default allocation reads only `scopes` (checked in AlertBlocks.of).
      const scopes = [...this.alert.node.scopes, { node: { id: L1_ID } }];
      const uniqueId = stack.getLogicalId({ scopes } as unknown as Node);
      const c = this.config;
      const block: Record<string, unknown> = {};
      // cdktf's resolve drops undefined values, after a context for each: leave them out.
      const put = (key: string, value: unknown) => {
        if (value !== undefined) block[key] = value;
      };
      put('name', stringToTerraform(c.name));
      put('type', stringToTerraform(c.type));
      put('subtype', stringToTerraform(c.subtype));
      put('filter', stringToTerraform(c.filter));
      put('filter_value', stringToTerraform(c.filterValue));
      put('target_type', stringToTerraform(c.targetType));
      put('target_id', numberToTerraform(c.targetId));
      put('provider', c.provider?.fqn);
      block['//'] = { metadata: { path: `${this.alert.node.path}/${L1_ID}`, uniqueId } };
      this.cached = [uniqueId, block];
    }
    return this.cached;
  }
}

/**
 * Gives an alert its L1 before an Aspect of the user's reaches it, so that Aspects see the
 * same resources as when every alert had one. cdktf visits an alert's children after
 * applying every aspect to the alert itself, so the new L1 is visited too.
 */
class MakeL1ForOtherAspects implements IAspect {
  /** Whether an aspect other than ours applies to a scope, for the current invocation. */
  private readonly others = new Map<IConstruct, boolean>();

  constructor(private readonly stack: TerraformStack) {}

  public visit(node: IConstruct): void {
    if (node === this.stack) {
      this.others.clear(); // each invocation starts at the stack: aspects may have been added since
      return;
    }
    const deferred = deferredOf(node.node);
    if (deferred && (this.hasOthers(node) || this.inherited(node.node.scope))) deferred.get();
  }

  private hasOthers(c: IConstruct): boolean {
    // Another stack's instance (a stack nested in a stack) is not an Aspect of the app's.
    return Aspects.of(c).all.some((a) => !(a instanceof MakeL1ForOtherAspects));
  }

  private inherited(scope: IConstruct | undefined): boolean {
    if (!scope) return false;
    let answer = this.others.get(scope);
    if (answer === undefined) {
      answer = this.hasOthers(scope) || this.inherited(scope.node.scope);
      this.others.set(scope, answer);
    }
    return answer;
  }
}

/** Writes the alerts of one stack that have no L1. */
class AlertBlocks extends TerraformElement {
  /** The stack's element, made with the first alert; undefined when alerts must have their L1 from the start. */
  public static of(scope: IConstruct, stack: TerraformStack = TerraformStack.of(scope)): AlertBlocks | undefined {
    let blocks = blocksByStack.get(stack);
    if (blocks === undefined) {
      // A stack that allocates logical ids its own way may read more of an element than its
      // path; HCL is rendered one resource per element. Both get an L1 per alert, as before.
      const own = stack as unknown as Record<string, unknown>;
      const base = TerraformStack.prototype as unknown as Record<string, unknown>;
      const defaultIds = own.allocateLogicalId === base.allocateLogicalId && own.getLogicalId === base.getLogicalId;
      // The same test as cdktf's: its stacks read the variable, its App also the option.
      const root = stack.node.root;
      const env = process.env.SYNTH_HCL_OUTPUT;
      const hcl = env === 'true' || env === '1' || (App.isApp(root) && root.hclOutput);
      blocks = defaultIds && !hcl ? new AlertBlocks(stack, BLOCKS_ID) : null;
      if (blocks) Aspects.of(stack).add(new MakeL1ForOtherAspects(stack));
      blocksByStack.set(stack, blocks);
    }
    return blocks ?? undefined;
  }

  /** Alerts without an L1, in the order they were declared. */
  public readonly pending = new Set<DeferredAlertResource>();

  public override toTerraform(): Record<string, unknown> {
    if (this.pending.size === 0) return {};
    const stack = this.cdktfStack;
    const alerts: Record<string, unknown> = {};
    for (const deferred of this.pending) {
      const [id, block] = deferred.written(stack);
      alerts[id] = block;
    }
    return { resource: { networkcalc_alert: alerts } };
  }

  /**
   * cdktf renders HCL one resource per element, so HCL needs the L1s: apps that write HCL
   * (SYNTH_HCL_OUTPUT, `hclOutput`) make them at once. `Testing.synthHcl` of a JSON app gets
   * them here, and an error if more than one was missing (which one element cannot render).
   */
  public override toHclTerraform(): Record<string, unknown> {
    const pending = [...this.pending];
    if (pending.length === 0) return {};
    const rendered = pending.map((deferred) => deferred.get().toHclTerraform() as Record<string, unknown>);
    if (rendered.length === 1) return rendered[0]!;
    const error = new Error(
      `${pending.length} NetworkCalc alerts of stack ${this.cdktfStack.node.path} have no L1 to render as HCL. ` +
        'Synthesize HCL with SYNTH_HCL_OUTPUT=true set before the stacks are created, ' +
        'or read node.defaultChild of every alert before Testing.synthHcl.',
    );
    error.stack = error.message; // where in cdktf it was thrown says nothing about the fix
    throw error;
  }
}
