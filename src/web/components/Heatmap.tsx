import {
  addDays,
  calendarWindow,
  type CalendarWindow,
  dayState,
  dayTotal,
  type DayState,
  goalDateKeys,
  openingMonth,
  weekdayIndex,
  weekRows,
} from '../../common/progress.js';
import { useMemo, useState } from 'preact/hooks';
import type { Goal } from '../api.js';
import { formatDay, formatMonth, formatMonthRange, t, weekdayNames } from '../i18n/index.js';

const STATES: DayState[] = ['met', 'partly', 'missed', 'future'];
/** A dashboard card shows at most this many weeks around today; the goal page shows a few months at a time. */
const COMPACT_WEEKS = 6;

/**
 * The goal's days as a calendar (weeks in rows, Monday first, the month at the start of its row). Each cell carries
 * its state as text for assistive technology and as a title, and a symbol as well as a colour, with a legend
 * below. A goal longer than the window (decision 0097) gets Earlier / Later buttons instead of thousands of cells.
 */
export function Heatmap({ goal, today, compact = false }: { goal: Goal; today: string; compact?: boolean }) {
  // Only the start and the length decide the days; a logged amount must not recompute them.
  const { start, days } = goal;
  const [firstMonth, setFirstMonth] = useState(() => openingMonth(today));
  const view = useMemo<CalendarWindow>(
    () =>
      compact
        ? { keys: compactWindow(goalDateKeys({ start, days }), today), previous: null, next: null }
        : calendarWindow({ start, days }, firstMonth),
    [start, days, today, compact, firstMonth],
  );
  const keys = view.keys;
  if (keys.length === 0) return null;
  const windowed = view.previous !== null || view.next !== null;
  return (
    <figure class="heatmap">
      <figcaption class="section-title">{t('heatmap.title')}</figcaption>
      {windowed && (
        <div class="heatmap-nav">
          <p class="heatmap-range" aria-live="polite">
            {t('heatmap.showing', { range: formatMonthRange(keys[0]!.slice(0, 7), keys.at(-1)!.slice(0, 7)) })}
          </p>
          <MoveButton to={view.previous} onMove={setFirstMonth} label={t('heatmap.earlier')} arrow="‹" />
          <MoveButton to={view.next} onMove={setFirstMonth} label={t('heatmap.later')} arrow="›" />
        </div>
      )}
      <div class="heatmap-weekdays" aria-hidden="true">
        <span />
        {weekdayNames().map((name, index) => (
          <span key={index}>{name}</span>
        ))}
      </div>
      <ol class="heatmap-grid" role="list">
        {weekRows(keys).map((row) => [
          <li key={`month-${row.week}`} class="heatmap-month" aria-hidden="true">
            {row.month && formatMonth(row.month)}
          </li>,
          ...row.dates.map((key, index) =>
            key === null ? (
              <li key={`blank-${row.week}-${index}`} class="cell cell-blank" aria-hidden="true" />
            ) : (
              <DayCell key={key} goal={goal} date={key} today={today} />
            ),
          ),
        ])}
      </ol>
      {compact && view.keys.length < days && <p class="hint">{t('heatmap.more')}</p>}
      <Legend />
    </figure>
  );
}

function DayCell({ goal, date, today }: { goal: Goal; date: string; today: string }) {
  const state = dayState(goal, date, today);
  const label = t('heatmap.cell', {
    date: formatDay(date),
    done: dayTotal(goal.sets, date),
    target: goal.daily,
    state: t(`state.${state}`),
  });
  return (
    <li data-date={date} class={`cell cell-${state}${date === today ? ' cell-today' : ''}`} title={label}>
      <span aria-hidden="true">{Number(date.slice(8))}</span>
      <span class="visually-hidden">{label}</span>
    </li>
  );
}

/**
 * Earlier / Later: stays focusable at the goal's ends (aria-disabled, not disabled), so the keyboard focus is not
 * dropped when the last window is reached.
 */
function MoveButton(props: { to: string | null; onMove: (month: string) => void; label: string; arrow: string }) {
  const { to } = props;
  const before = props.arrow === '‹';
  return (
    <button
      type="button"
      class="small"
      aria-disabled={to === null ? 'true' : undefined}
      onClick={() => to !== null && props.onMove(to)}
    >
      {before && <span aria-hidden="true">{props.arrow} </span>}
      {props.label}
      {!before && <span aria-hidden="true"> {props.arrow}</span>}
    </button>
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
function compactWindow(keys: readonly string[], today: string): readonly string[] {
  const limit = COMPACT_WEEKS * 7;
  if (keys.length <= limit) return keys;
  if (today < keys[0]!) return keys.slice(0, limit);
  const anchor = today > keys[keys.length - 1]! ? keys[keys.length - 1]! : today;
  const endOfWeek = addDays(anchor, 6 - weekdayIndex(anchor));
  const startOfWindow = addDays(endOfWeek, 1 - limit);
  return keys.filter((key) => key >= startOfWindow && key <= endOfWeek);
}
