import { useRef, useState } from 'preact/hooks';
import { Confirm } from '../components/Confirm.js';
import { isWithinGoal } from '../../common/progress.js';
import { api, type Goal } from '../api.js';
import { Chart } from '../components/Chart.js';
import { FormMessage } from '../components/Field.js';
import { GoalSummary } from '../components/GoalSummary.js';
import { Heatmap } from '../components/Heatmap.js';
import { Page } from '../components/Page.js';
import { PastDay } from '../components/PastDay.js';
import { QuickLog } from '../components/QuickLog.js';
import { ReminderSettings } from '../components/ReminderSettings.js';
import { useApp } from '../context.js';
import { t } from '../i18n/index.js';
import { href, navigate } from '../router.js';
import { useSubmit } from '../use-submit.js';
import { useToday } from '../use-today.js';
import { BackToGoals, GoalLoaded, OutboxStatus } from './goals.js';

/** One goal in full: progress, logging today and past days, the calendar, the chart, edit and delete. */
export function GoalDetailPage({ id }: { id: string }) {
  return <GoalLoaded id={id}>{(goal) => <GoalDetail goal={goal} />}</GoalLoaded>;
}

function GoalDetail({ goal }: { goal: Goal }) {
  const today = useToday();
  return (
    <Page title={goal.name}>
      <p class="crumb">
        <BackToGoals />
      </p>
      <OutboxStatus />
      <section class="card stack" aria-label={t('goal.stats')}>
        <GoalSummary goal={goal} today={today} size="large" />
        {isWithinGoal(goal, today) && <QuickLog goal={goal} today={today} />}
      </section>
      {/* Logging comes before looking back, so "Log or correct a day" is on the first screen of a phone. */}
      <PastDay goal={goal} today={today} />
      <section class="card">
        <Heatmap goal={goal} today={today} />
      </section>
      <section class="card">
        <Chart goal={goal} today={today} />
      </section>
      <ReminderSettings goal={goal} />
      <GoalActions goal={goal} />
    </Page>
  );
}

function GoalActions({ goal }: { goal: Goal }) {
  const app = useApp();
  const [confirming, setConfirming] = useState(false);
  const deleteButton = useRef<HTMLButtonElement>(null);
  const removal = useSubmit([], async () => {
    await api.deleteGoal(goal.id);
    app.dropGoal(goal.id);
    app.announce(t('goal.deleted'));
    navigate(href.goals);
  });

  function cancel() {
    setConfirming(false);
    // Cancel disappears with the question; focus returns to the button that asked it, enabled again by then.
    requestAnimationFrame(() => deleteButton.current?.focus());
  }

  return (
    <section class="card stack">
      <div class="inline">
        <a class="button" href={href.edit(goal.id)}>
          {t('goal.edit')}
        </a>
        <button
          ref={deleteButton}
          type="button"
          class="danger"
          onClick={() => setConfirming(true)}
          disabled={confirming}
          aria-expanded={confirming}
        >
          {t('goal.delete')}
        </button>
      </div>
      {confirming && (
        <Confirm
          id="confirm-text"
          question={t('goal.deleteConfirm', { name: goal.name })}
          yesLabel={t('goal.deleteYes')}
          busy={removal.busy}
          onYes={() => void removal.submit()}
          onCancel={cancel}
        />
      )}
      <FormMessage error={removal.formError} />
    </section>
  );
}
