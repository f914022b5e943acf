import { dayNumber, dayTotal, endDateKey, goalTotals, startDateKey, streaks } from '../../common/progress.js';
import type { Goal } from '../api.js';
import { useMemo } from 'preact/hooks';
import { goalPhase, goalStatusText, todayRingLabel } from '../goal-status.js';
import { formatDay, tp } from '../i18n/index.js';
import { unitText } from '../../common/units.js';
import { withFigures } from './Figure.js';
import { Ring } from './Ring.js';

/**
 * Where the goal stands. While it runs: today's ring and "35 / 50 today", day N of M, total vs daily × days,
 * streaks. Before it starts: when, and for how long. Once over: the whole total in the ring, when it ended, the best
 * streak.
 */
export function GoalSummary({
  goal,
  today,
  size = 'normal',
}: {
  goal: Goal;
  today: string;
  size?: 'normal' | 'large';
}) {
  const phase = goalPhase(goal, today);
  // Both walk every day of the goal (up to 3650); the goal object changes only when something is logged or edited.
  const totals = useMemo(() => goalTotals(goal), [goal]);
  const streak = useMemo(() => streaks(goal, today), [goal, today]);
  const status = goalStatusText(goal, today);
  return (
    <div class="summary">
      {phase === 'running' && (
        <Ring done={dayTotal(goal.sets, today)} target={goal.daily} label={todayRingLabel(goal, today)} size={size} />
      )}
      {phase === 'finished' && <Ring done={totals.done} target={totals.target} label={status} size={size} />}
      <ul class="facts">
        <li class="fact-today">{goalStatusText(goal, today, withFigures)}</li>
        {phase === 'upcoming' && <li>{tp('goal.runs', goal.days, { date: formatDay(startDateKey(goal)) })}</li>}
        {phase === 'running' && (
          <>
            <li>{withFigures('goal.dayOf', { day: dayNumber(goal, today), days: goal.days })}</li>
            <li>
              {withFigures('goal.total', {
                done: totals.done,
                target: totals.target,
                unit: unitText(goal.unit, totals.target, 'of'),
              })}
            </li>
            <li>
              <span class="figure">{tp('goal.streak', streak.current)}</span> ·{' '}
              <span class="figure">{tp('goal.bestStreak', streak.best)}</span>
            </li>
          </>
        )}
        {phase === 'finished' && (
          <>
            <li>{tp('goal.ended', goal.days, { date: formatDay(endDateKey(goal)) })}</li>
            <li>{tp('goal.bestStreak', streak.best)}</li>
          </>
        )}
      </ul>
    </div>
  );
}
