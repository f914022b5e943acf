/**
 * Text as a search compares it: lower case, accents dropped ("Müller" -> "muller"), and the letters Unicode does
 * not split into a letter and an accent written as their plain ones ("Łucja" -> "lucja", "Straße" -> "strasse"),
 * so a person typing without the accent, or on a keyboard without the letter, still finds it.
 */
export function searchKey(text: string): string {
  return text
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[łßøđæœ]/g, (letter) => PLAIN[letter]!);
}

const PLAIN: Record<string, string> = { ł: 'l', ß: 'ss', ø: 'o', đ: 'd', æ: 'ae', œ: 'oe' };

/** Whether every word of `query` occurs in `key` (a `searchKey`), in any order: "kowalska anna" finds Anna's. */
export function matchesSearch(key: string, query: string): boolean {
  return searchKey(query)
    .split(/\s+/)
    .every((word) => key.includes(word));
}
