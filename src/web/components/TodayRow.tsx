import { useState } from 'preact/hooks';
import { dayTotal, quickAmounts, roundAmount, usualAmount } from '../../common/progress.js';
import type { Goal } from '../api.js';
import { formatNumber, t } from '../i18n/index.js';
import { todayRingLabel } from '../goal-status.js';
import { href } from '../router.js';
import { AmountForm } from './AmountForm.js';
import { useLogging } from './amounts.js';
import { PendingNote } from './PendingNote.js';
import { Ring } from './Ring.js';
import { UnitAfter } from './Figure.js';

/**
 * One running goal on Today: name (the goal page is one tap away), today's amount of the target, a small ring,
 * what is left, one large button logging the usual amount, undo, and the other amounts one tap away. Logging goes
 * through the outbox: the row changes at once; entries not yet sent are counted on the row. The buttons are never
 * disabled, so keyboard focus stays where it was after logging and after undo.
 */
export function TodayRow({ goal, today }: { goal: Goal; today: string }) {
  const [more, setMore] = useState(false);
  const done = dayTotal(goal.sets, today);
  const left = roundAmount(goal.daily - done);
  const usual = usualAmount(goal);
  const nameId = `today-${goal.id}-name`;
  const moreId = `today-${goal.id}-more`;

  const logging = useLogging(goal, today);

  return (
    <li class="today-row" aria-labelledby={nameId}>
      <div class="today-main">
        <Ring done={done} target={goal.daily} label={todayRingLabel(goal, today)} size="small" />
        <div class="today-text">
          <h2 id={nameId} class="today-name">
            <a href={href.goal(goal.id)}>
              <bdi>{goal.name}</bdi>
            </a>
          </h2>
          <p class="today-amounts">
            <span class="figure">{formatNumber(done)}</span> / <span class="figure">{formatNumber(goal.daily)}</span>
            <UnitAfter unit={goal.unit} count={goal.daily} />
            <span class="today-left">
              {' · '}
              {left > 0 ? t('today.left', { left }) : t('today.met')}
            </span>
          </p>
          <PendingNote goalId={goal.id} />
        </div>
        <button type="button" class="primary today-log" onClick={() => logging.log(usual)}>
          +{formatNumber(usual)}
          <span class="visually-hidden">
            {' '}
            {goal.unit}, {goal.name}
          </span>
        </button>
      </div>
      <div class="today-actions">
        <button
          type="button"
          class="link-button"
          aria-expanded={more}
          aria-controls={moreId}
          onClick={() => setMore(!more)}
        >
          {t('today.more')}
          <span class="visually-hidden"> – {goal.name}</span>
        </button>
        <button
          type="button"
          class="link-button today-undo"
          aria-disabled={logging.undoAmount() === null}
          onClick={() => logging.takeBack()}
        >
          <span aria-hidden="true">↶ </span>
          {t('today.undo')}
          <span class="visually-hidden"> – {goal.name}</span>
        </button>
      </div>
      {more && <OtherAmounts id={moreId} goal={goal} usual={usual} onAmount={logging.log} />}
    </li>
  );
}

/** The round steps and the target besides the usual amount, and any amount typed in. */
function OtherAmounts({
  id,
  goal,
  usual,
  onAmount,
}: {
  id: string;
  goal: Goal;
  usual: number;
  onAmount: (amount: number) => void;
}) {
  return (
    <div id={id} class="today-more" role="group" aria-label={t('today.moreFor', { name: goal.name })}>
      {quickAmounts(goal.daily)
        .filter((value) => value !== usual)
        .map((value) => (
          <button key={value} type="button" class="quick" onClick={() => onAmount(value)}>
            +{formatNumber(value)}
            <span class="visually-hidden"> {goal.unit}</span>
          </button>
        ))}
      <div class="today-custom">
        <AmountForm
          id={`${id}-custom`}
          label={`${t('goal.custom')} (${goal.unit})`}
          placeholder={t('goal.custom')}
          submitLabel={t('goal.add')}
          goal={goal}
          onAmount={onAmount}
        />
      </div>
    </div>
  );
}
