import { axisTicks, chartKeys, dayTotal, goalDateKeys, isMet } from '../../common/progress.js';
import type { Goal } from '../api.js';
import { formatDay, formatNumber, t, tp } from '../i18n/index.js';
import { unitText } from '../../common/units.js';
import { UnitAfter } from './Figure.js';

const WIDTH = 300;
/** The CSS height of both pictures too at the usual text size (10rem), so the axis's text is never stretched. */
const HEIGHT = 160;
/** Room above the top tick and below zero, so their labels are not cut in half. */
const PAD = 8;
/** Width of the value axis per character of its longest label, in px (0.75rem digits). */
const CHAR_WIDTH = 7.5;

/**
 * Daily totals as bars (a long goal's last quarter) against the daily target (a dashed line), with a value axis of round ticks. Drawn by hand in
 * SVG; the whole picture has one accessible name, and met days are drawn solid, partial ones hatched, so colour is
 * not the only signal. Before anything is logged it says so instead of drawing an empty frame.
 */
export function Chart({ goal, today }: { goal: Goal; today: string }) {
  const keys = chartKeys(goal, today);
  if (keys.length === 0) return null;
  const totals = keys.map((key) => (key <= today ? dayTotal(goal.sets, key) : 0));
  const title = <figcaption class="section-title">{t('chart.title')}</figcaption>;
  if (!goalDateKeys(goal).some((key) => key <= today && dayTotal(goal.sets, key) > 0)) {
    return (
      <figure class="chart">
        {title}
        <p class="muted chart-empty">{t('chart.empty')}</p>
      </figure>
    );
  }
  const ticks = axisTicks(Math.max(goal.daily, ...totals));
  const top = ticks.at(-1)!;
  const labels = ticks.map(formatNumber);
  const axisWidth = Math.ceil(Math.max(...labels.map((label) => label.length)) * CHAR_WIDTH + 6);
  const slot = WIDTH / keys.length;
  const barWidth = Math.max(slot * 0.7, 0.5);
  const y = (value: number) => PAD + (1 - value / top) * (HEIGHT - 2 * PAD);
  return (
    <figure class="chart">
      {title}
      <div class="chart-plot">
        <svg
          class="chart-values"
          width={axisWidth}
          height={HEIGHT}
          viewBox={`0 0 ${axisWidth} ${HEIGHT}`}
          aria-hidden="true"
        >
          {ticks.map((tick, index) => (
            <text key={tick} x={axisWidth - 4} y={y(tick)} text-anchor="end" dominant-baseline="middle">
              {labels[index]}
            </text>
          ))}
        </svg>
        <svg
          class="chart-bars"
          viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
          preserveAspectRatio="none"
          role="img"
          aria-label={tp('chart.label', keys.length, {
            target: formatNumber(goal.daily),
            unit: unitText(goal.unit, goal.daily, 'of'),
          })}
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
          {ticks.slice(1).map((tick) => (
            <line
              key={tick}
              class="chart-grid"
              x1="0"
              y1={y(tick)}
              x2={WIDTH}
              y2={y(tick)}
              vector-effect="non-scaling-stroke"
            />
          ))}
          <line class="chart-axis" x1="0" y1={y(0)} x2={WIDTH} y2={y(0)} vector-effect="non-scaling-stroke" />
          {totals.map((total, index) =>
            total > 0 ? (
              <rect
                key={keys[index]}
                class={isMet(total, goal.daily) ? 'bar bar-met' : 'bar bar-partly'}
                fill={isMet(total, goal.daily) ? undefined : `url(#hatch-${goal.id})`}
                x={index * slot + (slot - barWidth) / 2}
                y={y(total)}
                width={barWidth}
                height={y(0) - y(total)}
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
      </div>
      <div class="chart-range">
        <span>{formatDay(keys[0]!)}</span>
        <span>{formatDay(keys.at(-1)!)}</span>
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
          {t('chart.target')} ({formatNumber(goal.daily)}
          <UnitAfter unit={goal.unit} count={goal.daily} />)
        </li>
      </ul>
    </figure>
  );
}
