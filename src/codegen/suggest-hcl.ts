/**
 * Drift of Terraform HCL configurations turned into edits of their `.tf` files. The drift is
 * Terraform's own: the `resource_drift` of a refresh-only plan (`terraform show -json`, read
 * by `read/terraform-plan.ts`). Each drifted `networkcalc_alert` is located in the `.tf` files
 * of the directory (`hcl-sources.ts`, on `hcl-parse.ts`, which keeps offsets), and each
 * attribute the live alert changed becomes an edit when its expression is a literal
 * (`hcl-edits.ts`: the literal replaced, a line added or removed, aligned by `hcl-align.ts`).
 * Other expressions (variables, references, templates, count and for_each instances, modules)
 * get one line saying where the value comes from and what it should be. This file decides
 * which of those each drift entry gets; `assemble.ts` makes the suggestions one patch.
 */
import { SPEC_FIELDS } from '../model/fields';
import {
  PlanShapeError,
  RESOURCE_TYPE,
  readTerraformPlan,
  type ConfigResource,
  type DriftEntry,
  type ReadPlan,
} from '../read/terraform-plan';
import { assemble, type Draft } from './assemble';
import { blockDeletion, editBlock, isUnset, type FieldDiff } from './hcl-edits';
import { lineOf, type HclBlock, type HclFile } from './hcl-parse';
import { importsTo, referencesTo, Sources } from './hcl-sources';
import type { SourceSnapshot, Suggestion, TextEdit } from './suggestion';

export interface TerraformPlanSuggestions {
  suggestions: Suggestion[];
  /** Every `.tf` file read, as it was read. */
  snapshots: SourceSnapshot[];
  /** What stopped a suggestion or the whole run: a plan that is not one, a file that does not parse, a block not found. */
  problems: string[];
  /**
   * `.tf` files this reader could not parse that no suggestion needed (each `file:line: why`):
   * the suggestions were still made (see `Sources`).
   */
  warnings?: string[];
}

export interface TerraformPlanOptions {
  /** Modification time of the plan file: `.tf` files modified later are marked `changedSincePlan`. */
  planFileMtimeMs?: number;
}

/** Describes the live values of an alert that cannot be edited here, for the summary. */
function liveValues(diffs: readonly FieldDiff[]): string {
  return diffs.map(([f, , v]) => (isUnset(f, v) ? `${f} unset` : `${f} = ${JSON.stringify(v)}`)).join(', ');
}

function suggestion(
  entry: DriftEntry,
  account: string,
  located: { file: HclFile; line: number } | undefined,
  summary: string,
  edits: TextEdit[] = [],
): Draft {
  const file = located?.file;
  return {
    kind: entry.action === 'update' ? 'changed' : 'deleted',
    account,
    alert: String((entry.after ?? entry.before).name ?? entry.name),
    path: entry.address,
    file: file?.file ?? null,
    line: located?.line ?? null,
    summary,
    edits: file ? edits : [],
  };
}

const DELETED = 'deleted in the account: `terraform apply` re-creates it';

/** What one drift entry is checked against: the plan's configuration, the files, and where the results go. */
interface Run {
  read: ReadPlan;
  sources: Sources;
  dir: string;
  suggestions: Draft[];
  problems: string[];
  /** The problem when a file that does not parse may hold what `why` needs. */
  unreadable(why: string): string;
}

/** One drift entry of the plan, and what the suggestions say of it. */
interface Entry {
  entry: DriftEntry;
  /** `module.a.networkcalc_alert.x`: the resource, without the instance key. */
  resourceAddress: string;
  config: ConfigResource | undefined;
  account: string;
  diffs: FieldDiff[];
  /** What adopting the drift means, for an entry no edit adopts. */
  wanted: string;
}

/**
 * The suggestions for a refresh-only plan's drift of `networkcalc_alert` resources, with
 * edits of the `.tf` files of `dir` (not its subdirectories, as terraform reads them).
 * `plan` is the parsed output of `terraform show -json <refresh-only plan file>`.
 */
