import { Token } from '../cdk';
import { escapeTemplateText } from '../support/terraform-template';

/**
 * True for text without `{`: no template sequence to escape and no cdktf token (string, list
 * and map tokens are all encoded as `<sigil>{TfToken[…]}`), so it is written as it is. One
 * character search instead of a regular expression per string.
 */
export function isPlainText(value: string): boolean {
  return !value.includes('{');
}

/** A cdktf string token as embedded in a string, e.g. `${TfToken[TOKEN.12]}`. */
const STRING_TOKEN = /\$\{TfToken\[[a-zA-Z0-9:._-]+\]\}/g;

/**
 * A user-given string as it must appear in the synthesized JSON: its literal text escaped
 * for Terraform's template syntax, the cdktf tokens it embeds (references resolved at synth)
 * passed through unchanged. Non-strings are returned as they are.
 */
export function terraformLiteral<T>(value: T): T {
  if (typeof value !== 'string') return value;
  if (isPlainText(value)) return value; // most names and values: nothing to escape, no token to look for
  if (!Token.isUnresolved(value)) return escapeTemplateText(value) as T;
  let out = '';
  let last = 0;
  for (const m of value.matchAll(STRING_TOKEN)) {
    out += escapeTemplateText(value.slice(last, m.index)) + m[0];
    last = (m.index ?? 0) + m[0].length;
  }
  return (out + escapeTemplateText(value.slice(last))) as T;
}
