import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CdkLibrary } from '../cdk-choice';
import { checkPropsOf, checkPropsSource, targetPropsOf, targetSource, tsString } from '../contract/alert-props';
import { parseAlert, type LiveAlert } from '../model';
import { claims } from '../accounts/account-rules';
import { ENV } from '../accounts/environment';
import { PROVIDER_SOURCE, PROVIDER_VERSION_CONSTRAINT } from '../schema/provider-schema';
import { indexDomains } from '../plan/targets';
import type { ApiDomain, Scope } from '../plan/types';
import { escapeTemplateText } from '../support/terraform-template';
import { escapeControls } from '../support/terminal-text';

/** The account settings written into exported code (max_retries / timeout_seconds when set). */
export type ExportAccount = Pick<
  Scope,
  'alias' | 'baseUrl' | 'tokenEnv' | 'clientIdEnv' | 'clientSecretEnv' | 'ownership' | 'prefix'
> &
  Partial<Pick<Scope, 'maxRetries' | 'timeoutSeconds'>>;

export interface ExportInput {
  account: ExportAccount;
  live: LiveAlert[];
  domains: ApiDomain[];
  stackName: string;
  importFrom: string;
  /** The CDK library the app is written for: its `App` and `TerraformStack` come from it. */
  cdkLibrary: CdkLibrary;
  /** Shown in the header comment. */
  label: string;
  /** The quotes of every string the code holds: the app's own (`exportQuote`), else single. */
  quote?: Quote;
  /**
   * Also declare the account's domains and subdomains (`Domain` / `Subdomain`,
   * networkcalc_domain / networkcalc_subdomain), the alerts targeting them by reference.
   */
  withTargets?: boolean;
}

/** A live domain or subdomain an export declares (`--with-targets`). */
export interface ExportedTarget {
  kind: 'domain' | 'subdomain';
  id: number;
  /** The domain name, or the subdomain's full name. */
  name: string;
  /** Construct id (PascalCase), unique among the export's constructs. */
  constructId: string;
  /** A subdomain's domain and prefix. */
  parent?: { id: number; prefix: string };
}

interface ExportedAlert {
  alert: LiveAlert;
  id: string;
  target: { kind: 'domain' | 'subdomain'; name: string | null; id: number };
}

export interface ExportSelection {
  alerts: ExportedAlert[];
  /** The declared domains and subdomains, domains first (empty without `withTargets`). */
  targets: ExportedTarget[];
  /** Live alerts not exported, with the reason (shown as comments). */
  skipped: string[];
}

/** PascalCase construct id from an alert name; unique within the export. */
export function constructId(name: string, used: Set<string>): string {
  const words = name.split(/[^A-Za-z0-9]+/).filter(Boolean);
  let base = words.map((w) => w[0].toUpperCase() + w.slice(1)).join('') || 'Alert';
  if (/^[0-9]/.test(base)) base = `Alert${base}`;
  let id = base;
  for (let n = 2; used.has(id); n++) id = `${base}${n}`;
  used.add(id);
  return id;
}

/**
 * Which live alerts an export declares: those in the account's scope, one per name (the
 * lowest id, as `ncalc` manages it), valid per the model. Targets are named when the
 * Domains API knows them.
 */
export function selectForExport(
  input: Pick<ExportInput, 'account' | 'live' | 'domains' | 'withTargets'>,
): ExportSelection {
  const index = indexDomains(input.domains);
  const scope = input.account;
  const used = new Set<string>();
  const seen = new Set<string>();
  const alerts: ExportedAlert[] = [];
  const skipped: string[] = [];
  for (const alert of [...input.live].sort((a, b) => a.id - b.id)) {
    // additive claims only declared names; an export declares them all.
    if (scope.ownership === 'prefix' && !claims(scope, alert.name)) continue;
    if (seen.has(alert.name)) {
      skipped.push(
        `alert ${alert.id} ${JSON.stringify(alert.name)}: a second alert of this name (the lowest id is exported; exclusive and prefix scopes delete the others on apply)`,
      );
      continue;
    }
    const parsed = parseAlert(alert as unknown as Record<string, unknown>);
    if (!parsed.ok) {
      skipped.push(
        `alert ${alert.id} ${JSON.stringify(alert.name)}: ${parsed.problems.map((p) => p.message).join('; ')}`,
      );
      continue;
    }
    seen.add(alert.name);
    const kind = parsed.alert.target_type;
    const name = index.names.get(`${kind}:${parsed.alert.target_id}`) ?? null;
    alerts.push({
      alert: { ...alert, ...parsed.alert },
      id: constructId(alert.name, used),
      target: { kind, name, id: parsed.alert.target_id },
    });
  }
  // After the alerts, so their construct ids are the same with or without the targets.
  const targets: ExportedTarget[] = [];
  if (input.withTargets) {
    const domains = [...input.domains].sort((a, b) => a.id - b.id);
    for (const d of domains)
      targets.push({ kind: 'domain', id: d.id, name: d.domain, constructId: constructId(d.domain, used) });
    for (const d of domains)
      for (const s of [...d.subdomains].sort((a, b) => a.id - b.id))
        targets.push({
          kind: 'subdomain',
          id: s.id,
          name: s.subdomain,
          constructId: constructId(s.subdomain, used),
          parent: { id: d.id, prefix: s.prefix },
        });
  }
  return { alerts, skipped, targets };
}

