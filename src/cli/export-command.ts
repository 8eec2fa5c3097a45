import { existsSync } from 'node:fs';
import { writeFileAtomicSync } from '../support/atomic-write';
import * as path from 'node:path';
import type { Command } from 'commander';
import { CDK_ENV, CDK_LIBRARIES, chooseCdk, resolveFrom, type CdkLibrary } from '../cdk-choice';
import { loadStacks } from '../read/synth';
import { ConfigError } from '../contract/config-error';
import { isRefused, sentence } from '../model/problems';
import { FORMAT_VERSION, errorJson } from '../render/json';
import { envValue, resolveAccounts, resolveCredentials } from '../plan/accounts';
import {
  exportHcl,
  exportQuote,
  exportTypeScript,
  selectForExport,
  type ExportAccount,
  type ExportInput,
} from '../codegen/export';
import { readDesired } from '../read/desired';
import { errorText, toErrorInfo } from '../plan/error-info';
import { type Credentials } from '../plan/types';
import { isEnvVariableName, parseProviderBlock } from '../accounts/account-rules';
import { DEFAULT_BASE_URL, baseUrlProblem, normalizeBaseUrl } from '../accounts/base-url';
import { ENV } from '../accounts/environment';
import { clientFactory, cwdOf, isExpectedError, writeJson, EXIT } from './pipeline';
import { fileErrorText, outputFileProblem } from './files';
import type { CliIO } from './io';
import {
  appOption,
  baseUrlOption,
  chdirOption,
  noSynthOption,
  synthOutOption,
  synthTimeoutOption,
  synthWorkersOption,
  verboseOption,
} from './options';
import { defineAction } from './contract';

export interface ExportFlags {
  account: string;
  out?: string;
  hcl?: string | boolean;
  stackName: string;
  importFrom: string;
  cdk?: string;
  chdir?: string;
  app?: string;
  cdktfOut?: string;
  synth: boolean;
  synthTimeout: number;
  synthWorkers?: number;
  baseUrl?: string;
  verbose?: boolean;
  json?: boolean;
  withTargets?: boolean;
}

export function register(program: Command, io: CliIO): void {
  const cmd = program
    .command('export')
    .description(
      "Write a TypeScript app (cdktf or CDK Terrain, and optionally HCL) declaring an account's live alerts.",
    )
    .option(
      '--account <name>',
      'a provider alias of the app, or an environment prefix: PREFIX_TOKEN / PREFIX_CLIENT_ID / PREFIX_CLIENT_SECRET / PREFIX_BASE_URL',
      'NETWORKCALC',
    )
    .option('--out <file>', 'write the TypeScript here (default: stdout)')
    .option('--hcl [file]', 'also write Terraform HCL (default file: next to --out, with .tf)')
    .option(
      '--with-targets',
      "also declare the account's domains and subdomains (Domain, Subdomain), the alerts referring to them",
    )
    .option('--stack-name <name>', 'stack name in the generated app', 'exported')
    .option(
      '--import-from <module>',
      'module the generated code imports the constructs from',
      'cdktf-provider-networkcalc',
    )
    .option(
      '--cdk <library>',
      'CDK library the generated app imports App and TerraformStack from: cdktn or cdktf (default: the one installed in the --chdir directory, else cdktn)',
    );
  chdirOption(cmd, 'directory of the app, to look up --account as a provider alias');
  appOption(cmd, 'command that synthesizes the app (for an alias)');
  synthOutOption(cmd, '--cdktf-out <dir>', 'synthesized output directory (for an alias)');
  noSynthOption(cmd, 'read the existing synthesized output (for an alias)');
  synthTimeoutOption(cmd);
  synthWorkersOption(cmd);
  baseUrlOption(cmd, 'API base URL (overrides the alias or the environment)');
  defineAction(
    verboseOption(cmd)
      .option('--json', 'a JSON result on stdout (the TypeScript in it when --out is not given), or the error document')
      .addHelpText(
        'after',
        '\nThe directories of --out and --hcl must exist (they are not created).\n\nExit codes:\n  0  written\n  1  error (nothing was written)',
      ),
    (opts: ExportFlags) => exportCommand(io, opts),
  );
}

interface ResolvedAccount {
  account: ExportAccount;
  credentials: Credentials;
  label: string;
}

/**
 * `--account` is an environment prefix when PREFIX_TOKEN or PREFIX_CLIENT_ID is set, and
 * otherwise a provider alias of the app in the working directory (the stack name, or
 * "default", for an unaliased one). `appDir`: the app's directory, checked when first asked.
 */
async function resolveExportAccount(io: CliIO, opts: ExportFlags, appDir: () => string): Promise<ResolvedAccount> {
  const name = opts.account;
  if (isEnvVariableName(name) && (envValue(io.env, `${name}_TOKEN`) || envValue(io.env, `${name}_CLIENT_ID`)))
    return prefixAccount(io, opts);
  return aliasAccount(io, opts, appDir());
}

