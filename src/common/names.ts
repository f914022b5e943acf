/** Names as stored and shown on one line (decision 0205); apart from text.ts so the web app's start never loads it. */

/** Characters that break a line: C0, DEL and C1 controls (newline, tab, NEL ...) and Unicode's line separators. */
const LINE_BREAKING = /[\p{Cc}\u2028\u2029]+/gu;

/**
 * Characters that show as nothing on their own: white space, Unicode's Default_Ignorable_Code_Point (zero width space
 * and joiners, word joiner, byte order mark, soft hyphen, bidi marks, Hangul fillers, variation selectors, tags) and
 * the blank braille pattern, a known way to make a name that looks empty.
 */
const SHOWS_AS_NOTHING = /^[\s\p{Default_Ignorable_Code_Point}\u2800]$/u;

/** Invisible characters that change the visible one before them (❤ + U+FE0F is ❤️, tags make a subdivision flag). */
const CHANGES_THE_ONE_BEFORE = /^[\uFE00-\uFE0F\u180B-\u180D\u180F\u{E0020}-\u{E007F}\u{E0100}-\u{E01EF}]$/u;

/** The ends of a bidi embedding or override (PDF) and of a bidi isolate (PDI). */
const BIDI_CLOSERS = /[\u202C\u2069]/g;
const BIDI_OPENER = /[\u202A-\u202E\u2066-\u2068]/;

/** `text` on one line: each run of line-breaking characters becomes one space (mail headers, CSV rows, log lines). */
export function oneLine(text: string): string {
  return text.replace(LINE_BREAKING, ' ');
}

/**
 * A display name, goal name or unit, or invite note as stored (decision 0205): on one line (`oneLine`), and trimmed
 * of everything that shows as nothing at both ends, so a name of only zero width spaces is empty and meets the
 * empty-name refusal. A variation selector or tag right after the last visible character stays: it is part of it.
 * Scans by index rather than by an anchored regex, which is quadratic on a long invisible run not at the end.
 */
export function cleanName(raw: string): string {
  const text = oneLine(raw);
  let start = 0;
  while (start < text.length) {
    const char = charAt(text, start);
    if (!SHOWS_AS_NOTHING.test(char)) break;
    start += char.length;
  }
  let end = text.length;
  while (end > start) {
    const char = charBefore(text, end);
    if (!SHOWS_AS_NOTHING.test(char)) break;
    end -= char.length;
  }
  while (end > start && end < text.length) {
    const char = charAt(text, end);
    if (!CHANGES_THE_ONE_BEFORE.test(char)) break;
    end += char.length;
  }
  const kept = text.slice(start, end);
  // A bidi embedding or isolate opened inside stays closed: cut off, it would run on into the text after the name.
  if (!BIDI_OPENER.test(kept)) return kept;
  return kept + (text.slice(end).match(BIDI_CLOSERS)?.join('') ?? '');
}

/** The code point at `index` as a string (two code units for one beyond U+FFFF). */
function charAt(text: string, index: number): string {
  return String.fromCodePoint(text.codePointAt(index)!);
}

/** The code point that ends at `end`. */
function charBefore(text: string, end: number): string {
  const pair = end >= 2 ? text.codePointAt(end - 2)! : 0;
  return pair > 0xffff ? text.slice(end - 2, end) : text.slice(end - 1, end);
}
