/** How text output is coloured: ANSI colours on a terminal, plain text elsewhere. */
export interface Style {
  green(s: string): string;
  yellow(s: string): string;
  red(s: string): string;
  bold(s: string): string;
  dim(s: string): string;
}

const ansi = (open: number, close: number) => (s: string) => `\u001b[${open}m${s}\u001b[${close}m`;
export const COLOR: Style = {
  green: ansi(32, 39),
  yellow: ansi(33, 39),
  red: ansi(31, 39),
  bold: ansi(1, 22),
  dim: ansi(2, 22),
};
const id = (s: string) => s;
export const PLAIN: Style = { green: id, yellow: id, red: id, bold: id, dim: id };
