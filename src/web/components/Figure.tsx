import { formatNumber, template } from '../i18n/index.js';
import type { PluralKey, TextKey } from '../i18n/types.js';

/** A number that never breaks inside, however narrow its line (`.figure`): "136.000.001.174,06", never "…,0" "6". */
export function Figure({ value }: { value: number }) {
  return <span class="figure">{formatNumber(value)}</span>;
}

/**
 * `t(key, vars)` (`tp` for a counted text, its count `vars.count`) with each number in it a Figure: the words around
 * them wrap, the numbers stay whole.
 */
export function withFigures(key: TextKey | PluralKey, vars: Record<string, string | number>) {
  return template(key, vars.count)
    .split(/\{(\w+)\}/)
    .map((part, index) => {
      if (index % 2 === 0) return part;
      const value = vars[part];
      return typeof value === 'number' ? <Figure value={value} /> : value;
    });
}
