/**
 * Diagnostics are how a provider reports problems to terraform: a severity, a short
 * summary, an actionable detail and optionally the attribute at fault. User errors are
 * never gRPC errors; terraform would show those as a provider crash.
 */

export type Severity = 'error' | 'warning';

/** Steps into a value: attribute names, map keys (string) or list indexes (number). */
export type AttributePath = readonly (string | number)[];

export interface Diagnostic {
  readonly severity: Severity;
  readonly summary: string;
  readonly detail?: string;
  readonly path?: AttributePath;
}

export class Diagnostics {
  private readonly list: Diagnostic[] = [];

  addError(summary: string, detail?: string, path?: AttributePath): void {
    this.list.push({ severity: 'error', summary, detail, path });
  }

  addWarning(summary: string, detail?: string, path?: AttributePath): void {
    this.list.push({ severity: 'warning', summary, detail, path });
  }

  hasError(): boolean {
    return this.list.some((d) => d.severity === 'error');
  }

  get items(): readonly Diagnostic[] {
    return [...this.list];
  }
}

/** Wire form: tfplugin6.Diagnostic with enums as strings (proto-loader's enums: String). */
export interface DiagnosticMsg {
  severity: 'ERROR' | 'WARNING';
  summary: string;
  detail: string;
  attribute?: AttributePathMsg;
}

export interface AttributePathMsg {
  steps: ({ attribute_name: string } | { element_key_string: string } | { element_key_int: number })[];
}

/**
 * The first step is always an attribute name; later strings are attribute names too
 * (nested objects) unless marked as map keys by the caller, which none of ours need.
 */
export function pathToMsg(path: AttributePath): AttributePathMsg {
  return {
    steps: path.map((step) => (typeof step === 'number' ? { element_key_int: step } : { attribute_name: step })),
  };
}

export function diagnosticsToMsg(diags: Diagnostics): DiagnosticMsg[] {
  return diags.items.map((d) => ({
    severity: d.severity === 'error' ? 'ERROR' : 'WARNING',
    summary: d.summary,
    detail: d.detail ?? '',
    ...(d.path && d.path.length > 0 ? { attribute: pathToMsg(d.path) } : {}),
  }));
}
