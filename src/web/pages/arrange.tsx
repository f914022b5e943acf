import type { ComponentChildren } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import type { Goal } from '../api.js';
import { FormMessage } from '../components/Field.js';
import { Page } from '../components/Page.js';
import { useApp } from '../context.js';
import { errorText } from '../errors.js';
import { inUserOrder, isArchived } from '../goal-order.js';
import { t } from '../i18n/index.js';
import { href } from '../router.js';
import { BackToGoals, GoalsLoaded } from './goals.js';

/** Where the next render puts the keyboard focus: the same action on the same goal, or its neighbour button. */
interface FocusWish {
  goalId: string;
  action: 'up' | 'down' | 'archive' | 'restore';
}

/**
 * Order and archive (decision 0093): move buttons that work by keyboard (the focus follows the moved goal), archive
 * and restore. Every change is shown at once and saved on the server, so every device shows the same Today.
 */
export function ArrangePage() {
  const app = useApp();
  const [error, setError] = useState<unknown>(null);
  const [focus, setFocus] = useState<FocusWish | null>(null);
  const list = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (!focus || !list.current) return;
    const own = list.current.querySelector<HTMLElement>(`[data-goal="${focus.goalId}"][data-action="${focus.action}"]`);
    const target =
      own && own.getAttribute('aria-disabled') !== 'true'
        ? own
        : list.current.querySelector<HTMLElement>(
            `[data-goal="${focus.goalId}"][data-action]:not([aria-disabled="true"])`,
          );
    target?.focus();
  });

  async function run(change: () => Promise<void>, done: string) {
    setError(null);
    try {
      await change();
      app.announce(done);
    } catch (failure) {
      setError(failure);
    }
  }

  return (
    <Page title={t('arrange.title')}>
      <p>
        <BackToGoals />
      </p>
      <FormMessage error={error === null ? null : errorText(error)} />
      <GoalsLoaded>
        {(goals) => {
          const ordered = inUserOrder(goals, app.layout);
          const active = ordered.filter((goal) => !isArchived(app.layout, goal.id));
          const archived = ordered.filter((goal) => isArchived(app.layout, goal.id));
          const move = (goal: Goal, by: -1 | 1) => {
            const ids = active.map((item) => item.id);
            const from = ids.indexOf(goal.id);
            const to = from + by;
            if (to < 0 || to >= ids.length) return;
            [ids[from], ids[to]] = [ids[to]!, ids[from]!];
            setFocus({ goalId: goal.id, action: by < 0 ? 'up' : 'down' });
            // Archived goals keep their places after the active ones.
            void run(
              () => app.setOrder([...ids, ...archived.map((item) => item.id)]),
              t('arrange.moved', { name: goal.name, place: to + 1 }),
            );
          };
          const archive = (goal: Goal, value: boolean) => {
            const neighbours = value ? active : archived;
            const index = neighbours.indexOf(goal);
            const next = neighbours[index + 1] ?? neighbours[index - 1];
            // The pressed button leaves this list: the focus goes to the next goal's same button.
            setFocus(next ? { goalId: next.id, action: value ? 'archive' : 'restore' } : null);
            void run(
              () => app.setArchived(goal.id, value),
              t(value ? 'arrange.archivedDone' : 'arrange.restored', { name: goal.name }),
            );
          };
          return (
            <div ref={list} class="stack">
              <section class="card stack" aria-labelledby="arrange-active">
                <h2 id="arrange-active">{t('arrange.active')}</h2>
                <p class="muted">{t('arrange.intro')}</p>
                <ol class="arrange-list">
                  {active.map((goal, index) => (
                    <ArrangeRow key={goal.id} goal={goal}>
                      <ArrangeButton
                        goal={goal}
                        action="up"
                        label={t('arrange.up')}
                        icon="↑"
                        disabled={index === 0}
                        onClick={() => move(goal, -1)}
                      />
                      <ArrangeButton
                        goal={goal}
                        action="down"
                        label={t('arrange.down')}
                        icon="↓"
                        disabled={index === active.length - 1}
                        onClick={() => move(goal, 1)}
                      />
                      <ArrangeButton
                        goal={goal}
                        action="archive"
                        label={t('arrange.archive')}
                        onClick={() => archive(goal, true)}
                      />
                    </ArrangeRow>
                  ))}
                </ol>
              </section>
              <section class="card stack" aria-labelledby="arrange-archived">
                <h2 id="arrange-archived">{t('arrange.archived')}</h2>
                {archived.length === 0 ? (
                  <p class="muted">{t('arrange.archivedEmpty')}</p>
                ) : (
                  <ul class="arrange-list">
                    {archived.map((goal) => (
                      <ArrangeRow key={goal.id} goal={goal}>
                        <ArrangeButton
                          goal={goal}
                          action="restore"
                          label={t('arrange.restore')}
                          onClick={() => archive(goal, false)}
                        />
                      </ArrangeRow>
                    ))}
                  </ul>
                )}
              </section>
            </div>
          );
        }}
      </GoalsLoaded>
    </Page>
  );
}

/** One goal of either list: its name (a link to the goal page) and its buttons. */
function ArrangeRow({ goal, children }: { goal: Goal; children: ComponentChildren }) {
  return (
    <li class="arrange-row">
      <a class="arrange-name" href={href.goal(goal.id)}>
        <bdi>{goal.name}</bdi>
      </a>
      <span class="arrange-buttons">{children}</span>
    </li>
  );
}

/**
 * Never `disabled` (that would drop the focus): at the end of the list it says so and does nothing. A move is shown
 * by its arrow alone, so a goal's three buttons fit one row of a phone in every language; its name says the rest.
 */
function ArrangeButton({
  goal,
  action,
  label,
  icon,
  disabled = false,
  onClick,
}: {
  goal: Goal;
  action: FocusWish['action'];
  label: string;
  icon?: string;
  disabled?: boolean;
  onClick: () => void;
}) {
  return (
    <button
      type="button"
      class={icon ? 'arrange-move' : undefined}
      title={icon ? label : undefined}
      data-goal={goal.id}
      data-action={action}
      aria-disabled={disabled}
      onClick={() => !disabled && onClick()}
    >
      {icon && <span aria-hidden="true">{icon} </span>}
      <span class={icon ? 'visually-hidden' : undefined}>{label}</span>
      <span class="visually-hidden"> – {goal.name}</span>
    </button>
  );
}