export function suggestFromTerraformPlan(
  plan: unknown,
  dir: string,
  options: TerraformPlanOptions = {},
): TerraformPlanSuggestions {
  let read: ReadPlan;
  try {
    read = readTerraformPlan(plan);
  } catch (e) {
    if (e instanceof PlanShapeError) return { suggestions: [], snapshots: [], problems: [e.message] };
    throw e;
  }
  if (!read.drift.length) return { suggestions: [], snapshots: [], problems: [] };
  const sources = new Sources(dir, options.planFileMtimeMs);
  if (sources.problems.length) return { suggestions: [], snapshots: sources.snapshots, problems: sources.problems };
  const unreadable = (why: string) =>
    `${sources.unparsed.join('; ')}: ${sources.unparsed.length === 1 ? 'this file does' : 'these files do'} not parse here, and ${why}; fix ${sources.unparsed.length === 1 ? 'it' : 'them'} (terraform validate points there too) and make the plan again, or make the edit by hand`;
  if (sources.overrideUnparsed)
    return {
      suggestions: [],
      snapshots: sources.snapshots,
      problems: [unreadable('an override file changes the blocks of every other file')],
    };

  const run: Run = { read, sources, dir, suggestions: [], problems: [], unreadable };
  for (const entry of read.drift) suggestEntry(run, entry);
  const warnings = sources.unparsed.map(
    (u) =>
      `${u}: this file does not parse here; the suggestions above did not need it (fix it, terraform validate points there too)`,
  );
  return {
    // Deletions of neighbouring blocks may both claim the blank line between them: merged there.
    suggestions: assemble(run.suggestions, (name) => sources.files.find((f) => f.file === name)?.text),
    snapshots: sources.snapshots,
    problems: run.problems,
    ...(warnings.length ? { warnings } : {}),
  };
}

/** The entry's suggestion: where its block is, and whether an edit can adopt the drift there. */
function suggestEntry(run: Run, entry: DriftEntry): void {
  const { read, sources, suggestions, problems } = run;
  const resourceAddress = `${entry.moduleAddress ? `${entry.moduleAddress}.` : ''}${RESOURCE_TYPE}.${entry.name}`;
  const config = read.config.get(resourceAddress);
  const key = config?.providerConfigKey ?? 'networkcalc';
  const account = key.slice(key.lastIndexOf(':') + 1);
  const diffs: FieldDiff[] = [];
  if (entry.after)
    for (const f of SPEC_FIELDS)
      if (JSON.stringify(entry.before[f] ?? null) !== JSON.stringify(entry.after[f] ?? null))
        diffs.push([f, entry.before[f] ?? null, entry.after[f] ?? null]);
  if (entry.action === 'update' && !diffs.length) return; // only server-owned values moved
  const wanted = entry.action === 'update' ? `to adopt the live alert set ${liveValues(diffs)}` : DELETED;
  const e: Entry = { entry, resourceAddress, config, account, diffs, wanted };

  if (entry.moduleAddress) {
    const call = entry.moduleAddress.split('.')[1];
    const found = sources.blocks('module', call)[0];
    suggestions.push(
      suggestion(
        entry,
        account,
        found && { file: found.file, line: found.block.line },
        `${entry.address}: declared in module "${call}"${found ? ` (${found.file.file}:${found.block.line})` : ''}, whose source is not edited here; ${wanted}`,
      ),
    );
    return;
  }
  const found = sources.blocks('resource', RESOURCE_TYPE, entry.name);
  if (!found.length && sources.unparsed.length) {
    problems.push(run.unreadable(`the block of ${entry.address} is not in the other files`));
    return;
  }
  if (!found.length) {
    problems.push(
      `${entry.address} is in the plan, but no resource "${RESOURCE_TYPE}" "${entry.name}" block is in the .tf files of ${run.dir}` +
        (sources.jsonFiles.length ? ` (.tf.json files are not edited: ${sources.jsonFiles.join(', ')})` : '') +
        '; make the plan and the suggestions from the same directory',
    );
    return;
  }
  if (found.length > 1) {
    const at = found.map((f) => `${f.file.file}:${f.block.line}`).join(', ');
    suggestions.push(
      suggestion(
        entry,
        account,
        { file: found[0].file, line: found[0].block.line },
        `${entry.address}: declared more than once (${at}, an override file?), so no edit is made; ${wanted}`,
      ),
    );
    return;
  }
  suggestBlock(run, e, found[0].file, found[0].block);
}

