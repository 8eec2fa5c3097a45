/**
 * `ncalc import-blocks`: Terraform `import {}` blocks for the live alerts the app declares that
 * no local Terraform state holds: what a runner without the old state and `.terraform` needs so
 * that `terraform plan` imports the alerts instead of creating copies (which the provider
 * refuses, one "Alert already exists" per alert).
 *
 * Not a flag of `export`: export writes a new app from an account's live alerts; this reads the
 * app as it is (its stacks, resource addresses and provider aliases) and its states, and
 * writes only the blocks, where terraform reads them.
 */
import { mkdirSync } from 'node:fs';
import * as path from 'node:path';
import type { Command } from 'commander';
import { importBlock } from '../codegen/export';
import { heldByAccount, heldByStack } from '../plan/terraform-held';
import { outDirOf } from '../read/synth';
import type { AccountPlan } from '../plan/account-plan';
import { indexDomains } from '../plan/targets';
import { fullNameOrNull } from '../plan/target-changes';
import { errorText } from '../plan/error-info';
import { writeFileAtomicSync } from '../support/atomic-write';
import { fileErrorText, outputFileProblem } from './files';
import type { CliIO } from './io';
import { ConfigError } from '../contract/config-error';
import { FORMAT_VERSION, errorJson } from '../render/json';
import {
  EXIT,
  clientFactory,
  load,
  planAccounts,
  problemsOf,
  reportError,
  writeJson,
  type CommonOptions,
  isExpectedError,
} from './pipeline';
import {
  appOption,
  baseUrlOption,
  chdirOption,
  noSynthOption,
  stackOption,
  synthOutOption,
  synthTimeoutOption,
  synthWorkersOption,
  verboseOption,
  withOptions,
  terraformConfigOption,
} from './options';
import { defineAction } from './contract';
import { UsageError } from './usage';

/** The file written into each stack's working directory when --out is not given. */
export const IMPORT_FILE = 'networkcalc-imports.tf';

interface ImportBlocksFlags extends Omit<CommonOptions, 'out'> {
  /** Where to write the blocks: a file, or `-` for stdout. Default: IMPORT_FILE in each stack's directory. */
  out?: string;
  cdktfOut?: string;
  json?: boolean;
}

interface Block {
  stack: string;
  address: string;
  id: number;
  name: string;
  provider: string | null;
}

/** The blocks of the planned accounts, and why some declared alerts get none. */
function blocksOf(plans: readonly AccountPlan[], loaded: Awaited<ReturnType<typeof load>>) {
  const blocks: Block[] = [];
  const notes: string[] = [];
  const appScopeKeys = new Set(loaded.desired.scopes.map((s) => s.key));
  const heldIndex = heldByStack(loaded.held ?? []);
  for (const plan of plans) {
    if (plan.status !== 'ok') continue;
    const held = heldByAccount(plan.account, heldIndex, appScopeKeys);
    // Alerts only: domains and subdomains are numbered apart (their blocks: targetBlocksOf).
    const heldIds = new Set(held.flatMap((h) => (h.id === null || h.kind !== undefined ? [] : [h.id])));
    const liveByName = new Map<string, number[]>();
    for (const a of plan.live) liveByName.set(a.name, [...(liveByName.get(a.name) ?? []), a.id]);
    for (const d of plan.declared ?? []) {
      if (d.fromPolicy) continue; // not a resource of the stack
      const ids = liveByName.get(d.spec.name) ?? [];
      if (ids.length === 0 || ids.some((id) => heldIds.has(id))) continue; // to create, or managed already
      const address = `networkcalc_alert.${d.logicalId}`;
      if (ids.length > 1) {
        notes.push(
          `${address} (${JSON.stringify(d.spec.name)}): the account has ${ids.length} alerts of that name (ids ${ids.join(', ')}); delete the copies in the account but one, then run ncalc import-blocks again`,
        );
        continue;
      }
      const inState = held.find((h) => h.stack === d.stack && h.address === address);
      if (inState) {
        notes.push(
          `${address} (${JSON.stringify(d.spec.name)}): ${inState.file} holds this address with id ${inState.id ?? 'unknown'}, not the live alert ${ids[0]}; run terraform plan to see which one Terraform keeps`,
        );
        continue;
      }
      const scope = plan.account.scopes.find((s) => s.key === d.scopeKey);
      blocks.push({
        stack: d.stack,
        address,
        id: ids[0]!,
        name: d.spec.name,
        provider: scope?.alias ? `networkcalc.${scope.alias}` : null,
      });
    }
  }
  const targets = targetBlocksOf(plans, loaded);
  return { blocks: [...targets.blocks, ...blocks], notes: [...targets.notes, ...notes] };
}

