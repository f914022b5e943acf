import { GOAL_DEFAULTS, isDailyTarget, isDateKey, isDayCount } from '../../common/goal.js';
import { LIMITS } from '../../common/limits.js';
import { startDateKey } from '../../common/progress.js';
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { api, ApiError, type Goal, type GoalFields, type GoalInput } from '../api.js';
import { Field, FormMessage } from '../components/Field.js';
import { Page } from '../components/Page.js';
import { useApp } from '../context.js';
import { checkLength, FieldProblem } from '../errors.js';
import { GOAL_FIELDS, type GoalField, goalFieldLabel } from '../goal-fields.js';
import { formatForInput, parseDecimal, t, uiLocale } from '../i18n/index.js';
import { suggestedUnits } from '../../common/units.js';
import { href, navigate } from '../router.js';
import { useFields } from '../use-fields.js';
import { useRetryKey } from '../retry-key.js';
import { useSubmit } from '../use-submit.js';
import { useToday } from '../use-today.js';
import { GoalNotKnownHere, GoalsLoaded } from './goals.js';

export function NewGoalPage() {
  return <GoalForm goal={null} />;
}

export function EditGoalPage({ id }: { id: string }) {
  // The store's copy may be a minute old (REFRESH_MS): the fields a person leaves as they are follow the answer.
  const { reloadGoals } = useApp();
  useEffect(() => void reloadGoals(), [reloadGoals]);
  // The goal as this form last had it: deleted on another device while the form is open, it keeps the form, and
  // what was typed there, in the same place of the tree (decision 0202).
  const seen = useRef<Goal | null>(null);
  return (
    <GoalsLoaded>
      {(goals) => {
        const goal = goals.find((candidate) => candidate.id === id);
        if (goal) seen.current = goal;
        const shown = goal ?? (seen.current?.id === id ? seen.current : null);
        return shown ? <GoalForm goal={shown} gone={!goal} /> : <GoalNotKnownHere key={id} />;
      }}
    </GoalsLoaded>
  );
}

/**
 * Creates a goal (the start is the user's local date) or edits one (the start cannot change). `gone`: the edited
 * goal was deleted on another device; the form then offers to save its fields as a new goal, or to leave.
 */