/** The entry's one block: an edit of its attributes, or its deletion, unless it is repeated. */
function suggestBlock(run: Run, e: Entry, file: HclFile, block: HclBlock): void {
  const { entry, account, wanted } = e;
  const repetition = e.config?.repetition ?? (entry.index !== undefined ? 'count' : undefined) ?? repeatedBy(block);
  if (repetition) {
    run.suggestions.push(
      suggestion(
        entry,
        account,
        { file, line: block.line },
        entry.action === 'update'
          ? `${entry.address}: one instance of a block with ${repetition} (${file.file}:${block.line}), so its values come from expressions; ${wanted} for this instance`
          : `${entry.address}: ${DELETED}, or leave it out of the ${repetition} expression (${file.file}:${block.line}) to accept the deletion`,
      ),
    );
    return;
  }
  if (entry.action === 'update') {
    const change = editBlock(file, block, e.diffs, entry.after!);
    const parts = [
      ...(change.done.length ? [change.done.join(', ') + (change.notes.length ? ' (the diff)' : '')] : []),
      ...change.notes,
    ];
    run.suggestions.push(
      suggestion(entry, account, { file, line: change.line }, `${entry.address}: ${parts.join('; ')}`, change.edits),
    );
    return;
  }
  suggestDeletion(run, e, file, block);
}

/**
 * Deleted live. Terraform refreshes it out of the state, so without its block the plan is
 * empty; `terraform apply -refresh-only` records that in the state. An import block of the
 * same address would be an error without the resource block, so it goes too.
 */
function suggestDeletion(run: Run, e: Entry, file: HclFile, block: HclBlock): void {
  const { entry, account } = e;
  const { sources, suggestions } = run;
  if (sources.unparsed.length) {
    run.problems.push(
      run.unreadable(`references to ${entry.address} or an import block in it would break if its block were deleted`),
    );
    return;
  }
  const imports = sources.files.flatMap((f) =>
    f.blocks.filter((b) => importsTo(b, e.resourceAddress)).map((b) => ({ file: f, block: b })),
  );
  const within = (r: { file: HclFile; offset: number }) =>
    [{ file, block }, ...imports].some((l) => l.file === r.file && r.offset >= l.block.start && r.offset < l.block.end);
  const refs = referencesTo(sources, entry.name).filter((r) => !within(r));
  if (refs.length) {
    const at = refs.map((r) => `${r.file.file}:${lineOf(r.file, r.offset)}`);
    suggestions.push(
      suggestion(
        entry,
        account,
        { file, line: block.line },
        `${entry.address}: ${DELETED}; to accept the deletion instead, remove the references to it (${[...new Set(at)].join(', ')}) and its block (${file.file}:${block.line}), then run \`terraform apply -refresh-only\``,
      ),
    );
    return;
  }
  const sameFile = imports.filter((i) => i.file === file);
  const tail = sameFile.length ? ' and its import block' : '';
  suggestions.push(
    suggestion(
      entry,
      account,
      { file, line: block.line },
      `${entry.address}: ${DELETED}, or delete the block${tail} (the diff) and run \`terraform apply -refresh-only\` to accept the deletion`,
      [blockDeletion(file, block), ...sameFile.map((i) => blockDeletion(i.file, i.block))],
    ),
  );
  for (const other of imports.filter((i) => i.file !== file))
    suggestions.push(
      suggestion(
        entry,
        account,
        { file: other.file, line: other.block.line },
        `${entry.address}: with its block deleted, also delete its import block (${other.file.file}:${other.block.line}), which would name a resource that is not declared`,
        [blockDeletion(other.file, other.block)],
      ),
    );
}

/** `count` or `for_each` of a resource block, when the plan's configuration did not say. */
function repeatedBy(block: HclBlock): 'count' | 'for_each' | undefined {
  const a = block.attributes.find((x) => x.name === 'count' || x.name === 'for_each');
  return a?.name as 'count' | 'for_each' | undefined;
}
