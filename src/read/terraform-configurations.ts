/**
 * Terraform configurations outside the app that manage alerts of its accounts (a folder of .tf
 * files applied with plain terraform): named in cdktf.json (`"networkcalc":
 * {"terraformConfigurations": ["../infra/alerts"]}`, relative to the app) or with
 * `--terraform-config <dir>` (repeatable; relative to the app's directory, as --out is). Each is read like
 * a stack's backend (src/read/terraform-backends.ts): every workspace, `terraform state pull`
 * in its folder, whatever its backend; but never initialised by ncalc, since the folder is
 * another configuration's (a backend not initialised there is unreadable, and the sentence says
 * to run terraform init in it).
 */
import { readdirSync, statSync } from 'node:fs';
import * as path from 'node:path';
import { ConfigError } from '../contract/config-error';
import { sentence } from '../model/problems';
import { terraformConfigurationsOf } from './synth';
import type { BackendSource } from './terraform-backends';

/** A directory holding a Terraform configuration: .tf or .tf.json files. */
export function hasTerraformFiles(dir: string): boolean {
  try {
    return readdirSync(dir).some((f) => f.endsWith('.tf') || f.endsWith('.tf.json'));
  } catch {
    return false;
  }
}

const isDirectory = (dir: string) => {
  try {
    return statSync(dir).isDirectory();
  } catch {
    return false;
  }
};

/**
 * The outside configurations of a run, each once: cdktf.json's, then the flag's. A name that is
 * not a directory of .tf files is an error naming where it was given, before any call.
 */
export function outsideConfigurations(appDir: string, flagDirs: readonly string[]): BackendSource[] {
  const named = [
    ...terraformConfigurationsOf(appDir).map((dir) => ({ dir, given: `"terraformConfigurations" of cdktf.json` })),
    ...flagDirs.map((d) => ({ dir: path.resolve(appDir, d), given: `--terraform-config ${d}` })),
  ];
  const problems: string[] = [];
  const seen = new Set<string>();
  const out: BackendSource[] = [];
  for (const { dir, given } of named) {
    if (seen.has(dir)) continue;
    seen.add(dir);
    if (!isDirectory(dir))
      problems.push(`${given}: ${dir} is not a directory; name the folder of the Terraform configuration`);
    else if (!hasTerraformFiles(dir))
      problems.push(`${given}: ${dir} holds no .tf or .tf.json file; name the folder terraform plans in`);
    else out.push({ stack: null, type: 'configuration', dir });
  }
  if (problems.length) throw new ConfigError({ problems: problems.map(sentence) });
  return out;
}