/** The account an environment prefix names (PREFIX_TOKEN, PREFIX_CLIENT_ID, …). */
function prefixAccount(io: CliIO, opts: ExportFlags): ResolvedAccount {
  const name = opts.account;
  const ownUrl = envValue(io.env, `${name}_BASE_URL`);
  const [rawUrl, source] =
    opts.baseUrl !== undefined
      ? [opts.baseUrl, '--base-url']
      : ownUrl
        ? [ownUrl, `${name}_BASE_URL`]
        : [envValue(io.env, ENV.baseUrl) ?? DEFAULT_BASE_URL, ENV.baseUrl];
  // The account the prefix names, read by the rules of a provider block like every other.
  const { config, problems } = parseProviderBlock(
    {
      token_env: `${name}_TOKEN`,
      client_id_env: `${name}_CLIENT_ID`,
      client_secret_env: `${name}_CLIENT_SECRET`,
      base_url: rawUrl,
    },
    { label: (field) => (field === 'base_url' ? source : field) },
  );
  // A blank --base-url is a mistake here, not "unset": the default would be production.
  const blank = config.baseUrl === null ? baseUrlProblem(rawUrl, source) : null;
  if (problems.length || blank)
    throw new ConfigError({
      problems: [...problems, ...(blank ? [{ message: blank }] : [])].map((p) => sentence(p.message)),
    });
  const baseUrl = normalizeBaseUrl(config.baseUrl ?? rawUrl);
  const account: ExportAccount = { ...config, alias: null, baseUrl: null };
  // Only NETWORKCALC_BASE_URL is read at plan time; another prefix's URL, or the one given
  // with --base-url, must be written down so the code reaches the account it came from.
  if (opts.baseUrl !== undefined || (ownUrl && name !== 'NETWORKCALC')) account.baseUrl = baseUrl;
  // The same rule as every other command: a token, with the client credentials beside it
  // when both are set, so a refused token falls back to them.
  const found = resolveCredentials(config, io.env, baseUrl);
  if (isRefused(found)) throw new ConfigError({ problems: [sentence(`--account ${name}: ${found.problem}`)] });
  return { account, credentials: found.credentials, label: name };
}

/** The account a provider alias of the app names, the app synthesized (or read) to find it. */
async function aliasAccount(io: CliIO, opts: ExportFlags, cwd: string): Promise<ResolvedAccount> {
  const name = opts.account;
  if (!existsSync(path.join(cwd, 'cdktf.json')) && !opts.cdktfOut) {
    throw new ConfigError({
      problems: [
        sentence(
          `--account ${JSON.stringify(name)}: neither ${name}_TOKEN nor ${name}_CLIENT_ID is set, and there is no cdktf.json in ${cwd} to look the name up as a provider alias; set the variables or run in the app's directory`,
        ),
      ],
    });
  }
  const { stacks } = await loadStacks({
    cwd,
    app: opts.app,
    out: opts.cdktfOut,
    synth: opts.synth,
    timeoutMs: opts.synthTimeout * 1000,
    workers: opts.synthWorkers,
    env: io.env,
  });
  const desired = readDesired(stacks);
  const matches = desired.scopes.filter(
    (s) => s.alias === name || (s.alias === null && (name === 'default' || name === s.stack)),
  );
  if (!matches.length) {
    const known = [...new Set(desired.scopes.map((s) => s.alias ?? s.stack))].join(', ') || 'none';
    throw new ConfigError({
      problems: [
        sentence(
          `--account ${JSON.stringify(name)} is not a provider alias of the app (aliases: ${known}) and ${name}_TOKEN / ${name}_CLIENT_ID are not set`,
        ),
      ],
    });
  }
  const scope = matches[0];
  // The exported code declares this account as the app does: a provider block the account
  // rules refuse (max_retries = 50, say) is refused here too, not exported with defaults.
  const blockProblems = desired.problems.filter(
    (p) => p.path === `stack ${scope.stack}, provider ${scope.providerKey}`,
  );
  if (blockProblems.length) throw new ConfigError({ problems: blockProblems });
  const { accounts, problems } = resolveAccounts([scope], io.env, { baseUrlOverride: opts.baseUrl });
  if (problems.length) throw new ConfigError({ problems });
  if (accounts[0].problem !== undefined) throw new ConfigError({ problems: [sentence(accounts[0].problem)] });
  const account: ExportAccount = {
    alias: scope.alias,
    baseUrl: opts.baseUrl !== undefined ? accounts[0].baseUrl : scope.baseUrl,
    tokenEnv: scope.tokenEnv,
    clientIdEnv: scope.clientIdEnv,
    clientSecretEnv: scope.clientSecretEnv,
    ownership: scope.ownership,
    prefix: scope.prefix,
    maxRetries: scope.maxRetries,
    timeoutSeconds: scope.timeoutSeconds,
  };
  return { account, credentials: accounts[0].credentials, label: `${name} (stack ${scope.stack})` };
}

/**
 * The CDK library the exported app imports `App` and `TerraformStack` from: `--cdk`, else the
 * one the app directory uses (by the rules the constructs load it with), else CDK Terrain
 * (cdktn), the maintained successor of the deprecated cdktf.
 */
