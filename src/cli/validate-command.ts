/** `ncalc validate`: the checks plan makes before its first API call, without credentials (for pull requests). */
import type { Command } from 'commander';
import { FORMAT_VERSION } from '../render/json';
import type { CliIO } from './io';
import { appOptions } from './options';
import { defineAction } from './contract';
import { EXIT, checkOffline, reportError, styleFor, synthesize, writeJson, type CommonOptions } from './pipeline';

export type ValidateFlags = Omit<CommonOptions, 'baseUrl' | 'verbose'> & { baseUrl?: string; json?: boolean };

export function register(program: Command, io: CliIO): void {
  defineAction(
    appOptions(program.command('validate'))
      .description(
        'Check the app without credentials or API calls: every alert, reference, name and scope (for pull requests).',
      )
      .option('--json', 'machine-readable result (format in docs/cli.md)')
      .addHelpText('after', '\nExit codes:\n  0  the configuration is valid\n  1  it is not (every problem is listed)'),
    (opts: ValidateFlags) => validateCommand(io, opts),
  );
}

/**
 * Everything plan checks before its first API call, except credentials: for pull requests
 * whose pipelines get no secrets. Makes no API call.
 */
export async function validateCommand(io: CliIO, opts: ValidateFlags): Promise<number> {
  const json = !!opts.json;
  try {
    const desired = checkOffline((await synthesize(io, opts, json)).stacks, io, opts);
    const summary = {
      stacks: new Set(desired.scopes.map((s) => s.stack)).size,
      providers: desired.scopes.length,
      alerts: desired.alerts.length,
      report_triggers: desired.triggers.length,
      // Their alerts are known only at plan time, from the account's domains.
      alert_policies: desired.policies.length,
    };
    if (json)
      writeJson(io, { format_version: FORMAT_VERSION, command: 'validate', valid: true, summary, accounts: [] });
    else {
      const n = (k: number, word: string, plural = `${word}s`) => `${k} ${k === 1 ? word : plural}`;
      const parts = [n(summary.alerts, 'alert'), n(summary.report_triggers, 'report trigger')];
      if (summary.alert_policies) parts.push(n(summary.alert_policies, 'alert policy', 'alert policies'));
      io.stdout.write(
        `${styleFor(io, opts).green('The configuration is valid:')} ${parts.slice(0, -1).join(', ')} and ${parts[parts.length - 1]} ` +
          `in ${n(summary.stacks, 'stack')} (${n(summary.providers, 'provider configuration')}). No API call was made.\n`,
      );
    }
    return EXIT.OK;
  } catch (e) {
    return reportError(io, 'validate', e, json);
  }
}
