/**
 * The HCL reader behind the Terraform suggestions: where blocks and attribute expressions
 * start and end (offsets and lines) in files with heredocs, templates, comments and strings
 * that hold braces, and which expressions are literals.
 */
import {
  HclSyntaxError,
  decodeString,
  literalOf,
  parseHcl,
  tokenizeHcl,
  type HclBlock,
} from '../../src/codegen/hcl-parse';

const expr = (text: string, block: HclBlock, name: string) => {
  const a = block.attributes.find((x) => x.name === name);
  if (!a) throw new Error(`no attribute ${name}`);
  return { text: text.slice(a.exprStart, a.exprEnd), line: a.line, endLine: a.endLine, attr: a };
};

const syntaxError = (text: string): HclSyntaxError => {
  try {
    parseHcl(text, 'bad.tf');
  } catch (e) {
    if (e instanceof HclSyntaxError) return e;
    throw e;
  }
  throw new Error('parsed');
};

describe('parseHcl', () => {
  test('blocks, labels, attributes and their expression spans', () => {
    const text = [
      'provider "networkcalc" {}',
      '',
      'resource "networkcalc_alert" "a" {',
      '  name   = "x" # trailing',
      '  target_id = data.networkcalc_domain.example.id',
      '  lifecycle {',
      '    ignore_changes = [name]',
      '  }',
      '}',
      '',
    ].join('\n');
    const f = parseHcl(text, 'main.tf');
    expect(f.blocks.map((b) => [b.type, b.labels, b.line, b.endLine])).toEqual([
      ['provider', ['networkcalc'], 1, 1],
      ['resource', ['networkcalc_alert', 'a'], 3, 9],
    ]);
    const r = f.blocks[1];
    expect(text.slice(r.start, r.end)).toMatch(/^resource "networkcalc_alert" "a" \{[\s\S]*\n\}$/);
    expect(r.attributes.map((a) => a.name)).toEqual(['name', 'target_id']);
    expect(expr(text, r, 'name')).toMatchObject({ text: '"x"', line: 4, endLine: 4 });
    expect(text.slice(r.attributes[0].nameEnd, r.attributes[0].equals)).toBe('   ');
    expect(expr(text, r, 'target_id').text).toBe('data.networkcalc_domain.example.id');
    expect(r.blocks[0].type).toBe('lifecycle');
    expect(expr(text, r.blocks[0], 'ignore_changes').text).toBe('[name]');
  });

  test('comments that hold braces and quotes are not code', () => {
    const text = [
      '# resource "networkcalc_alert" "fake" {',
      'resource "networkcalc_alert" "a" { // {',
      '  /* } "',
      '  { */ name = "x" /* } */',
      '  type = "DNS Record" # }',
      '}',
    ].join('\n');
    const f = parseHcl(text, 'main.tf');
    expect(f.blocks).toHaveLength(1);
    const [r] = f.blocks;
    expect(r.labels).toEqual(['networkcalc_alert', 'a']);
    expect(expr(text, r, 'name')).toMatchObject({ text: '"x"', line: 4 });
    expect(expr(text, r, 'type')).toMatchObject({ text: '"DNS Record"', line: 5 });
    expect(r.endLine).toBe(6);
  });

  test('strings with braces, escaped quotes and escaped template sigils are literals', () => {
    const text = [
      'resource "networkcalc_alert" "a" {',
      '  name         = "}{ \\"quoted\\" }"',
      '  filter_value = "v=spf1 $${not.a.template} %%{ nor this }"',
      '  subtype      = null',
      '  target_id    = 12',
      '}',
    ].join('\n');
    const [r] = parseHcl(text, 'main.tf').blocks;
    const name = expr(text, r, 'name');
    expect(name.text).toBe('"}{ \\"quoted\\" }"');
    expect(literalOf(name.attr)).toEqual({ kind: 'string', value: '}{ "quoted" }' });
    expect(literalOf(expr(text, r, 'filter_value').attr)).toEqual({
      kind: 'string',
      value: 'v=spf1 ${not.a.template} %{ nor this }',
    });
    expect(literalOf(expr(text, r, 'subtype').attr)).toEqual({ kind: 'null' });
    expect(literalOf(expr(text, r, 'target_id').attr)).toEqual({ kind: 'number', value: '12' });
  });

  test('nested templates: braces and strings inside ${…} and %{…}', () => {
    const text = [
      'resource "networkcalc_alert" "a" {',
      '  name = "${join("}", [for x in var.y : "${x}{"])} %{ if var.z }}${"{"}%{ endif }"',
      '  type = "DNS Record"',
      '}',
    ].join('\n');
    const [r] = parseHcl(text, 'main.tf').blocks;
    const name = expr(text, r, 'name');
    expect(name.text).toBe('"${join("}", [for x in var.y : "${x}{"])} %{ if var.z }}${"{"}%{ endif }"');
    expect(literalOf(name.attr)).toBeUndefined();
    expect(name.attr.expr[0]).toMatchObject({ kind: 'string', template: true });
    expect(expr(text, r, 'type')).toMatchObject({ text: '"DNS Record"', line: 3 });
  });

  test('heredocs: <<EOF and <<-EOF with an indented marker, braces and templates in the body', () => {
    const text = [
      'resource "networkcalc_alert" "a" {',
      '  filter_value = <<EOT',
      'v=spf1 } { "',
      'EOTX is not the end',
      'EOT',
      '  name = <<-EOT',
      '    ${var.a} }',
      '    ${ {',
      '      k = "EOT"',
      '    }.k }',
      '    EOT',
      '  type = "x"',
      '}',
    ].join('\n');
    const [r] = parseHcl(text, 'main.tf').blocks;
    const fv = expr(text, r, 'filter_value');
    expect(fv).toMatchObject({ line: 2, endLine: 5 });
    expect(fv.text).toBe('<<EOT\nv=spf1 } { "\nEOTX is not the end\nEOT');
    expect(fv.attr.expr[0]).toMatchObject({ kind: 'heredoc', template: false });
    const name = expr(text, r, 'name');
    expect(name).toMatchObject({ line: 6, endLine: 11 });
    expect(name.text.endsWith('    EOT')).toBe(true);
    expect(name.attr.expr[0].template).toBe(true);
    expect(expr(text, r, 'type')).toMatchObject({ text: '"x"', line: 12 });
  });

  test('expressions over several lines end at their closing bracket; one-line blocks', () => {
    const text = [
      'resource "networkcalc_report_trigger" "t" {',
      '  triggers = {',
      '    alerts = join(",", [',
      '      networkcalc_alert.a.id, # }',
      '    ])',
      '  }',
      '  domain_id = 1',
      '}',
      'resource "networkcalc_alert" "b" { name = "{x}" }',
      'locals { a = { b = 1 } }',
    ].join('\n');
    const f = parseHcl(text, 'main.tf');
    expect(f.blocks.map((b) => b.labels[1] ?? b.type)).toEqual(['t', 'b', 'locals']);
    const triggers = expr(text, f.blocks[0], 'triggers');
    expect(triggers).toMatchObject({ line: 2, endLine: 6 });
    expect(triggers.text.endsWith('])\n  }')).toBe(true);
    expect(expr(text, f.blocks[0], 'domain_id').line).toBe(7);
    expect(expr(text, f.blocks[1], 'name')).toMatchObject({ text: '"{x}"', line: 9 });
    expect(expr(text, f.blocks[2], 'a').text).toBe('{ b = 1 }');
  });

  test('offsets count UTF-16 units, as JavaScript strings do', () => {
    const text = '# ünïcödé 🚨\nresource "networkcalc_alert" "a" {\n  name = "🚨 fire"\n}\n';
    const [r] = parseHcl(text, 'main.tf').blocks;
    expect(expr(text, r, 'name').text).toBe('"🚨 fire"');
    expect(literalOf(r.attributes[0])).toEqual({ kind: 'string', value: '🚨 fire' });
  });

  test('tokens: numbers, operators, identifiers with dashes', () => {
    const kinds = tokenizeHcl('a-b = 1.5e3 >= x...\n', 'x.tf').map((t) => [t.kind, t.text]);
    expect(kinds).toEqual([
      ['ident', 'a-b'],
      ['punct', '='],
      ['number', '1.5e3'],
      ['punct', '>='],
      ['ident', 'x'],
      ['punct', '...'],
      ['newline', '\n'],
    ]);
  });

  describe('shapes Terraform reads (checked with terraform console)', () => {
    test('a comment between a block type and its labels, and between a name and its =', () => {
      const text = 'resource /* a */ "networkcalc_alert" /* c */ "b" {\n  name /* c */ = "x"\n  type/**/= "y"\n}\n';
      const [b] = parseHcl(text, 'main.tf').blocks;
      expect(b.labels).toEqual(['networkcalc_alert', 'b']);
      expect(expr(text, b, 'name')).toMatchObject({ text: '"x"', line: 2 });
      expect(literalOf(b.attributes[1])).toEqual({ kind: 'string', value: 'y' });
      // A line comment still ends the line: labels on the next line are an error, as in HCL.
      expect(syntaxError('resource "a" # c\n "b" {\n}\n').line).toBe(1);
    });

    test('spaces after the closing marker of a heredoc', () => {
      const text = 'locals {\n  a = <<EOT\nhi\nEOT   \n  b = <<-EOT\n    x\n    EOT\t\n  c = 1\n}\n';
      const [b] = parseHcl(text, 'main.tf').blocks;
      expect(b.attributes.map((a) => a.name)).toEqual(['a', 'b', 'c']);
      expect(expr(text, b, 'a').text).toBe('<<EOT\nhi\nEOT');
      expect(literalOf(b.attributes[0])).toEqual({ kind: 'string', value: 'hi\n' });
      expect(literalOf(b.attributes[1])).toEqual({ kind: 'string', value: 'x\n' });
    });

    test('identifiers are Unicode ID_Start then ID_Continue: a combining mark continues one', () => {
      // "é" written as e + U+0301 COMBINING ACUTE ACCENT, and a digit of another script.
      const text = 'locals {\n  cafe\u0301 = 1\n  n\u0663 = 2\n}\n';
      const [b] = parseHcl(text, 'main.tf').blocks;
      expect(b.attributes.map((a) => a.name)).toEqual(['cafe\u0301', 'n\u0663']);
    });

    test('a quote or a brace inside a comment inside ${} is comment text', () => {
      const text = 'locals {\n  a = "${1 /* it\'s "q" } */ + 1}"\n  b = "${x # "\n}"\n  c = 3\n}\n';
      const [b] = parseHcl(text, 'main.tf').blocks;
      expect(b.attributes.map((a) => a.name)).toEqual(['a', 'b', 'c']);
      expect(expr(text, b, 'a').text).toBe('"${1 /* it\'s "q" } */ + 1}"');
      expect(expr(text, b, 'c').line).toBe(5);
    });

    test('a heredoc in a CRLF file keeps its \\r\\n line endings, as HCL does', () => {
      const text =
        'locals {\r\n  a = <<EOT\r\nhi\r\n  there\r\nEOT\r\n  b = <<-EOT\r\n    x\r\n      y\r\n    EOT\r\n}\r\n';
      const [b] = parseHcl(text, 'main.tf').blocks;
      expect(literalOf(b.attributes[0])).toEqual({ kind: 'string', value: 'hi\r\n  there\r\n' });
      expect(literalOf(b.attributes[1])).toEqual({ kind: 'string', value: 'x\r\n  y\r\n' });
    });

    test('<<-: a line of white space only keeps its spaces and does not count for the indentation', () => {
      const text = 'locals {\n  a = <<-EOT\n    x\n   \n          \n      y\n    EOT\n}\n';
      const [b] = parseHcl(text, 'main.tf').blocks;
      expect(literalOf(b.attributes[0])).toEqual({ kind: 'string', value: 'x\n   \n          \n  y\n' });
      const crlf = text.replace(/\n/g, '\r\n');
      const [c] = parseHcl(crlf, 'main.tf').blocks;
      expect(literalOf(c.attributes[0])).toEqual({ kind: 'string', value: 'x\r\n   \r\n          \r\n  y\r\n' });
    });
  });

  test('decodeString: the escapes of HCL', () => {
    expect(decodeString('"a\\nb\\t\\"\\\\ \\u00e9 $${x} %%{y}"')).toBe('a\nb\t"\\ é ${x} %{y}');
  });

  test.each([
    ['an unterminated string', 'resource "a" "b" {\n  name = "x\n}\n', 2, /unterminated string/],
    ['a block not closed', 'resource "a" "b" {\n  name = "x"\n', 1, /not closed: missing \}/],
    ['a stray }', 'a = 1\n}\n', 2, /unexpected \}/],
    ['an unterminated heredoc', 'resource "a" "b" {\n  x = <<EOT\nhello\n}\n', 2, /unterminated heredoc/],
    ['an argument without a value', 'resource "a" "b" {\n\n  name =\n}\n', 3, /has no value/],
    ['a bracket not closed', 'resource "a" "b" {\n  x = [1,\n}\n', 3, /unexpected \}/],
    ['an unexpected character', 'resource "a" "b" {\n  x = 1 ; 2\n}\n', 2, /unexpected character ";"/],
  ])('%s is an error naming the file and line', (_what, text, line, reason) => {
    const e = syntaxError(text);
    expect(e.line).toBe(line);
    expect(e.message).toMatch(new RegExp(`^bad\\.tf:${line}: `));
    expect(e.reason).toMatch(reason);
  });
});
