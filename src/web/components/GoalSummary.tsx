import { dayNumber, daysBetween, dayTotal, goalTotals, startDateKey, streaks } from '../../common/progress.js';
import type { Goal } from '../api.js';
import { useMemo } from 'preact/hooks';
import { t, tp } from '../i18n/index.js';
import { Ring } from './Ring.js';

/** Where the goal stands: today's ring and "35 / 50 today", day N of M, total vs daily × days, streaks. */
export function GoalSummary({
  goal,
  today,
  size = 'normal',
}: {
  goal: Goal;
  today: string;
  size?: 'normal' | 'large';
}) {
  const done = dayTotal(goal.sets, today);
  const day = dayNumber(goal, today);
  // Both walk every day of the goal (up to 3650); the goal object changes only when something is logged or edited.
  const totals = useMemo(() => goalTotals(goal), [goal]);
  const streak = useMemo(() => streaks(goal, today), [goal, today]);
  return (
    <div class="summary">
      <Ring done={done} target={goal.daily} unit={goal.unit} size={size} />
      <ul class="facts">
        <li class="fact-today">{t('goal.todayText', { done, target: goal.daily, unit: goal.unit })}</li>
        <li>
          {day === 0
            ? tp('goal.startsIn', daysBetween(today, startDateKey(goal)))
            : day > goal.days
              ? tp('goal.finished', goal.days)
              : t('goal.dayOf', { day, days: goal.days })}
        </li>
        <li>{t('goal.total', { done: totals.done, target: totals.target, unit: goal.unit })}</li>
        <li>
          {tp('goal.streak', streak.current)} · {tp('goal.bestStreak', streak.best)}
        </li>
      </ul>
    </div>
  );
}