/**
 * The blocks of the declared domains and subdomains the account has (by name, from the plan's
 * domains list) and no Terraform state of the stack holds: so terraform adopts them instead
 * of refusing each create with "already exists".
 */
function targetBlocksOf(plans: readonly AccountPlan[], loaded: Awaited<ReturnType<typeof load>>) {
  const blocks: Block[] = [];
  const notes: string[] = [];
  const held = loaded.heldTargets ?? [];
  for (const plan of plans) {
    if (plan.status !== 'ok' || !plan.domains) continue;
    const index = indexDomains(plan.domains);
    const keys = new Set(plan.account.scopes.map((s) => s.key));
    for (const t of loaded.desired.targets) {
      if (!keys.has(t.scopeKey)) continue;
      const name = fullNameOrNull(t, index);
      const id = name === null ? undefined : (t.targetType === 'domain' ? index.domains : index.subdomains).get(name);
      if (id === undefined) continue; // not live yet: terraform creates it
      const states = held.filter((h) => h.stack === t.stack);
      if (states.some((h) => h.address.split('.')[0] === t.resource.split('.')[0] && h.id === id)) continue;
      const inState = states.find((h) => h.address === t.resource);
      if (inState) {
        notes.push(
          `${t.resource} (${t.targetType} ${JSON.stringify(name)}): ${inState.file} holds this address with id ${inState.id ?? 'unknown'}, not the live ${t.targetType} ${id}; run terraform plan to see which one Terraform keeps`,
        );
        continue;
      }
      const scope = plan.account.scopes.find((s) => s.key === t.scopeKey);
      blocks.push({
        stack: t.stack,
        address: t.resource,
        id,
        name: name!,
        provider: scope?.alias ? `networkcalc.${scope.alias}` : null,
      });
    }
  }
  return { blocks, notes };
}

function fileText(stack: string | null, blocks: readonly Block[]): string {
  const what = blocks.some((b) => !b.address.startsWith('networkcalc_alert.'))
    ? 'the live alerts, domains and subdomains'
    : 'the live alerts';
  const out = [
    `# Written by \`ncalc import-blocks\`: ${what} of ${stack ? `stack ${stack}` : 'the app'} that no Terraform state held.`,
    '# terraform plan shows them as imports (Terraform 1.5 or later); delete this file once they are applied.',
  ];
  for (const b of blocks)
    out.push('', `# ${b.name.replace(/[\r\n]+/g, ' ')}`, ...importBlock(b.address, b.id, b.provider));
  return out.join('\n') + '\n';
}

/** An error before anything is written: its lines on stderr, and with --json the error document. */
function failed(io: CliIO, opts: ImportBlocksFlags, e: unknown): number {
  if (!isExpectedError(e)) throw e; // a bug: the commands' one error path reports it
  if (opts.json) {
    const code = e instanceof UsageError ? 'USAGE_ERROR' : 'CONFIG_ERROR';
    writeJson(io, errorJson('import-blocks', problemsOf(e), e instanceof ConfigError ? e.details : undefined, code));
  }
  return reportError(io, 'plan', e, false);
}

