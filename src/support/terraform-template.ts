/**
 * Terraform reads every string, in HCL and in the JSON configuration alike, as a template: `${`
 * starts an interpolation and `%{` a directive, and the literal sequences are written `$${` and
 * `%%{`. A run of n `$` (or `%`) before `{` reads back as n - 1 of them, so doubling the last
 * sigil of every `${` / `%{` round-trips any text. One home for both directions: the
 * constructs and `ncalc export` write literal text, `ncalc` reads it back from cdk.tf.json.
 */

/** Literal text as a Terraform string: `${` → `$${`, `%{` → `%%{`. */
export function escapeTemplateText(text: string): string {
  return text.replace(/\$\{/g, () => '$${').replace(/%\{/g, () => '%%{');
}

/** A literal Terraform string as the text it stands for: `$${` → `${`, `%%{` → `%{`. */
export function unescapeTemplate(v: string): string {
  // Most strings hold neither sequence: they are returned as they are, without two regex passes.
  if (!v.includes('$${') && !v.includes('%%{')) return v;
  return v.replace(/\$\$\{/g, () => '${').replace(/%%\{/g, () => '%{');
}

/** A lone `${` / `%{`: an interpolation or directive, not literal text. */
const TEMPLATE = /(^|[^$])\$\{|(^|[^%])%\{/;

/** Whether a Terraform string holds an interpolation or directive (which only Terraform can evaluate). */
export function holdsTemplate(v: string): boolean {
  return TEMPLATE.test(v);
}