/** `kind:id` → the declared target, to point alerts at it. */
function targetsByKey(targets: readonly ExportedTarget[]): Map<string, ExportedTarget> {
  return new Map(targets.map((t) => [`${t.kind}:${t.id}`, t]));
}

/** The TypeScript variable holding a declared target: its construct id in camelCase. */
const tsVariable = (t: ExportedTarget) => t.constructId[0].toLowerCase() + t.constructId.slice(1);

type Quote = "'" | '"';

/**
 * The quotes the app's own formatter settings ask for: Prettier's `singleQuote` (its
 * configuration files or the `prettier` key of package.json; Prettier's default is double),
 * else `.editorconfig`'s `quote_type`; null when the directory says nothing.
 */
export function exportQuote(dir: string): Quote | null {
  const read = (name: string) => {
    try {
      return readFileSync(join(dir, name), 'utf8');
    } catch {
      return null;
    }
  };
  const pkg = read('package.json');
  let fromPackage: unknown;
  try {
    fromPackage = pkg === null ? undefined : (JSON.parse(pkg) as { prettier?: unknown }).prettier;
  } catch {
    fromPackage = undefined;
  }
  const prettier =
    PRETTIER_FILES.map(read).find((t) => t !== null) ??
    (fromPackage !== undefined ? JSON.stringify(fromPackage) : null);
  if (prettier !== null) return /["']?singleQuote["']?\s*[:=]\s*true\b/.test(prettier) ? "'" : '"';
  const quoteType = /^\s*quote_type\s*=\s*(single|double)\s*$/im.exec(read('.editorconfig') ?? '')?.[1];
  return quoteType ? (quoteType.toLowerCase() === 'single' ? "'" : '"') : null;
}

const PRETTIER_FILES = [
  '.prettierrc',
  '.prettierrc.json',
  '.prettierrc.json5',
  '.prettierrc.yaml',
  '.prettierrc.yml',
  '.prettierrc.toml',
];

/** True when the account reads exactly the NETWORKCALC_* credential variables. */
function readsDefaults(a: ExportAccount): boolean {
  return a.tokenEnv === ENV.token && a.clientIdEnv === ENV.clientId && a.clientSecretEnv === ENV.clientSecret;
}

function accountProps(a: ExportAccount, q: (text: string) => string): string {
  const props: string[] = [];
  if (a.alias) props.push(`alias: ${q(a.alias)}`);
  if (a.baseUrl) props.push(`baseUrl: ${q(a.baseUrl)}`);
  // Nothing for the defaults; otherwise every variable the account names, since naming one
  // drops the defaults of the others.
  if (!readsDefaults(a)) {
    if (a.tokenEnv !== null) props.push(`tokenEnv: ${q(a.tokenEnv)}`);
    if (a.clientIdEnv !== null) props.push(`clientIdEnv: ${q(a.clientIdEnv)}`);
    if (a.clientSecretEnv !== null) props.push(`clientSecretEnv: ${q(a.clientSecretEnv)}`);
  }
  if (a.maxRetries != null) props.push(`maxRetries: ${a.maxRetries}`);
  if (a.timeoutSeconds != null) props.push(`timeoutSeconds: ${a.timeoutSeconds}`);
  const own = a.ownership === 'prefix' ? `Ownership.prefix(${q(a.prefix ?? '')})` : `Ownership.${a.ownership}()`;
  props.push(`ownership: ${own}`);
  return `{\n      ${props.join(',\n      ')},\n    }`;
}

function className(stackName: string): string {
  const words = stackName.split(/[^A-Za-z0-9]+/).filter(Boolean);
  const base = words.map((w) => w[0].toUpperCase() + w.slice(1)).join('') || 'Exported';
  return `${/^[0-9]/.test(base) ? 'Stack' : ''}${base}Stack`;
}

/** A runnable CDK Terrain or cdktf app (TypeScript) declaring the selected alerts. */
export function exportTypeScript(input: ExportInput, selection: ExportSelection = selectForExport(input)): string {
  const { alerts, skipped, targets } = selection;
  const declared = targetsByKey(targets);
  const quote = input.quote ?? "'";
  const q = (text: string) => tsString(text, quote);
  const cls = className(input.stackName);
  const lines: string[] = [
    '/**',
    ` * Alerts of the NetworkCalc account ${input.label}, written by \`ncalc export\`.`,
    ' * `ncalc plan` against the same account shows no changes; edit from here on.',
    ' */',
    `import { App, TerraformStack } from ${q(input.cdkLibrary)};`,
    `import { Construct } from ${q('constructs')};`,
    `import { ${constructImports(selection).join(', ')} } from ${q(input.importFrom)};`,
    '',
    `export class ${cls} extends TerraformStack {`,
    '  constructor(scope: Construct, id: string) {',
    '    super(scope, id);',
    `    new NetworkcalcAccount(this, ${q('Account')}, ${accountProps(input.account, q)});`,
  ];
  // A line break in a name (U+2028 too) would end the comment and run the rest as code.
  for (const s of skipped) lines.push(`    // not exported: ${escapeControls(s).replace(/\*\//g, '* /')}`);
  for (const t of targets) {
    const parent = t.parent && declared.get(`domain:${t.parent.id}`)!;
    const props = parent
      ? `{ domain: ${tsVariable(parent)}, prefix: ${q(t.parent!.prefix)} }`
      : `{ name: ${q(t.name)} }`;
    lines.push(
      '',
      `    // id ${t.id}`,
      `    const ${tsVariable(t)} = new ${parent ? 'Subdomain' : 'Domain'}(this, ${q(t.constructId)}, ${props});`,
    );
  }
  for (const e of alerts) {
    const own = declared.get(`${e.target.kind}:${e.target.id}`);
    lines.push(
      '',
      `    // id ${e.alert.id}`,
      `    new Alert(this, ${q(e.id)}, {`,
      `      name: ${q(e.alert.name)},`,
      `      target: ${own ? tsVariable(own) : targetSource(targetPropsOf(e.target.kind, e.target.name, e.target.id), quote)},`,
      `      ${checkPropsSource(checkPropsOf(e.alert), quote)},`,
      '    });',
    );
  }
  lines.push('  }', '}', '', 'const app = new App();', `new ${cls}(app, ${q(input.stackName)});`, 'app.synth();', '');
  return lines.join('\n');
}

/** The constructs the TypeScript uses: AlertTarget only when some alert still needs it. */
function constructImports({ alerts, targets }: ExportSelection): string[] {
  if (!targets.length) return ['Alert', 'AlertTarget', 'NetworkcalcAccount', 'Ownership'];
  const declared = targetsByKey(targets);
  const names = ['Alert'];
  if (alerts.some((e) => !declared.has(`${e.target.kind}:${e.target.id}`))) names.push('AlertTarget');
  names.push('Domain', 'NetworkcalcAccount', 'Ownership');
  if (targets.some((t) => t.kind === 'subdomain')) names.push('Subdomain');
  return names;
}

/** Text as a quoted HCL string: JSON's escapes, and `${` / `%{` made literal. */
export const hclString = (s: string) => JSON.stringify(escapeTemplateText(s));

/** A Terraform resource name from a name (lower case, underscores); unique within `used`. */
export function hclName(s: string, used: Set<string>): string {
  let base =
    s
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '_')
      .replace(/^_+|_+$/g, '') || 'alert';
  if (/^[0-9]/.test(base)) base = `a_${base}`;
  let name = base;
  for (let n = 2; used.has(name); n++) name = `${base}_${n}`;
  used.add(name);
  return name;
}

