/**
 * The reverse of `alertBody`: an alert's wire settings as the `Alert` props that declare
 * them. `ncalc export` writes new declarations from it and `ncalc drift --suggest` edits
 * existing ones, so both write the props the same way. Free of cdktf.
 */
import type { AlertSpec } from '../model';
import { ALERT_TYPE_MODULES, type CheckProp as ModelCheckProp } from '../model/types';

/** The check prop of `AlertProps` that holds the alert's condition (one per type, src/model/types). */
export type CheckProp = ModelCheckProp;

export interface CheckProps {
  prop: CheckProp;
  /** In the order a declaration lists them. */
  fields: Record<string, string | number>;
}

export function checkPropsOf(a: Pick<AlertSpec, 'type' | 'subtype' | 'filter' | 'filter_value'>): CheckProps {
  const module = ALERT_TYPE_MODULES[a.type];
  return { prop: module.prop, fields: module.props(a) };
}

/** `AlertTarget.<factory>(<argument>)`: by name when the Domains API knows it, else by id. */
export interface TargetProps {
  factory: 'domain' | 'subdomain' | 'domainId' | 'subdomainId';
  argument: string | number;
}

export function targetPropsOf(kind: 'domain' | 'subdomain', name: string | null, id: number): TargetProps {
  return name !== null ? { factory: kind, argument: name } : { factory: `${kind}Id`, argument: id };
}

/** A string as TypeScript source, in the quotes given. */
export function tsString(value: string, quote: "'" | '"' = '"'): string {
  const json = JSON.stringify(value);
  if (quote === '"') return json;
  return `'${json.slice(1, -1).replace(/\\"/g, '"').replace(/'/g, "\\'")}'`;
}

export function tsValue(value: string | number, quote: "'" | '"' = '"'): string {
  return typeof value === 'number' ? String(value) : tsString(value, quote);
}

/** `dnsRecord: { record: "A", filter: "equals", value: "1.2.3.4" }` */
export function checkPropsSource(c: CheckProps, quote: "'" | '"' = '"'): string {
  const fields = Object.entries(c.fields).map(([k, v]) => `${k}: ${tsValue(v, quote)}`);
  return `${c.prop}: { ${fields.join(', ')} }`;
}

export function targetSource(t: TargetProps, quote: "'" | '"' = '"'): string {
  return `AlertTarget.${t.factory}(${tsValue(t.argument, quote)})`;
}
