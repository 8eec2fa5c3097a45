/**
 * Keys an object was given that its type does not have: a mistyped prop reaches a construct
 * from JavaScript or tsx (which does not type-check), and must be named, not ignored.
 */

/** Edits (insert, delete, replace, swap of neighbours) between two words, case ignored. */
function editDistance(a: string, b: string): number {
  const x = a.toLowerCase();
  const y = b.toLowerCase();
  let before: number[] = [];
  let previous = Array.from({ length: y.length + 1 }, (_, j) => j);
  for (let i = 1; i <= x.length; i++) {
    const row = [i];
    for (let j = 1; j <= y.length; j++) {
      const cost = x[i - 1] === y[j - 1] ? 0 : 1;
      let d = Math.min(previous[j]! + 1, row[j - 1]! + 1, previous[j - 1]! + cost);
      if (i > 1 && j > 1 && x[i - 1] === y[j - 2] && x[i - 2] === y[j - 1]) d = Math.min(d, before[j - 2]! + 1);
      row.push(d);
    }
    before = previous;
    previous = row;
  }
  return previous[y.length]!;
}

/** The candidate `word` most likely meant: at most a third of its letters off (one at least). */
export function closestWord(word: string, candidates: readonly string[]): string | undefined {
  const most = Math.max(1, Math.floor(word.length / 3));
  let best: string | undefined;
  let bestDistance = most + 1;
  for (const c of candidates) {
    const d = editDistance(word, c);
    if (d < bestDistance) [best, bestDistance] = [c, d];
  }
  return best;
}

/**
 * One sentence per key of `given` not in `known`: ``unknown property `dnsRecrod` (did you mean
 * `dnsRecord`?)``, or, with nothing close, the properties there are. `at`: where the object
 * stands (`dnsRecord`, `checks[0]`), so that a nested key is named by its whole path.
 */
export function unknownKeyMessages(given: object, known: readonly string[], at = ''): string[] {
  const path = (key: string) => (at ? `${at}.${key}` : key);
  const messages: string[] = [];
  for (const key of Object.keys(given)) {
    if (known.includes(key)) continue;
    const meant = closestWord(key, known);
    messages.push(
      meant !== undefined
        ? `unknown property \`${path(key)}\` (did you mean \`${path(meant)}\`?)`
        : `unknown property \`${path(key)}\`; the properties${at ? ` of ${at}` : ''} are ${known.join(', ')}`,
    );
  }
  return messages;
}
