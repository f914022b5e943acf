import { beforeUnit, unitText } from '../../common/units.js';
import { formatNumber, spacedForUnit, template } from '../i18n/index.js';
import type { PluralKey, TextKey } from '../i18n/types.js';

/** A number that never breaks inside, however narrow its line (`.figure`): "136.000.001.174,06", never "…,0" "6". */
export function Figure({ value }: { value: number }) {
  return <span class="figure">{formatNumber(value)}</span>;
}

/** A goal's unit after a number, in its form for `count`, joined to the number as `beforeUnit` says. */
export function UnitAfter({ unit, count }: { unit: string; count: number }) {
  const shown = unitText(unit, count);
  return (
    <>
      {beforeUnit(shown)}
      <bdi>{shown}</bdi>
    </>
  );
}

/**
 * `t(key, vars)` (`tp` for a counted text, its count `vars.count`) with each number in it a Figure: the words around
 * them wrap, the numbers stay whole.
 */
export function withFigures(key: TextKey | PluralKey, vars: Record<string, string | number>) {
  return spacedForUnit(template(key, vars.count), vars.unit)
    .split(/\{(\w+)\}/)
    .map((part, index) => {
      if (index % 2 === 0) return part;
      const value = vars[part];
      return typeof value === 'number' ? <Figure value={value} /> : value;
    });
}