function exportCdkLibrary(io: CliIO, opts: ExportFlags, appDir: () => string): CdkLibrary {
  if (opts.cdk !== undefined) {
    const library = CDK_LIBRARIES.find((l) => l === opts.cdk!.trim().toLowerCase());
    if (!library)
      throw new ConfigError({
        problems: [sentence(`--cdk ${JSON.stringify(opts.cdk)}: give cdktn (CDK Terrain) or cdktf`)],
      });
    return library;
  }
  // Only what the app directory has counts: the library beside ncalc says nothing of the app.
  const probe = {
    env: io.env,
    appDirs: [appDir()],
    loaded: [],
    resolve: (library: CdkLibrary, dirs?: string[]) => (dirs ? resolveFrom(library, dirs) : undefined),
  };
  try {
    return chooseCdk(probe).library;
  } catch (e) {
    // A wrong NCALC_CDK is the user's to fix; no library installed anywhere is not an error here.
    if (io.env[CDK_ENV]?.trim()) throw new ConfigError({ problems: [sentence((e as Error).message)] });
    return 'cdktn';
  }
}

export async function exportCommand(io: CliIO, opts: ExportFlags): Promise<number> {
  let account: ExportAccount | undefined;
  try {
    const hclFile =
      typeof opts.hcl === 'string'
        ? opts.hcl
        : opts.hcl
          ? opts.out
            ? opts.out.replace(/\.[cm]?[jt]s$/, '') + '.tf'
            : null
          : undefined;
    if (hclFile === null)
      throw new ConfigError({
        problems: [sentence('--hcl needs a file name when --out is not given, e.g. --hcl alerts.tf')],
      });
    // Both paths checked before any call: a failure writes nothing (the directories are not made).
    const pathProblems = [
      opts.out !== undefined && outputFileProblem(path.resolve(io.cwd, opts.out), opts.out, '--out', 'alerts.ts'),
      hclFile && outputFileProblem(path.resolve(io.cwd, hclFile), hclFile, '--hcl', 'alerts.tf'),
    ].filter((p): p is string => !!p);
    if (pathProblems.length) throw new ConfigError({ problems: pathProblems.map(sentence) });
    // The app's directory (-C) is checked only where it is used, then kept.
    let dir: string | undefined;
    const appDir = () => (dir ??= cwdOf(io, opts));
    const cdkLibrary = exportCdkLibrary(io, opts, appDir);
    const resolved = await resolveExportAccount(io, opts, appDir);
    account = resolved.account;
    const { credentials, label } = resolved;
    const api = clientFactory(io, !!opts.verbose)(credentials);
    const [live, domains] = await Promise.all([api.listAlerts(), api.listDomains()]);
    const input: ExportInput = {
      account,
      live,
      domains,
      stackName: opts.stackName,
      importFrom: opts.importFrom,
      cdkLibrary,
      label,
      quote: exportQuote(appDir()) ?? undefined,
      withTargets: !!opts.withTargets,
    };
    // Everything is rendered before the first file is written, so a failure writes nothing.
    const selection = selectForExport(input);
    const ts = exportTypeScript(input, selection);
    const hcl = hclFile ? exportHcl(input, selection) : null;
    const { alerts, skipped, targets } = selection;
    const cwd = io.cwd;
    const write = (file: string, text: string) => {
      try {
        writeFileAtomicSync(path.resolve(cwd, file), text);
      } catch (e) {
        throw new ConfigError({ problems: [sentence(`${fileErrorText(file, e)}; give a path that can be written`)] });
      }
    };
    if (hclFile && hcl !== null) write(hclFile, hcl);
    if (opts.out) write(opts.out, ts);
    else if (!opts.json) io.stdout.write(ts);
    if (opts.json)
      writeJson(io, {
        format_version: FORMAT_VERSION,
        command: 'export',
        account: label,
        exported: alerts.length,
        ...(opts.withTargets ? { exported_targets: targets.length } : {}),
        not_exported: skipped,
        files: [opts.out, hclFile].filter(Boolean),
        ...(opts.out ? {} : { typescript: ts }),
      });
    const where = [opts.out, hclFile].filter(Boolean).join(' and ');
    const what = `${alerts.length} alert${alerts.length === 1 ? '' : 's'}${opts.withTargets ? ` and ${targets.length} ${targets.length === 1 ? 'domain or subdomain' : 'domains and subdomains'}` : ''}`;
    io.stderr.write(`Exported ${what} of account ${label}${where ? ` to ${where}` : ''}.\n`);
    for (const s of skipped) io.stderr.write(`  not exported: ${s}\n`);
    return EXIT.OK;
  } catch (e) {
    if (!isExpectedError(e)) throw e; // a bug: the commands' one error path reports it
    const info = toErrorInfo(e);
    const lines = e instanceof ConfigError ? e.problems : [errorText(info)];
    if (opts.json) writeJson(io, errorJson('export', lines, e instanceof ConfigError ? e.details : undefined));
    io.stderr.write(`Error: export failed; nothing was written.\n${lines.map((l) => `  - ${l}`).join('\n')}\n`);
    return EXIT.ERROR;
  }
}
