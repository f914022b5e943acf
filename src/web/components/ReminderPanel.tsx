import { useState } from 'preact/hooks';
import { isReminderTime, type ReminderChannel } from '../../common/reminders.js';
import { api, type Goal, type Reminder } from '../api.js';
import { FieldProblem } from '../errors.js';
import { t } from '../i18n/index.js';
import { pushSupport, subscribeToPush } from '../push.js';
import { useLoad } from '../use-load.js';
import { useSubmit } from '../use-submit.js';
import { Field, FormMessage, Loaded } from './Field.js';

const DEFAULT_TIME = '19:00';

/**
 * Time and channel of the goal's daily reminder (issue 11); loaded lazily by ReminderSettings. The form shows only
 * once the saved reminder is known: offline or with the server away, the defaults would pass for the reminder.
 */
export function ReminderPanel({ goal }: { goal: Goal }) {
  const saved = useLoad(() => Promise.all([api.reminders(), api.preferences()]));
  return (
    <section class="card stack" aria-labelledby="reminder-title">
      <h2 id="reminder-title">{t('reminder.title')}</h2>
      <p class="muted">{t('reminder.intro')}</p>
      <Loaded load={saved}>
        {([reminders, preferences]) => (
          <ReminderForm
            goal={goal}
            reminder={reminders.find((each) => each.goal_id === goal.id)}
            zone={preferences.timezone}
          />
        )}
      </Loaded>
    </section>
  );
}

function ReminderForm({ goal, reminder, zone }: { goal: Goal; reminder: Reminder | undefined; zone: string | null }) {
  const support = pushSupport();
  const [time, setTime] = useState(reminder?.time ?? DEFAULT_TIME);
  const [channel, setChannel] = useState<ReminderChannel>(
    reminder?.channel ?? (support === 'available' ? 'push' : 'email'),
  );
  const [active, setActive] = useState(reminder !== undefined);
  const [pushRefused, setPushRefused] = useState(support === 'denied');

  const form = useSubmit(
    ['reminder-time'],
    async () => {
      if (!isReminderTime(time)) throw new FieldProblem('reminder-time', 'invalid_reminder_time');
      // The permission prompt comes from this tap, never from opening the page.
      if (channel === 'push' && (await subscribeToPush()) === 'denied') {
        setPushRefused(true);
        setChannel('email');
        return;
      }
      await api.setReminder(goal.id, time, channel);
      setActive(true);
      return () => t('reminder.saved');
    },
    { time: 'reminder-time' },
  );
  async function remove() {
    await api.removeReminder(goal.id);
    setActive(false);
    return () => t('reminder.removed');
  }

  const pushProblem =
    support === 'unavailable' ? t('reminder.pushUnavailable') : pushRefused ? t('reminder.pushDenied') : null;
  return (
    <form class="stack" onSubmit={form.submit} onInput={form.edited} noValidate aria-labelledby="reminder-title">
      <FormMessage error={form.formError} success={form.success} />
      <Field
        id="reminder-time"
        type="time"
        label={t('reminder.time')}
        required
        value={time}
        onValue={setTime}
        hint={zone ? t('reminder.zone', { zone }) : undefined}
        error={form.fieldError('reminder-time')}
      />
      <fieldset class="stack reminder-channel">
        <legend>{t('reminder.channel')}</legend>
        <label>
          <input
            type="radio"
            name="reminder-channel"
            value="push"
            checked={channel === 'push'}
            disabled={pushProblem !== null}
            onChange={() => setChannel('push')}
          />{' '}
          {t('reminder.push')}
        </label>
        <label>
          <input
            type="radio"
            name="reminder-channel"
            value="email"
            checked={channel === 'email'}
            onChange={() => setChannel('email')}
          />{' '}
          {t('reminder.email')}
        </label>
        {pushProblem && <p class="hint">{pushProblem}</p>}
      </fieldset>
      <div class="inline">
        <button type="submit" class="primary" disabled={form.busy}>
          {t('reminder.save')}
        </button>
        {active && (
          <button type="button" disabled={form.busy} onClick={() => void form.run(remove)}>
            {t('reminder.off')}
          </button>
        )}
      </div>
    </form>
  );
}
