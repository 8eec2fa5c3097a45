/**
 * Items grouped by a key, in the order each key was first seen and, within a group, in the
 * order given. `key` returns undefined for an item to leave out.
 */
export function groupBy<T, K>(items: Iterable<T>, key: (item: T, index: number) => K | undefined): Map<K, T[]> {
  const groups = new Map<K, T[]>();
  let i = 0;
  for (const item of items) {
    const k = key(item, i++);
    if (k === undefined) continue;
    const group = groups.get(k);
    if (group) group.push(item);
    else groups.set(k, [item]);
  }
  return groups;
}