function GoalForm({ goal, gone = false }: { goal: Goal | null; gone?: boolean }) {
  const app = useApp();
  // A save answered "not found" learnt of the deletion before the list did.
  const [refused, setRefused] = useState(false);
  const deleted = goal !== null && (gone || refused);
  const editing = goal !== null && !deleted;
  // A goal that changes on another device while the form is open brings its new texts into the untouched fields;
  // a new goal's start left as it was moves to the new day at midnight (decision 0209), never yesterday's date.
  const today = useToday();
  const latest = useMemo(() => formTexts(goal, today), [goal, today]);
  const { values, setter, changed, changedElsewhere } = useFields(latest);
  const { name, unit, daily, days, start } = values;
  // Set once the server took this form's edit: the goal changed by it is not another device's change ("9.0" saved
  // reads "9"), and the form is being left.
  const saved = useRef(false);
  /** The field's hint, or what another device made of a field changed here too (decision 0186). */
  const hint = (field: GoalField, usual?: string) => {
    const there = saved.current ? undefined : changedElsewhere(field);
    return there === undefined ? usual : t('goalForm.changedElsewhere', { value: there });
  };
  // A creation retried after a lost answer makes one goal, not two (decision 0130).
  const createKey = useRetryKey();

  const form = useSubmit(GOAL_FIELDS, async () => {
    const input: GoalInput = {
      name: name.trim(),
      // "2,5" in German and Polish (decision 0096); anything unreadable fails `isDailyTarget` below.
      daily: parseDecimal(daily) ?? Number.NaN,
      days: Number(days),
      ...(unit.trim() ? { unit: unit.trim() } : {}),
    };
    checkLocally(input, daily, start, !editing);
    if (editing) {
      // Only the fields changed here: another device may have changed the others since this form opened.
      const edits: GoalFields = Object.fromEntries(
        Object.entries(input).filter(([key]) => changed.includes(key as keyof GoalFields)),
      );
      try {
        await api.updateGoal(goal.id, edits);
      } catch (failure) {
        if (!(failure instanceof ApiError && failure.code === 'goal_not_found')) throw failure;
        setRefused(true);
        void app.reloadGoals();
        return;
      }
      saved.current = true;
      app.changeGoal(goal.id, edits);
      void app.reloadGoals();
      app.announce(t('app.saved'));
      navigate(href.goal(goal.id));
    } else {
      const body = { ...input, start };
      const created = await api.createGoal(body, createKey.keyFor(JSON.stringify(body)));
      createKey.done();
      app.addGoal(created);
      navigate(href.goal(created.id));
    }
  });

  return (
    <Page title={goal ? t('goalForm.editTitle') : t('goalForm.newTitle')}>
      <p class="crumb">
        <a href={editing ? href.goal(goal.id) : href.goals}>
          <span aria-hidden="true">←</span> {editing ? goal.name : t('goal.back')}
        </a>
      </p>
      <form class="card stack" onSubmit={form.submit} noValidate>
        {/* An alert: the person is typing in a form whose goal just went away. */}
        {deleted && (
          <p class="form-error" role="alert">
            {t('goalForm.deletedElsewhere')}
          </p>
        )}
        <FormMessage error={form.formError} />
        <Field
          id="name"
          label={goalFieldLabel('name')}
          hint={hint('name', t('goalForm.nameHint'))}
          required
          limit={LIMITS.goalNameMax}
          value={name}
          onValue={setter('name')}
          error={form.fieldError('name')}
        />
        <div class="row">
          <Field
            id="daily"
            label={goalFieldLabel('daily')}
            inputMode="decimal"
            autoComplete="off"
            required
            value={daily}
            onValue={setter('daily')}
            hint={hint('daily')}
            error={form.fieldError('daily')}
          />
          <Field
            id="unit"
            label={goalFieldLabel('unit')}
            limit={LIMITS.goalUnitMax}
            list="unit-suggestions"
            autoComplete="off"
            value={unit}
            onValue={setter('unit')}
            hint={hint('unit')}
            error={form.fieldError('unit')}
          />
        </div>
        <datalist id="unit-suggestions">
          {suggestedUnits(uiLocale()).map((suggestion) => (
            <option key={suggestion} value={suggestion} />
          ))}
        </datalist>
        <div class="row">
          <Field
            id="days"
            label={goalFieldLabel('days')}
            type="number"
            inputMode="numeric"
            min="1"
            max={LIMITS.goalDaysMax}
            step="1"
            required
            value={days}
            onValue={setter('days')}
            hint={hint('days')}
            error={form.fieldError('days')}
          />
          <Field
            id="start"
            label={goalFieldLabel('start')}
            type="date"
            required
            value={start}
            onValue={setter('start')}
            disabled={editing}
            hint={editing ? t('goalForm.startFixed') : undefined}
            error={form.fieldError('start')}
          />
        </div>
        <div class="inline">
          <button class="primary" type="submit" disabled={form.busy}>
            {editing ? t('goalForm.save') : deleted ? t('goalForm.saveAsNew') : t('goalForm.create')}
          </button>
          {deleted && <a href={href.goals}>{t('goalForm.leave')}</a>}
        </div>
      </form>
    </Page>
  );
}

/** The form's texts for a goal, or for a new one starting `today`. */
function formTexts(goal: Goal | null, today: string) {
  return {
    name: goal?.name ?? '',
    // A counted unit of the user's language (decision 0096); the API's own default, `Stück`, is for API clients.
    unit: goal?.unit ?? suggestedUnits(uiLocale())[0]!,
    daily: formatForInput(goal?.daily ?? 10),
    days: String(goal?.days ?? GOAL_DEFAULTS.days),
    start: goal ? startDateKey(goal) : today,
  };
}

/** The server's rules (shared from common/goal.ts), checked first so the message appears without a round trip. */
function checkLocally(input: GoalInput, dailyTyped: string, start: string, isNew: boolean): void {
  if (!input.name) throw new FieldProblem('name', 'missing_field');
  checkLength('name', input.name, LIMITS.goalNameMax, 'invalid_goal');
  checkLength('unit', input.unit ?? '', LIMITS.goalUnitMax, 'invalid_goal');
  // Typed but no number ("1e6", "abc"): how to write it, where an empty field is told the range (decision 0191).
  if (Number.isNaN(input.daily) && dailyTyped.trim())
    throw new FieldProblem('daily', 'invalid_goal', 'goal.amountDigits');
  if (!isDailyTarget(input.daily)) throw new FieldProblem('daily', 'invalid_goal');
  if (!isDayCount(input.days)) throw new FieldProblem('days', 'invalid_goal');
  if (isNew && !isDateKey(start)) throw new FieldProblem('start', 'invalid_goal');
}