export async function importBlocksCommand(io: CliIO, opts: ImportBlocksFlags): Promise<number> {
  let loaded: Awaited<ReturnType<typeof load>>;
  const common: CommonOptions = { ...opts, out: opts.cdktfOut };
  try {
    if (opts.out !== undefined && opts.out !== '-') {
      const problem = outputFileProblem(path.resolve(io.cwd, opts.out), opts.out, '--out', 'imports.tf');
      if (problem) throw new UsageError([problem]);
    }
    if (opts.json && opts.out === '-')
      throw new UsageError(['--json and --out - both print to stdout; give --out <file>, or drop one of them']);
    loaded = await load(io, common, !!opts.json, { heldTargets: true });
  } catch (e) {
    return failed(io, opts, e);
  }
  const plans = await planAccounts(io, loaded, clientFactory(io, !!opts.verbose), {}, !!opts.json);
  const unplanned = plans.filter((p) => p.status !== 'ok');
  for (const p of unplanned)
    io.stderr.write(`Error: account ${p.account.label} could not be listed: ${errorText(p.error!)}\n`);
  const { blocks, notes } = blocksOf(plans, loaded);
  const stacks = [...new Set(blocks.map((b) => b.stack))].sort();
  const written: string[] = [];
  try {
    if (opts.out === '-')
      io.stdout.write(blocks.length ? fileText(stacks.length === 1 ? stacks[0]! : null, blocks) : '');
    else if (opts.out !== undefined) {
      if (stacks.length > 1)
        throw new UsageError([
          `--out ${opts.out}: stacks ${stacks.join(', ')} have alerts to import, and each stack is its own Terraform configuration; give --stack with --out, or leave --out out to write ${IMPORT_FILE} into each stack's directory`,
        ]);
      if (blocks.length) {
        writeFileAtomicSync(path.resolve(io.cwd, opts.out), fileText(stacks[0]!, blocks));
        written.push(opts.out);
      }
    } else {
      const outdir = outDirOf({ cwd: loaded.dir, out: opts.cdktfOut });
      for (const stack of stacks) {
        const dir = path.join(outdir, 'stacks', stack);
        mkdirSync(dir, { recursive: true });
        const file = path.join(dir, IMPORT_FILE);
        writeFileAtomicSync(
          file,
          fileText(
            stack,
            blocks.filter((b) => b.stack === stack),
          ),
        );
        written.push(path.relative(io.cwd, file) || file);
      }
    }
  } catch (e) {
    if (e instanceof UsageError) return failed(io, opts, e);
    if (opts.json)
      writeJson(
        io,
        errorJson('import-blocks', [
          `the import blocks were not written: ${fileErrorText(opts.out ?? IMPORT_FILE, e)}`,
        ]),
      );
    io.stderr.write(`Error: the import blocks were not written: ${fileErrorText(opts.out ?? IMPORT_FILE, e)}.\n`);
    return EXIT.ERROR;
  }
  const n = blocks.length;
  if (opts.json)
    writeJson(io, {
      format_version: FORMAT_VERSION,
      command: 'import-blocks',
      blocks: blocks.map((b) => ({ stack: b.stack, address: b.address, id: b.id, name: b.name, provider: b.provider })),
      files: written,
      not_imported: notes,
      failed_accounts: unplanned.map((p) => ({ account: p.account.label, error: p.error })),
    });
  io.stderr.write(
    n === 0
      ? 'No import blocks: every live alert the app declares is held by a Terraform state (or not live yet).\n'
      : `Wrote ${n} import block${n === 1 ? '' : 's'}${written.length ? ` to ${written.join(', ')}` : ''}. Run terraform plan (in the stack's directory, or cdktn diff): it shows ${n} to import; then apply.\n`,
  );
  for (const note of notes) io.stderr.write(`  not imported: ${note}\n`);
  return unplanned.length ? EXIT.ERROR : EXIT.OK;
}

export function register(program: Command, io: CliIO): void {
  const cmd = program
    .command('import-blocks')
    .description(
      'Write Terraform import {} blocks for the live alerts the app declares that no local Terraform state holds (a fresh runner without the old state).',
    );
  withOptions(cmd, chdirOption, appOption);
  synthOutOption(cmd, '--cdktf-out <dir>');
  withOptions(cmd, noSynthOption, synthTimeoutOption, synthWorkersOption, stackOption, baseUrlOption).option(
    '--out <file>',
    `write the blocks to this file ("-": stdout) instead of ${IMPORT_FILE} in each stack's directory (<cdktf-out>/stacks/<stack>)`,
  );
  defineAction(
    terraformConfigOption(verboseOption(cmd))
      .option('--json', 'a JSON result on stdout (blocks, files, not_imported), or the error document')
      .addHelpText(
        'after',
        `
An alert gets a block when the account has exactly one live alert of its name and no local
Terraform state of the app holds that alert. The address is the resource's in the synthesized
stack (networkcalc_alert.<logical id>), the id the alert's, as terraform import takes it.
A declared networkcalc_domain or networkcalc_subdomain the account has (found by name) gets
one too, unless a state holds it; one not live yet gets none (terraform creates it).
Then: terraform plan shows the imports and nothing to add; apply, and delete the file.

Exit codes:
  0  written (or nothing to import)
  1  error: a usage error, an invalid configuration, or an account could not be listed`,
      ),
    (opts: ImportBlocksFlags) => importBlocksCommand(io, opts),
  );
}