/**
 * The same alerts as Terraform HCL, with `import` blocks (Terraform 1.5+) so that
 * `terraform apply` adopts the live alerts instead of creating copies.
 */
export function exportHcl(input: ExportInput, selection: ExportSelection = selectForExport(input)): string {
  const { alerts, skipped, targets } = selection;
  const a = input.account;
  const provider: Attr[] = a.alias ? [['provider', `networkcalc.${a.alias}`]] : [];
  const out: string[] = [
    `# Alerts of the NetworkCalc account ${input.label}, written by \`ncalc export --hcl\`.`,
    '',
    'terraform {',
    '  required_providers {',
    `    networkcalc = { source = ${hclString(PROVIDER_SOURCE)}, version = ${hclString(PROVIDER_VERSION_CONSTRAINT)} }`,
    '  }',
    '}',
    '',
    ...hclBlock('provider "networkcalc"', [
      ...(a.alias ? [['alias', hclString(a.alias)] as Attr] : []),
      ...(a.baseUrl ? [['base_url', hclString(a.baseUrl)] as Attr] : []),
      ...(a.tokenEnv !== null ? [['token_env', hclString(a.tokenEnv)] as Attr] : []),
      ...(a.clientIdEnv !== null ? [['client_id_env', hclString(a.clientIdEnv)] as Attr] : []),
      ...(a.clientSecretEnv !== null ? [['client_secret_env', hclString(a.clientSecretEnv)] as Attr] : []),
      ...(a.maxRetries != null ? [['max_retries', String(a.maxRetries)] as Attr] : []),
      ...(a.timeoutSeconds != null ? [['timeout_seconds', String(a.timeoutSeconds)] as Attr] : []),
    ]),
  ];
  for (const s of skipped) out.push(`# not exported: ${escapeControls(s)}`);
  const usedData = new Map<string, string>();
  const dataNames = new Set<string>();
  const dataRef = (t: ExportedAlert['target']): string => {
    const key = `${t.kind}:${t.name}`;
    let name = usedData.get(key);
    if (!name) {
      name = hclName(t.name!, dataNames);
      usedData.set(key, name);
      out.push('', ...hclBlock(`data "networkcalc_${t.kind}" "${name}"`, [['name', hclString(t.name!)], ...provider]));
    }
    return `data.networkcalc_${t.kind}.${name}.id`;
  };
  const providerRef = a.alias ? `networkcalc.${a.alias}` : null;
  // Declared targets, adopted by import blocks (their ids) rather than created again.
  const targetNames = new Map<string, string>();
  const targetRef = (kind: string, id: number) => {
    const name = targetNames.get(`${kind}:${id}`);
    return name === undefined ? undefined : `networkcalc_${kind}.${name}.id`;
  };
  const usedTargets = new Set<string>();
  for (const t of targets) {
    const name = hclName(t.name, usedTargets);
    targetNames.set(`${t.kind}:${t.id}`, name);
    const attrs: Attr[] = t.parent
      ? [
          ['domain_id', targetRef('domain', t.parent.id)!],
          ['prefix', hclString(t.parent.prefix)],
        ]
      : [['name', hclString(t.name)]];
    out.push('', ...importBlock(`networkcalc_${t.kind}.${name}`, t.id, providerRef));
    out.push('', ...hclBlock(`resource "networkcalc_${t.kind}" "${name}"`, [...provider, ...attrs]));
  }
  const used = new Set<string>();
  for (const e of alerts) {
    const target = targetRef(e.target.kind, e.target.id) ?? (e.target.name ? dataRef(e.target) : String(e.target.id));
    const name = hclName(e.alert.name, used);
    out.push('', ...importBlock(`networkcalc_alert.${name}`, e.alert.id, providerRef));
    out.push(
      '',
      ...hclBlock(`resource "networkcalc_alert" "${name}"`, [
        ...provider,
        ['name', hclString(e.alert.name)],
        ['type', hclString(e.alert.type)],
        ...(e.alert.subtype !== null ? [['subtype', hclString(e.alert.subtype)] as Attr] : []),
        ['filter', hclString(e.alert.filter)],
        ...(e.alert.filter_value !== '' ? [['filter_value', hclString(e.alert.filter_value)] as Attr] : []),
        ['target_type', hclString(e.alert.target_type)],
        ['target_id', target],
      ]),
    );
  }
  return out.join('\n') + '\n';
}

type Attr = [name: string, value: string];

/**
 * An `import` block (Terraform 1.5+) bringing the alert (or domain, subdomain) of this id to this address: the id as
 * the provider's import takes it (its digits, as a string), and the provider configuration
 * (`networkcalc.<alias>`) when the resource names one.
 */
export function importBlock(to: string, id: number, provider: string | null): string[] {
  return hclBlock('import', [['to', to], ['id', `"${id}"`], ...(provider ? [['provider', provider] as Attr] : [])]);
}

/** A block with its `=` aligned the way `terraform fmt` aligns them, so the file is fmt-clean. */
function hclBlock(header: string, attrs: Attr[]): string[] {
  const width = Math.max(...attrs.map(([k]) => k.length));
  return [`${header} {`, ...attrs.map(([k, v]) => `  ${k.padEnd(width)} = ${v}`), '}'];
}
