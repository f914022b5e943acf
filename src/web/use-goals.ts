import { useCallback, useEffect, useMemo, useState } from 'preact/hooks';
import { api, type Goal } from './api.js';

/**
 * The logged-in user's goals: loaded once per user (null while logged out or loading), the failure of the last
 * load, and the in-place changes pages make after the server accepted them.
 */
export function useGoals(userId: number | null) {
  const [goals, setGoals] = useState<Goal[] | null>(null);
  const [goalsError, setGoalsError] = useState<unknown>(null);

  const reloadGoals = useCallback(async () => {
    setGoalsError(null);
    try {
      setGoals(await api.goals());
    } catch (failure) {
      setGoalsError(failure);
    }
  }, []);

  useEffect(() => {
    if (userId !== null) return void reloadGoals();
    setGoals(null);
    setGoalsError(null);
  }, [userId, reloadGoals]);

  const changes = useMemo(
    () => ({
      putGoal: (goal: Goal) =>
        setGoals((list) => {
          const current = list ?? [];
          return current.some((item) => item.id === goal.id)
            ? current.map((item) => (item.id === goal.id ? goal : item))
            : [...current, goal];
        }),
      /** The server's answer for one date of one goal, applied to the latest list (never to a copy held by a page). */
      putAmounts: (goalId: string, date: string, amounts: number[]) =>
        setGoals((list) => (list ?? []).map((item) => (item.id === goalId ? withAmounts(item, date, amounts) : item))),
      dropGoal: (id: string) => setGoals((list) => (list ?? []).filter((item) => item.id !== id)),
    }),
    [],
  );

  // One object per change of the list, so the app context built from it changes only then.
  return useMemo(() => ({ goals, goalsError, reloadGoals, ...changes }), [goals, goalsError, reloadGoals, changes]);
}

function withAmounts(goal: Goal, date: string, amounts: number[]): Goal {
  const sets = { ...goal.sets };
  if (amounts.length > 0) sets[date] = amounts;
  else delete sets[date];
  return { ...goal, sets };
}
