/**
 * The drift Terraform found, read from the JSON of a refresh-only plan (`terraform show -json
 * <plan file>` of `terraform plan -refresh-only`): the `resource_drift` of `networkcalc_alert`
 * resources (updated or deleted outside Terraform) and, from the configuration, each
 * resource's provider and whether it is repeated by `count` or `for_each`. Anything that is
 * not such a plan is a `PlanShapeError` saying what to run instead.
 */
import { isObject } from '../support/json';

/** The resource type whose drift is read. */
export const RESOURCE_TYPE = 'networkcalc_alert';
const SHOW_COMMANDS =
  'terraform plan -refresh-only -out=drift.tfplan, then terraform show -json drift.tfplan > drift.json';

export type Values = Record<string, unknown>;

export interface DriftEntry {
  address: string;
  /** `module.a` (or `module.a.module.b`) for a resource in a module. */
  moduleAddress: string | undefined;
  name: string;
  /** The count index or for_each key of an instance. */
  index: string | number | undefined;
  action: 'update' | 'delete';
  before: Values;
  after: Values | null;
}

export interface ConfigResource {
  providerConfigKey: string | undefined;
  repetition: 'count' | 'for_each' | undefined;
}

export interface ReadPlan {
  drift: DriftEntry[];
  /** By `module.a.` prefix plus resource address. */
  config: Map<string, ConfigResource>;
}

/** A plan JSON that cannot be used; the message says why and what to give instead. */
export class PlanShapeError extends Error {}

function shapeError(what: string): never {
  throw new PlanShapeError(`not the JSON of a refresh-only terraform plan: ${what}; make it with ${SHOW_COMMANDS}`);
}

function readConfigModule(module: unknown, prefix: string, where: string, out: Map<string, ConfigResource>): void {
  if (module === undefined) return;
  if (!isObject(module)) shapeError(`${where} is not an object`);
  const resources = module.resources ?? [];
  if (!Array.isArray(resources)) shapeError(`${where}.resources is not a list`);
  resources.forEach((r: unknown, i) => {
    if (!isObject(r) || typeof r.address !== 'string') shapeError(`${where}.resources[${i}] has no address`);
    out.set(prefix + r.address, {
      providerConfigKey: typeof r.provider_config_key === 'string' ? r.provider_config_key : undefined,
      repetition: 'count_expression' in r ? 'count' : 'for_each_expression' in r ? 'for_each' : undefined,
    });
  });
  const calls = module.module_calls ?? {};
  if (!isObject(calls)) shapeError(`${where}.module_calls is not an object`);
  for (const [name, call] of Object.entries(calls)) {
    if (!isObject(call)) shapeError(`${where}.module_calls.${name} is not an object`);
    readConfigModule(call.module, `${prefix}module.${name}.`, `${where}.module_calls.${name}.module`, out);
  }
}

/** The plan's own checks: a JSON plan of terraform 1.x, made with -refresh-only, that did not fail. */
function checkRefreshOnly(plan: unknown): Record<string, unknown> & { configuration: { root_module: unknown } } {
  if (!isObject(plan))
    shapeError(`expected a JSON object, found ${Array.isArray(plan) ? 'a list' : JSON.stringify(plan)}`);
  if (typeof plan.format_version !== 'string') shapeError('it has no format_version');
  if (!plan.format_version.startsWith('1.'))
    shapeError(`format_version ${plan.format_version} is not supported (1.x is, from terraform 1.x)`);
  if (!('planned_values' in plan) && !('configuration' in plan) && 'values' in plan)
    shapeError('it is the JSON of a state (terraform show -json without a plan file), not of a plan');
  if (!isObject(plan.configuration) || !isObject(plan.configuration.root_module))
    shapeError('it has no configuration.root_module');
  if (plan.errored === true) shapeError('the plan failed (errored is true): fix the errors terraform printed');
  const changes = plan.resource_changes ?? [];
  if (!Array.isArray(changes)) shapeError('resource_changes is not a list');
  const acting = changes.filter(
    (c: unknown) =>
      !isObject(c) ||
      !isObject(c.change) ||
      !Array.isArray(c.change.actions) ||
      c.change.actions.some((a) => a !== 'no-op' && a !== 'read'),
  );
  if (acting.length)
    shapeError(
      `it plans changes (${acting
        .slice(0, 3)
        .map((c: unknown) => (isObject(c) && typeof c.address === 'string' ? c.address : '?'))
        .join(', ')}${acting.length > 3 ? ', …' : ''}), so it is a normal plan; drift is read from a refresh-only one`,
    );
  return plan as Record<string, unknown> & { configuration: { root_module: unknown } };
}

/** One entry of `resource_drift`: a managed `networkcalc_alert` updated or deleted, or null for another resource. */
function readDriftEntry(d: unknown, i: number): DriftEntry | null {
  const at = `resource_drift[${i}]`;
  if (!isObject(d)) shapeError(`${at} is not an object`);
  if (typeof d.address !== 'string' || typeof d.type !== 'string' || typeof d.name !== 'string')
    shapeError(`${at} has no address, type or name`);
  if (d.type !== RESOURCE_TYPE || d.mode !== 'managed') return null;
  const change = d.change;
  if (!isObject(change) || !Array.isArray(change.actions)) shapeError(`${at}.change.actions is not a list`);
  const actions = change.actions.join(',');
  if (actions !== 'update' && actions !== 'delete')
    shapeError(`${at} (${d.address}) has the actions [${actions}], where a refresh shows update or delete`);
  if (!isObject(change.before)) shapeError(`${at}.change.before is not an object`);
  if (actions === 'update' ? !isObject(change.after) : change.after !== null)
    shapeError(`${at}.change.after is not ${actions === 'update' ? 'an object' : 'null'}`);
  return {
    address: d.address,
    moduleAddress: typeof d.module_address === 'string' ? d.module_address : undefined,
    name: d.name,
    index: typeof d.index === 'string' || typeof d.index === 'number' ? d.index : undefined,
    action: actions,
    before: change.before,
    after: (change.after as Values | null) ?? null,
  };
}

/**
 * The drift of `networkcalc_alert` resources in `plan` (the parsed output of `terraform show
 * -json` of a refresh-only plan) and the configuration of every resource; a `PlanShapeError`
 * when it is not such a plan.
 */
export function readTerraformPlan(plan: unknown): ReadPlan {
  const checked = checkRefreshOnly(plan);
  const config = new Map<string, ConfigResource>();
  readConfigModule(checked.configuration.root_module, '', 'configuration.root_module', config);
  const rawDrift = checked.resource_drift ?? [];
  if (!Array.isArray(rawDrift)) shapeError('resource_drift is not a list');
  const drift = rawDrift.map(readDriftEntry).filter((d): d is DriftEntry => d !== null);
  return { drift, config };
}
