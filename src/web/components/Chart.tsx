import { dayTotal, endDateKey, goalDateKeys, isMet, startDateKey } from '../../common/progress.js';
import type { Goal } from '../api.js';
import { formatDay, formatNumber, t } from '../i18n/index.js';

const WIDTH = 300;
const HEIGHT = 120;

/**
 * Daily totals as bars against the daily target (a dashed line). Drawn by hand in SVG; the whole picture has one
 * accessible name, and met days are drawn solid, partial ones hatched, so colour is not the only signal.
 */
export function Chart({ goal, today }: { goal: Goal; today: string }) {
  const keys = goalDateKeys(goal);
  if (keys.length === 0) return null;
  const totals = keys.map((key) => (key <= today ? dayTotal(goal.sets, key) : 0));
  const top = Math.max(goal.daily, ...totals) * 1.15 || 1;
  const slot = WIDTH / keys.length;
  const barWidth = Math.max(slot * 0.7, 0.5);
  const y = (value: number) => HEIGHT - (value / top) * HEIGHT;
  return (
    <figure class="chart">
      <figcaption class="section-title">{t('chart.title')}</figcaption>
      <svg
        viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
        preserveAspectRatio="none"
        role="img"
        aria-label={t('chart.label', { days: keys.length, target: goal.daily, unit: goal.unit })}
      >
        <defs>
          <pattern
            id={`hatch-${goal.id}`}
            class="hatch"
            width="4"
            height="4"
            patternUnits="userSpaceOnUse"
            patternTransform="rotate(45)"
          >
            <rect class="hatch-bg" width="4" height="4" />
            <line class="hatch-line" x1="0" y1="0" x2="0" y2="4" />
          </pattern>
        </defs>
        <line class="chart-axis" x1="0" y1={HEIGHT} x2={WIDTH} y2={HEIGHT} vector-effect="non-scaling-stroke" />
        {totals.map((total, index) =>
          total > 0 ? (
            <rect
              key={keys[index]}
              class={isMet(total, goal.daily) ? 'bar bar-met' : 'bar bar-partly'}
              fill={isMet(total, goal.daily) ? undefined : `url(#hatch-${goal.id})`}
              x={index * slot + (slot - barWidth) / 2}
              y={y(total)}
              width={barWidth}
              height={HEIGHT - y(total)}
            />
          ) : null,
        )}
        <line
          class="chart-target"
          x1="0"
          y1={y(goal.daily)}
          x2={WIDTH}
          y2={y(goal.daily)}
          vector-effect="non-scaling-stroke"
        />
      </svg>
      <div class="chart-range">
        <span>{formatDay(startDateKey(goal))}</span>
        <span>{formatDay(endDateKey(goal))}</span>
      </div>
      <ul class="legend">
        <li>
          <span class="swatch swatch-met" aria-hidden="true" />
          {t('state.met')}
        </li>
        <li>
          <span class="swatch swatch-partly" aria-hidden="true" />
          {t('state.partly')}
        </li>
        <li>
          <span class="swatch swatch-target" aria-hidden="true" />
          {t('chart.target')} ({formatNumber(goal.daily)} {goal.unit})
        </li>
      </ul>
    </figure>
  );
}
