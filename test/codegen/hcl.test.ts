/**
 * suggestFromTerraformPlan on plan JSON of the shape `terraform show -json` writes for a
 * refresh-only plan (the round trips with the real terraform are in hcl-terraform.e2e): where
 * each edit goes, how lines are added and removed in terraform fmt's alignment, and the one
 * line said when no edit can be made.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { suggestFromTerraformPlan } from '../../src/codegen/suggest-hcl';
import { applyEdits } from '../../src/codegen/patch';
import type { Suggestion } from '../../src/codegen/suggestion';

const SERVER = {
  id: 7,
  user_id: 1,
  is_active: true,
  current_status: 'healthy',
  action: 'email',
  last_triggered_at: null,
};
const SPF = {
  ...SERVER,
  name: 'spf',
  type: 'SPF Record',
  subtype: null,
  filter: 'validity',
  filter_value: null,
  target_type: 'domain',
  target_id: 1,
};

interface Drift {
  address: string;
  before: Record<string, unknown>;
  after: Record<string, unknown> | null;
  index?: number | string;
  module?: string;
}

function plan(drift: Drift[], resources: Record<string, unknown>[] = [], extra: Record<string, unknown> = {}) {
  return {
    format_version: '1.2',
    terraform_version: '1.11.4',
    planned_values: { root_module: {} },
    resource_drift: drift.map((d) => {
      const local = d.address.slice(d.module ? d.module.length + 1 : 0).replace(/\[.*\]$/, '');
      return {
        address: d.address,
        ...(d.module ? { module_address: d.module } : {}),
        mode: 'managed',
        type: 'networkcalc_alert',
        name: local.split('.')[1],
        ...(d.index !== undefined ? { index: d.index } : {}),
        provider_name: 'registry.terraform.io/networkcalc/networkcalc',
        change: { actions: [d.after ? 'update' : 'delete'], before: d.before, after: d.after },
      };
    }),
    configuration: { provider_config: {}, root_module: { resources, ...extra } },
    applyable: true,
    complete: true,
    errored: false,
  };
}

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'nc-hcl-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const write = (text: string, file = 'main.tf') => writeFileSync(path.join(dir, file), text);
const edited = (text: string, s: Suggestion) => applyEdits(text, s.edits);
const run = (p: unknown) => suggestFromTerraformPlan(p, dir);

describe('edits of literal attributes', () => {
  test('an added line realigns the block as terraform fmt does; a removed longest name realigns it back', () => {
    const text = `resource "networkcalc_alert" "spf" {
  name        = "spf"
  type        = "SPF Record"
  filter      = "validity"
  target_type = "domain"
  target_id   = 1
}
`;
    write(text);
    const r = run(
      plan([
        {
          address: 'networkcalc_alert.spf',
          before: SPF,
          after: { ...SPF, filter: 'equals', filter_value: 'v=spf1 -all' },
        },
      ]),
    );
    expect(r.problems).toEqual([]);
    const [s] = r.suggestions;
    expect(s).toMatchObject({ kind: 'changed', account: 'networkcalc', alert: 'spf', file: 'main.tf', line: 4 });
    const out = edited(text, s);
    expect(out).toBe(`resource "networkcalc_alert" "spf" {
  name         = "spf"
  type         = "SPF Record"
  filter       = "equals"
  filter_value = "v=spf1 -all"
  target_type  = "domain"
  target_id    = 1
}
`);
    // And the way back: filter_value goes, the others lose their extra space.
    write(out);
    const back = run(
      plan([
        {
          address: 'networkcalc_alert.spf',
          before: { ...SPF, filter: 'equals', filter_value: 'v=spf1 -all' },
          after: SPF,
        },
      ]),
    );
    expect(back.suggestions[0].summary).toBe(
      'networkcalc_alert.spf: filter "equals" → "validity", filter_value "v=spf1 -all" → unset',
    );
    expect(edited(out, back.suggestions[0])).toBe(text);
  });

  test('a block not aligned by terraform fmt gets a plain line and no realignment', () => {
    const text = `resource "networkcalc_alert" "spf" {
  name = "spf"
  type = "SPF Record"
  filter = "validity" # the check
  target_type = "domain"

  target_id = 1
}
`;
    write(text);
    const r = run(
      plan([{ address: 'networkcalc_alert.spf', before: SPF, after: { ...SPF, filter: 'equals', filter_value: 'x' } }]),
    );
    expect(edited(text, r.suggestions[0])).toBe(
      text.replace('"validity" # the check\n', '"equals" # the check\n  filter_value = "x"\n'),
    );
  });

  test('runs broken by blank lines and comments are aligned apart; a missing attribute goes after its predecessor in the schema', () => {
    const text = `resource "networkcalc_alert" "a" {
  name = "a"

  # what
  type    = "DNS Record"
  filter  = "equals"
  filter_value = "1.2.3.4"
  target_type  = "domain"
  target_id    = 1
}
`;
    const before = { ...SPF, name: 'a', type: 'DNS Record', filter: 'equals', filter_value: '1.2.3.4', subtype: null };
    // type … target_id are one run (consecutive lines) whose = are not aligned: the new line is plain.
    write(text);
    const r = run(plan([{ address: 'networkcalc_alert.a', before, after: { ...before, subtype: 'A' } }]));
    expect(edited(text, r.suggestions[0])).toBe(
      text.replace('  type    = "DNS Record"\n', '  type    = "DNS Record"\n  subtype = "A"\n'),
    );

    const aligned = `resource "networkcalc_alert" "a" {
  name = "a"

  # what
  type   = "DNS Record"
  filter = "equals"

  filter_value = "1.2.3.4"
  target_type  = "domain"
  target_id    = 1
}
`;
    write(aligned);
    const r2 = run(plan([{ address: 'networkcalc_alert.a', before, after: { ...before, subtype: 'A' } }]));
    expect(edited(aligned, r2.suggestions[0])).toBe(
      aligned.replace(
        '  type   = "DNS Record"\n  filter = "equals"\n',
        '  type    = "DNS Record"\n  subtype = "A"\n  filter  = "equals"\n',
      ),
    );
  });

  test('literal styles are kept: a number stays a number, a heredoc becomes a string, ${ is escaped', () => {
    const text = `resource "networkcalc_alert" "c" {
  name         = <<EOT
c
EOT
  type         = "Certificate (TLS)"
  filter       = "expires in (days)"
  filter_value = 21
  target_type  = "subdomain"
  target_id    = "2"
}
`;
    write(text);
    const before = {
      ...SPF,
      name: 'c\n',
      type: 'Certificate (TLS)',
      filter: 'expires in (days)',
      filter_value: '21',
      target_type: 'subdomain',
      target_id: 2,
    };
    const r = run(
      plan([
        {
          address: 'networkcalc_alert.c',
          before,
          after: { ...before, name: '${c}', filter_value: '30', target_id: 3 },
        },
      ]),
    );
    expect(r.suggestions[0].line).toBe(2);
    expect(edited(text, r.suggestions[0])).toBe(`resource "networkcalc_alert" "c" {
  name         = "$\${c}"
  type         = "Certificate (TLS)"
  filter       = "expires in (days)"
  filter_value = 30
  target_type  = "subdomain"
  target_id    = "3"
}
`);
  });

  test('an attribute sharing its line is set to null instead of having its line removed', () => {
    const text = 'resource "networkcalc_alert" "a" { subtype = "A" }\n';
    write(text);
    const before = { ...SPF, name: 'a', type: 'DNS Record', subtype: 'A' };
    const r = run(plan([{ address: 'networkcalc_alert.a', before, after: { ...before, subtype: null } }]));
    expect(edited(text, r.suggestions[0])).toBe('resource "networkcalc_alert" "a" { subtype = null }\n');
  });

  test('only spec attributes are looked at: server-owned values moving is no suggestion', () => {
    write('resource "networkcalc_alert" "spf" {\n  name = "spf"\n}\n');
    const r = run(
      plan([{ address: 'networkcalc_alert.spf', before: SPF, after: { ...SPF, current_status: 'triggered' } }]),
    );
    expect(r).toEqual({ suggestions: [], snapshots: [expect.objectContaining({ file: 'main.tf' })], problems: [] });
  });

  test('the account is the provider configuration key', () => {
    write('resource "networkcalc_alert" "spf" {\n  provider = networkcalc.prod\n  filter   = "validity"\n}\n');
    const r = run(
      plan(
        [{ address: 'networkcalc_alert.spf', before: SPF, after: { ...SPF, filter: 'equals', filter_value: 'x' } }],
        [
          {
            address: 'networkcalc_alert.spf',
            mode: 'managed',
            type: 'networkcalc_alert',
            name: 'spf',
            provider_config_key: 'networkcalc.prod',
            expressions: {},
          },
        ],
      ),
    );
    expect(r.suggestions[0].account).toBe('networkcalc.prod');
  });
});

describe('no edit, one line saying why', () => {
  test('a reference, a variable and a template: file:line, the expression and the new value', () => {
    const text = `resource "networkcalc_alert" "a" {
  name         = "\${var.prefix} a"
  type         = "DNS Record"
  subtype      = "A"
  filter       = "equals"
  filter_value = local.ip
  target_type  = "subdomain"
  target_id    = data.networkcalc_subdomain.www.id
}
`;
    write(text);
    const before = {
      ...SPF,
      name: 'x a',
      type: 'DNS Record',
      subtype: 'A',
      filter: 'equals',
      filter_value: '1.1.1.1',
      target_type: 'subdomain',
      target_id: 2,
    };
    const after = { ...before, name: 'y a', filter: 'contains', filter_value: '2.2.2.2', target_id: 3 };
    const [s] = run(plan([{ address: 'networkcalc_alert.a', before, after }])).suggestions;
    expect(s.line).toBe(2);
    expect(s.summary).toBe(
      'networkcalc_alert.a: filter "equals" → "contains" (the diff); ' +
        'name is not a literal (main.tf:2: "${var.prefix} a"); set it to "y a" where it comes from; ' +
        'filter_value is not a literal (main.tf:6: local.ip); set it to "2.2.2.2" where it comes from; ' +
        'target_id is not a literal (main.tf:8: data.networkcalc_subdomain.www.id); the alert now watches subdomain id 3: point the expression at it',
    );
    expect(edited(text, s)).toBe(text.replace('"equals"', '"contains"'));
  });

  test('count and for_each instances, and resources of modules', () => {
    write(`module "alerts" {
  source = "./alerts"
}

resource "networkcalc_alert" "many" {
  for_each    = toset(["a", "b"])
  name        = each.key
  type        = "SPF Record"
  filter      = "validity"
  target_type = "domain"
  target_id   = 1
}
`);
    const after = { ...SPF, filter: 'equals', filter_value: 'x' };
    const r = run(
      plan(
        [
          { address: 'networkcalc_alert.many["a"]', index: 'a', before: SPF, after },
          { address: 'networkcalc_alert.many["b"]', index: 'b', before: SPF, after: null },
          { address: 'module.alerts.networkcalc_alert.x', module: 'module.alerts', before: SPF, after },
        ],
        [
          {
            address: 'networkcalc_alert.many',
            provider_config_key: 'networkcalc',
            for_each_expression: { references: [] },
          },
        ],
        {
          module_calls: {
            alerts: {
              source: './alerts',
              module: { resources: [{ address: 'networkcalc_alert.x', provider_config_key: 'alerts:networkcalc' }] },
            },
          },
        },
      ),
    );
    expect(r.problems).toEqual([]);
    expect(r.suggestions.map((s) => [s.kind, s.file, s.line, s.edits.length, s.account, s.summary])).toEqual([
      [
        'changed',
        'main.tf',
        5,
        0,
        'networkcalc',
        'networkcalc_alert.many["a"]: one instance of a block with for_each (main.tf:5), so its values come from expressions; to adopt the live alert set filter = "equals", filter_value = "x" for this instance',
      ],
      [
        'deleted',
        'main.tf',
        5,
        0,
        'networkcalc',
        'networkcalc_alert.many["b"]: deleted in the account: `terraform apply` re-creates it, or leave it out of the for_each expression (main.tf:5) to accept the deletion',
      ],
      [
        'changed',
        'main.tf',
        1,
        0,
        'networkcalc',
        'module.alerts.networkcalc_alert.x: declared in module "alerts" (main.tf:1), whose source is not edited here; to adopt the live alert set filter = "equals", filter_value = "x"',
      ],
    ]);
  });

  test('a deleted alert still referred to: no edit, the references named', () => {
    write(`resource "networkcalc_alert" "gone" {
  name = "spf"
}

resource "networkcalc_report_trigger" "t" {
  domain_id = 1
  triggers = {
    alerts = "\${networkcalc_alert.gone.id},x"
  }
}
`);
    write(
      'output "id" {\n  value = networkcalc_alert.gone.id\n}\noutput "other" {\n  value = networkcalc_alert.gone_too.id\n}\n',
      'outputs.tf',
    );
    const [s] = run(plan([{ address: 'networkcalc_alert.gone', before: SPF, after: null }])).suggestions;
    expect(s).toMatchObject({ kind: 'deleted', edits: [], diff: null, file: 'main.tf', line: 1 });
    expect(s.summary).toBe(
      'networkcalc_alert.gone: deleted in the account: `terraform apply` re-creates it; to accept the deletion instead, remove the references to it (main.tf:8, outputs.tf:2) and its block (main.tf:1), then run `terraform apply -refresh-only`',
    );
  });
});

describe('deleted live', () => {
  test('the block goes with one blank line, the comment above stays; an import block in another file is a second suggestion', () => {
    const text = `provider "networkcalc" {}

# Kept: the comment above.
resource "networkcalc_alert" "gone" {
  name = "spf"
}

resource "networkcalc_alert" "kept" {
  name = "kept"
}
`;
    write(text);
    const imports =
      'import {\n  to = networkcalc_alert.kept\n  id = "1"\n}\n\nimport {\n  to = networkcalc_alert.gone\n  id = "7"\n}\n';
    write(imports, 'imports.tf');
    const r = run(plan([{ address: 'networkcalc_alert.gone', before: SPF, after: null }]));
    expect(r.suggestions).toHaveLength(2);
    const [main, imp] = r.suggestions;
    expect(edited(text, main)).toBe(`provider "networkcalc" {}

# Kept: the comment above.

resource "networkcalc_alert" "kept" {
  name = "kept"
}
`);
    expect(main.diff).toContain('-resource "networkcalc_alert" "gone" {\n');
    expect(imp).toMatchObject({ kind: 'deleted', file: 'imports.tf', line: 6, path: 'networkcalc_alert.gone' });
    expect(imp.summary).toBe(
      'networkcalc_alert.gone: with its block deleted, also delete its import block (imports.tf:6), which would name a resource that is not declared',
    );
    expect(edited(imports, imp)).toBe('import {\n  to = networkcalc_alert.kept\n  id = "1"\n}\n');
  });

  test('a first block without a blank line before takes the blank line after it', () => {
    const text =
      'resource "networkcalc_alert" "gone" {\n  name = "spf"\n}\n\nresource "networkcalc_alert" "b" {\n  name = "b"\n}\n';
    write(text);
    const [s] = run(plan([{ address: 'networkcalc_alert.gone', before: SPF, after: null }])).suggestions;
    expect(edited(text, s)).toBe('resource "networkcalc_alert" "b" {\n  name = "b"\n}\n');
  });
});

describe('problems', () => {
  test('no drift: nothing to do, and the files are not even read', () => {
    write('resource "x" {', 'broken.tf');
    expect(run(plan([]))).toEqual({ suggestions: [], snapshots: [], problems: [] });
  });

  test('a file that does not parse stops only what it may hold: a block found elsewhere is still edited', () => {
    write('resource "networkcalc_alert" "spf" {\n  name = "spf"\n}\n');
    write('locals {\n  a = (1\n}\n', 'other.tf');
    const r = run(plan([{ address: 'networkcalc_alert.spf', before: SPF, after: { ...SPF, name: 'x' } }]));
    expect(r.problems).toEqual([]);
    expect(r.suggestions.map((x) => [x.file, x.summary])).toEqual([
      ['main.tf', 'networkcalc_alert.spf: name "spf" → "x"'],
    ]);
    expect(r.warnings).toEqual([
      'other.tf:3: unexpected }: this file does not parse here; the suggestions above did not need it (fix it, terraform validate points there too)',
    ]);
  });

  test('a file that does not parse stops a block not found, a deletion and everything when it is an override', () => {
    write('resource "networkcalc_alert" "spf" {\n  name = "spf"\n}\n');
    write('locals {\n  a = (1\n}\n', 'other.tf');
    let r = run(plan([{ address: 'networkcalc_alert.gone', before: SPF, after: { ...SPF, name: 'x' } }]));
    expect(r.problems).toEqual([
      'other.tf:3: unexpected }: this file does not parse here, and the block of networkcalc_alert.gone is not in the other files; fix it (terraform validate points there too) and make the plan again, or make the edit by hand',
    ]);
    r = run(plan([{ address: 'networkcalc_alert.spf', before: SPF, after: null }]));
    expect(r.suggestions).toEqual([]);
    expect(r.problems).toEqual([
      'other.tf:3: unexpected }: this file does not parse here, and references to networkcalc_alert.spf or an import block in it would break if its block were deleted; fix it (terraform validate points there too) and make the plan again, or make the edit by hand',
    ]);
    write('locals {\n  a = (1\n}\n', 'main_override.tf');
    r = run(plan([{ address: 'networkcalc_alert.spf', before: SPF, after: { ...SPF, name: 'x' } }]));
    expect(r.suggestions).toEqual([]);
    expect(r.problems).toEqual([
      'main_override.tf:3: unexpected }; other.tf:3: unexpected }: these files do not parse here, and an override file changes the blocks of every other file; fix them (terraform validate points there too) and make the plan again, or make the edit by hand',
    ]);
  });

  test('a line added to a CRLF file ends in CRLF', () => {
    const text = 'resource "networkcalc_alert" "spf" {\r\n  name = "spf"\r\n  type = "SPF Record"\r\n}\r\n';
    write(text);
    const [s] = run(
      plan([
        {
          address: 'networkcalc_alert.spf',
          before: SPF,
          after: { ...SPF, type: 'DNS Record', subtype: 'A', filter: 'equals', filter_value: '192.0.2.1' },
        },
      ]),
    ).suggestions;
    const out = edited(text, s);
    expect(out.split('\r\n').length - 1).toBe(out.split('\n').length - 1);
    expect(out).toContain('  subtype      = "A"\r\n');
  });

  test('a block not found names .tf.json files, which are not edited', () => {
    write('{"resource": {"networkcalc_alert": {"spf": {"name": "spf"}}}}', 'main.tf.json');
    const r = run(plan([{ address: 'networkcalc_alert.spf', before: SPF, after: { ...SPF, name: 'x' } }]));
    expect(r.problems).toEqual([
      `networkcalc_alert.spf is in the plan, but no resource "networkcalc_alert" "spf" block is in the .tf files of ${dir} (.tf.json files are not edited: main.tf.json); make the plan and the suggestions from the same directory`,
    ]);
  });

  test('drift entries of the wrong shape name the JSON path', () => {
    const bad = plan([{ address: 'networkcalc_alert.spf', before: SPF, after: SPF }]);
    (bad.resource_drift[0].change as Record<string, unknown>).actions = 'update';
    expect(run(bad).problems[0]).toMatch(
      /^not the JSON of a refresh-only terraform plan: resource_drift\[0\]\.change\.actions is not a list;/,
    );
    const created = plan([{ address: 'networkcalc_alert.spf', before: SPF, after: SPF }]);
    created.resource_drift[0].change.actions = ['create'];
    expect(run(created).problems[0]).toMatch(
      /resource_drift\[0\] \(networkcalc_alert\.spf\) has the actions \[create\]/,
    );
  });
});

test('the last two blocks of a file deleted together: the suggestions apply together', () => {
  const text =
    'resource "networkcalc_alert" "keep" {\n  name = "k"\n}\n\nresource "networkcalc_alert" "a" {\n  name = "a"\n}\n\nresource "networkcalc_alert" "b" {\n  name = "b"\n}\n';
  write(text);
  const r = run(
    plan([
      { address: 'networkcalc_alert.a', before: SPF, after: null },
      { address: 'networkcalc_alert.b', before: SPF, after: null },
    ]),
  );
  const all = r.suggestions.flatMap((s) => s.edits);
  // Both claimed the blank line between them; the later deletion starts after it (one blank line is left at the end).
  expect(applyEdits(text, all)).toBe('resource "networkcalc_alert" "keep" {\n  name = "k"\n}\n\n');
  for (const s of r.suggestions) expect(s.diff).toMatch(/^--- a\/main\.tf\n/);
});
