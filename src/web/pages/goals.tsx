import type { ComponentChildren } from 'preact';
import { isWithinGoal, localDateKey } from '../../common/progress.js';
import type { Goal } from '../api.js';
import { GoalSummary } from '../components/GoalSummary.js';
import { Heatmap } from '../components/Heatmap.js';
import { Page } from '../components/Page.js';
import { QuickLog } from '../components/QuickLog.js';
import { FormMessage } from '../components/Field.js';
import { useApp } from '../context.js';
import { errorText } from '../errors.js';
import { t } from '../i18n/index.js';
import { href } from '../router.js';

/** The dashboard: every goal with today's progress, one-tap logging and its recent calendar. */
export function GoalsPage() {
  const today = localDateKey(new Date());
  return (
    <Page
      title={t('goals.title')}
      actions={
        <a class="button primary" href={href.newGoal}>
          + {t('goals.new')}
        </a>
      }
    >
      <GoalsLoaded>
        {(goals) =>
          goals.length === 0 ? (
            <p class="card empty">{t('goals.empty')}</p>
          ) : (
            <div class="goal-list">
              {goals.map((goal) => (
                <GoalCard key={goal.id} goal={goal} today={today} />
              ))}
            </div>
          )
        }
      </GoalsLoaded>
    </Page>
  );
}

function GoalCard({ goal, today }: { goal: Goal; today: string }) {
  return (
    <article class="card goal-card" aria-labelledby={`goal-${goal.id}-name`}>
      <h2 id={`goal-${goal.id}-name`}>
        <a href={href.goal(goal.id)}>{goal.name}</a>
      </h2>
      <GoalSummary goal={goal} today={today} />
      {isWithinGoal(goal, today) && <QuickLog goal={goal} today={today} />}
      <Heatmap goal={goal} today={today} compact />
      <p>
        <a href={href.goal(goal.id)}>
          {t('goal.details')} <span class="visually-hidden">{goal.name}</span> <span aria-hidden="true">→</span>
        </a>
      </p>
    </article>
  );
}

/** Shows loading and load errors once, for every page that needs the goals. */
export function GoalsLoaded({ children }: { children: (goals: Goal[]) => ComponentChildren }) {
  const app = useApp();
  if (app.goalsError) {
    return (
      <div class="card stack">
        <FormMessage error={errorText(app.goalsError)} />
        <button type="button" onClick={() => void app.reloadGoals()}>
          {t('app.retry')}
        </button>
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
        return goal ? children(goal) : <GoalMissing />;
      }}
    </GoalsLoaded>
  );
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
