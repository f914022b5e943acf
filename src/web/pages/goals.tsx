import type { ComponentChildren } from 'preact';
import { type Goal, unreachable } from '../api.js';
import { Loaded, LoadFailed } from '../components/Field.js';
import { withFigures } from '../components/Figure.js';
import { Page } from '../components/Page.js';
import { TodayRow } from '../components/TodayRow.js';
import { useApp } from '../context.js';
import { errorText } from '../errors.js';
import { todaySections } from '../goal-order.js';
import { t } from '../i18n/index.js';
import { href } from '../router.js';
import { goalStatusText } from '../goal-status.js';
import { useLoad } from '../use-load.js';
import { useToday } from '../use-today.js';

/** Today: one compact row per running goal; upcoming and finished goals in collapsed sections; archived ones not. */
export function GoalsPage() {
  const app = useApp();
  const today = useToday();
  return (
    <Page
      title={t('goals.title')}
      actions={
        <a class="button primary" href={href.newGoal}>
          + {t('goals.new')}
        </a>
      }
    >
      <OutboxStatus />
      <GoalsLoaded>
        {(goals) => {
          if (goals.length === 0) return <p class="card empty">{t('goals.empty')}</p>;
          const { running, upcoming, finished } = todaySections(goals, app.layout, today);
          return (
            <>
              {running.length > 0 && (
                <ul class="today-list" aria-label={t('goals.title')}>
                  {running.map((goal) => (
                    <TodayRow key={goal.id} goal={goal} today={today} />
                  ))}
                </ul>
              )}
              {running.length + upcoming.length + finished.length === 0 && (
                <p class="card empty">{t('today.allArchived')}</p>
              )}
              {upcoming.length > 0 && (
                <OtherGoals title={t('today.upcoming', { count: upcoming.length })} goals={upcoming}>
                  {(goal) => goalStatusText(goal, today, withFigures)}
                </OtherGoals>
              )}
              {finished.length > 0 && (
                <OtherGoals title={t('today.finished', { count: finished.length })} goals={finished}>
                  {(goal) => goalStatusText(goal, today, withFigures)}
                </OtherGoals>
              )}
              <p>
                <a href={href.arrange}>{t('today.arrange')}</a>
              </p>
            </>
          );
        }}
      </GoalsLoaded>
    </Page>
  );
}

/** A collapsed section of goals that cannot be logged today, each with one line about where it stands. */
function OtherGoals({
  title,
  goals,
  children,
}: {
  title: string;
  goals: Goal[];
  children: (goal: Goal) => ComponentChildren;
}) {
  return (
    <details class="card today-other">
      <summary>
        <h2>{title}</h2>
      </summary>
      <ul>
        {goals.map((goal) => (
          <li key={goal.id}>
            <a href={href.goal(goal.id)}>
              <bdi>{goal.name}</bdi>
            </a>{' '}
            <span class="muted">{children(goal)}</span>
          </li>
        ))}
      </ul>
    </details>
  );
}

/**
 * Whether the app is offline, and queued entries that were dropped (goal deleted elsewhere) or refused, said once
 * until dismissed: on Today and on the goal page, which both log through the outbox.
 */
export function OutboxStatus() {
  const app = useApp();
  return (
    <>
      {app.offline && <p class="card offline-note">{t('today.offline')}</p>}
      <Notices />
    </>
  );
}

function Notices() {
  const app = useApp();
  if (app.notices.length === 0) return null;
  return (
    <div class="notices" role="alert">
      {app.notices.map((notice) => (
        <p key={notice.id} class="card notice">
          <span>
            {notice.kind === 'goalGone'
              ? t('today.goalGone', { name: notice.goalName })
              : t('today.refused', { name: notice.goalName, reason: errorText(notice.error) })}
          </span>{' '}
          <button type="button" class="link-button" onClick={() => app.dismissNotice(notice.id)}>
            {t('today.dismiss')}
          </button>
        </p>
      ))}
    </div>
  );
}

/** Shows loading and load errors once, for every page that needs the goals. */
export function GoalsLoaded({ children }: { children: (goals: Goal[]) => ComponentChildren }) {
  const app = useApp();
  if (app.goalsError) {
    return (
      <div class="card">
        <LoadFailed error={errorText(app.goalsError)} onRetry={() => void app.reloadGoals()} />
      </div>
    );
  }
  if (!app.goals) return <p class="muted">{t('app.loading')}</p>;
  return <>{children(app.goals)}</>;
}

/** One goal of the loaded list, or a "not found" page when the id names none of the user's goals. */
export function GoalLoaded({ id, children }: { id: string; children: (goal: Goal) => ComponentChildren }) {
  return (
    <GoalsLoaded>
      {(goals) => {
        const goal = goals.find((candidate) => candidate.id === id);
        return goal ? children(goal) : <GoalNotKnownHere key={id} />;
      }}
    </GoalsLoaded>
  );
}

/**
 * A goal this device does not know may have been made on another one since the list was loaded (a link, a
 * reminder): the server is asked before the goal is called missing. When it cannot be asked (offline), that is
 * said, with Try again: "does not exist" would be a guess.
 */
export function GoalNotKnownHere() {
  const { reloadGoals } = useApp();
  const asked = useLoad(async () => {
    if (!(await reloadGoals())) throw unreachable();
    return true;
  });
  return <Loaded load={asked}>{() => <GoalMissing />}</Loaded>;
}

function GoalMissing() {
  return (
    <Page title={t('goal.notFound')}>
      <p>
        <BackToGoals />
      </p>
    </Page>
  );
}

export function BackToGoals() {
  return (
    <a href={href.goals}>
      <span aria-hidden="true">←</span> {t('goal.back')}
    </a>
  );
}
