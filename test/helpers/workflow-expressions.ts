/**
 * GitHub Actions expressions (`${{ … }}` and `if:`), as much of them as workflows of this
 * project use: literals ('text', numbers, true, false, null), contexts by dotted names
 * (`github.event_name`, `steps.drift.outputs.exit_code`, `needs.apply.result`,
 * `strategy.job-index`), `!`, `==`, `!=`, `&&`, `||` (which return an operand, as GitHub's do),
 * parentheses, and the functions format(), success(), failure(), always(), cancelled().
 * Anything else throws, so a workflow cannot pass by an expression read wrongly.
 */
export type Value = string | number | boolean | null | { [key: string]: Value } | Value[];
export interface Scope {
  contexts: Record<string, Value>;
  /** What success() and failure() see: whether a step before (or a needed job) failed. */
  failed: boolean;
}

const TOKEN =
  /\s*(?:('(?:[^']|'')*')|(\d+(?:\.\d+)?)|(==|!=|&&|\|\||[!().,])|([A-Za-z_][A-Za-z0-9_-]*(?:\.[A-Za-z_*][A-Za-z0-9_-]*)*))/y;

function tokens(source: string): string[] {
  const out: string[] = [];
  TOKEN.lastIndex = 0;
  while (TOKEN.lastIndex < source.length) {
    if (/^\s*$/.test(source.slice(TOKEN.lastIndex))) break;
    const m = TOKEN.exec(source);
    if (!m) throw new Error(`cannot read the expression ${source} at ${source.slice(TOKEN.lastIndex)}`);
    out.push(m[0].trim());
  }
  return out;
}

/** Truthiness as GitHub defines it: false, 0, '', null are false. */
export const truthy = (v: Value): boolean => !(v === false || v === 0 || v === '' || v === null);

const text = (v: Value): string => (v === null ? '' : typeof v === 'object' ? JSON.stringify(v) : String(v));

/** GitHub compares loosely: strings case-insensitively, other types as numbers. */
function equal(a: Value, b: Value): boolean {
  if (typeof a === 'string' && typeof b === 'string') return a.toLowerCase() === b.toLowerCase();
  if (typeof a === typeof b) return a === b;
  const num = (v: Value) => (v === null ? 0 : typeof v === 'boolean' ? Number(v) : Number(v));
  return num(a) === num(b);
}

export function evaluate(source: string, scope: Scope): Value {
  const t = tokens(source);
  let i = 0;
  const peek = () => t[i];
  const take = (want?: string) => {
    const got = t[i++];
    if (want !== undefined && got !== want) throw new Error(`expected ${want} in ${source}, found ${got}`);
    return got!;
  };
  const or = (): Value => {
    let left = and();
    while (peek() === '||') {
      take();
      const right = and();
      left = truthy(left) ? left : right;
    }
    return left;
  };
  const and = (): Value => {
    let left = comparison();
    while (peek() === '&&') {
      take();
      const right = comparison();
      left = truthy(left) ? right : left;
    }
    return left;
  };
  const comparison = (): Value => {
    const left = unary();
    if (peek() === '==' || peek() === '!=') {
      const op = take();
      const right = unary();
      return op === '==' ? equal(left, right) : !equal(left, right);
    }
    return left;
  };
  const unary = (): Value => (peek() === '!' ? (take(), !truthy(unary())) : primary());
  const primary = (): Value => {
    const tok = take();
    if (tok === '(') {
      const v = or();
      take(')');
      return v;
    }
    if (tok.startsWith("'")) return tok.slice(1, -1).replace(/''/g, "'");
    if (/^\d/.test(tok)) return Number(tok);
    if (tok === 'true' || tok === 'false') return tok === 'true';
    if (tok === 'null') return null;
    if (peek() === '(') return call(tok);
    return lookup(tok, scope);
  };
  const call = (name: string): Value => {
    take('(');
    const args: Value[] = [];
    while (peek() !== ')') {
      args.push(or());
      if (peek() === ',') take();
    }
    take(')');
    return fn(name, args, scope);
  };
  const v = or();
  if (i !== t.length) throw new Error(`cannot read the expression ${source} past ${t.slice(i).join(' ')}`);
  return v;
}

function fn(name: string, args: Value[], scope: Scope): Value {
  switch (name) {
    case 'format':
      return text(args[0]!).replace(/\{(\d+)\}/g, (_m, k: string) => text(args[Number(k) + 1] ?? null));
    case 'success':
      return !scope.failed;
    case 'failure':
      return scope.failed;
    case 'always':
      return true;
    case 'cancelled':
      return false;
    default:
      throw new Error(`the function ${name}() is not emulated`);
  }
}

function lookup(path: string, scope: Scope): Value {
  let v: Value = scope.contexts;
  for (const part of path.split('.')) {
    if (v === null || typeof v !== 'object' || Array.isArray(v)) return null;
    v = (v as Record<string, Value>)[part] ?? null;
  }
  return v;
}

/** `text` with every `${{ … }}` replaced by its value. */
export function interpolate(source: string, scope: Scope): string {
  return source.replace(/\$\{\{([\s\S]*?)\}\}/g, (_m, e: string) => text(evaluate(e, scope)));
}

/** An `if:` condition: with or without `${{ }}`; with no status function it means success() && …. */
export function condition(source: string | boolean | undefined, scope: Scope): boolean {
  if (source === undefined) return !scope.failed;
  if (typeof source === 'boolean') return source;
  const e = source.trim().replace(/^\$\{\{([\s\S]*)\}\}$/, '$1');
  const v = truthy(evaluate(e, scope));
  return /\b(success|failure|always|cancelled)\(/.test(e) ? v : v && !scope.failed;
}
