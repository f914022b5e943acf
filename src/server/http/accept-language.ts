import { type Locale, preferredLocale } from '../../common/locales.js';

/**
 * The language of `Accept-Language` Steady speaks, for a page shown to someone the server cannot name (a damaged
 * reminder link): the tags in the order of their `q` (the header's order among equals; `q=0` means "not this"),
 * then the first Steady speaks, as the web app picks from the browser's languages; else English.
 */
export function acceptLanguageLocale(header: string | undefined): Locale {
  const tags = (header ?? '')
    .split(',')
    .map((part, index) => {
      const [tag = '', ...parameters] = part.split(';').map((piece) => piece.trim());
      const q = parameters.find((parameter) => /^q=/i.test(parameter));
      const weight = q === undefined ? 1 : Number(q.slice(2));
      return { tag, weight: Number.isFinite(weight) ? weight : 0, index };
    })
    .filter(({ tag, weight }) => tag !== '' && weight > 0)
    .sort((a, b) => b.weight - a.weight || a.index - b.index);
  return preferredLocale(tags.map(({ tag }) => tag));
}
