import { addDays, dayState, dayTotal, type DayState, goalDateKeys, weekdayIndex } from '../../common/progress.js';
import { useMemo } from 'preact/hooks';
import type { Goal } from '../api.js';
import { formatDay, t, weekdayNames } from '../i18n/index.js';

const STATES: DayState[] = ['met', 'partly', 'missed', 'future'];
/** A dashboard card shows at most this many weeks around today; the goal page shows every day. */
const COMPACT_WEEKS = 6;

/**
 * The goal's days as a calendar (weeks in rows, Monday first). Each cell carries its state as text for assistive
 * technology and as a title, and a symbol as well as a colour, with a legend below.
 */
export function Heatmap({ goal, today, compact = false }: { goal: Goal; today: string; compact?: boolean }) {
  // Only the start and the length decide the days; a logged amount must not recompute them.
  const { start, days } = goal;
  const all = useMemo(() => goalDateKeys({ start, days }), [start, days]);
  const keys = useMemo(() => (compact ? compactWindow(all, today) : all), [all, today, compact]);
  if (keys.length === 0) return null;
  const lead = weekdayIndex(keys[0]!);
  return (
    <figure class="heatmap">
      <figcaption class="section-title">{t('heatmap.title')}</figcaption>
      <div class="heatmap-weekdays" aria-hidden="true">
        {weekdayNames().map((name, index) => (
          <span key={index}>{name}</span>
        ))}
      </div>
      <ol class="heatmap-grid" role="list">
        {Array.from({ length: lead }, (_, index) => (
          <li key={`lead-${index}`} class="cell cell-blank" aria-hidden="true" />
        ))}
        {keys.map((key) => {
          const state = dayState(goal, key, today);
          const label = t('heatmap.cell', {
            date: formatDay(key),
            done: dayTotal(goal.sets, key),
            target: goal.daily,
            state: t(`state.${state}`),
          });
          return (
            <li
              key={key}
              data-date={key}
              class={`cell cell-${state}${key === today ? ' cell-today' : ''}`}
              title={label}
            >
              <span aria-hidden="true">{Number(key.slice(8))}</span>
              <span class="visually-hidden">{label}</span>
            </li>
          );
        })}
      </ol>
      {compact && keys.length < all.length && <p class="hint">{t('heatmap.more')}</p>}
      <Legend />
    </figure>
  );
}

function Legend() {
  return (
    <ul class="legend" aria-label={t('heatmap.legend')}>
      {STATES.map((state) => (
        <li key={state}>
          <span class={`cell cell-${state} cell-sample`} aria-hidden="true" />
          {t(`state.${state}`)}
        </li>
      ))}
    </ul>
  );
}

/** Whole weeks: the last COMPACT_WEEKS weeks up to today's week, or the first ones before the goal starts. */
function compactWindow(keys: string[], today: string): string[] {
  const limit = COMPACT_WEEKS * 7;
  if (keys.length <= limit) return keys;
  if (today < keys[0]!) return keys.slice(0, limit);
  const anchor = today > keys[keys.length - 1]! ? keys[keys.length - 1]! : today;
  const endOfWeek = addDays(anchor, 6 - weekdayIndex(anchor));
  const startOfWindow = addDays(endOfWeek, 1 - limit);
  return keys.filter((key) => key >= startOfWindow && key <= endOfWeek);
}
