/**
 * `items` in consecutive parts of at most `size`, in order: the rows or ids of one statement, kept far below the
 * bound parameters SQLite (32,766) and PostgreSQL (65,535) take.
 */
export function inParts<T>(items: readonly T[], size: number): T[][] {
  if (!Number.isInteger(size) || size < 1) throw new RangeError(`a part holds at least one item, not ${size}`);
  const parts: T[][] = [];
  for (let start = 0; start < items.length; start += size) parts.push(items.slice(start, start + size));
  return parts;
}
