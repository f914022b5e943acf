import { useEffect, useRef, useState } from 'preact/hooks';
import { isWithinGoal, localDateKey } from '../../common/progress.js';
import { api, type Goal } from '../api.js';
import { Chart } from '../components/Chart.js';
import { FormMessage } from '../components/Field.js';
import { GoalSummary } from '../components/GoalSummary.js';
import { Heatmap } from '../components/Heatmap.js';
import { Page } from '../components/Page.js';
import { PastDay } from '../components/PastDay.js';
import { QuickLog } from '../components/QuickLog.js';
import { useApp } from '../context.js';
import { errorText } from '../errors.js';
import { t } from '../i18n/index.js';
import { href, navigate } from '../router.js';
import { GoalsLoaded } from './goals.js';

/** One goal in full: progress, logging, every day in the calendar, the chart, past days, edit and delete. */
export function GoalDetailPage({ id }: { id: string }) {
  return (
    <GoalsLoaded>
      {(goals) => {
        const goal = goals.find((candidate) => candidate.id === id);
        if (!goal) return <GoalMissing />;
        return <GoalDetail goal={goal} />;
      }}
    </GoalsLoaded>
  );
}

export function GoalMissing() {
  return (
    <Page title={t('goal.notFound')}>
      <p>
        <a href={href.goals}>← {t('goal.back')}</a>
      </p>
    </Page>
  );
}

function GoalDetail({ goal }: { goal: Goal }) {
  const today = localDateKey(new Date());
  return (
    <Page title={goal.name}>
      <p class="crumb">
        <a href={href.goals}>← {t('goal.back')}</a>
      </p>
      <section class="card stack" aria-label={t('goal.stats')}>
        <GoalSummary goal={goal} today={today} size="large" />
        {isWithinGoal(goal, today) && <QuickLog goal={goal} today={today} />}
      </section>
      <section class="card">
        <Heatmap goal={goal} today={today} />
      </section>
      <section class="card">
        <Chart goal={goal} today={today} />
      </section>
      <PastDay goal={goal} today={today} />
      <GoalActions goal={goal} />
    </Page>
  );
}

function GoalActions({ goal }: { goal: Goal }) {
  const app = useApp();
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const yes = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (confirming) yes.current?.focus();
  }, [confirming]);

  async function remove() {
    setBusy(true);
    setError(null);
    try {
      await api.deleteGoal(goal.id);
      app.dropGoal(goal.id);
      app.announce(t('goal.deleted'));
      navigate(href.goals);
    } catch (failure) {
      setError(errorText(failure));
      setBusy(false);
    }
  }

  return (
    <section class="card stack actions">
      <div class="inline">
        <a class="button" href={href.edit(goal.id)}>
          {t('goal.edit')}
        </a>
        <button type="button" class="danger" onClick={() => setConfirming(true)} disabled={confirming} aria-expanded={confirming}>
          {t('goal.delete')}
        </button>
      </div>
      {confirming && (
        <div class="confirm" role="group" aria-labelledby="confirm-text">
          <p id="confirm-text">{t('goal.deleteConfirm', { name: goal.name })}</p>
          <div class="inline">
            <button ref={yes} type="button" class="danger" disabled={busy} onClick={() => void remove()}>
              {t('goal.deleteYes')}
            </button>
            <button type="button" onClick={() => setConfirming(false)}>
              {t('app.cancel')}
            </button>
          </div>
        </div>
      )}
      <FormMessage error={error} />
    </section>
  );
}
