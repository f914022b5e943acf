import { useEffect, useMemo, useState } from 'preact/hooks';
import type { Goal, GoalFields } from './api.js';
import { GoalStore, type GoalsSnapshot } from './offline/goal-store.js';

const EMPTY: GoalsSnapshot = { goals: null, goalsError: null, layout: null, pending: {}, notices: [], offline: false };

/**
 * The logged-in user's goals (null while logged out or loading) from a GoalStore: the local copy at once, the
 * server's when it answers, queued logs laid over them (offline/goal-store.ts). One store per user.
 */
export function useGoals(userId: number | null) {
  const [store, setStore] = useState<GoalStore | null>(null);
  const [snapshot, setSnapshot] = useState<GoalsSnapshot>(EMPTY);

  useEffect(() => {
    setSnapshot(EMPTY);
    if (userId === null) return setStore(null);
    const next = new GoalStore(userId);
    setStore(next);
    const unsubscribe = next.subscribe(() => setSnapshot(next.snapshot));
    void next.start();
    return () => {
      unsubscribe();
      next.stop();
    };
  }, [userId]);

  const actions = useMemo(
    () => ({
      reloadGoals: async () => (store ? store.reload() : false),
      addGoal: (goal: Goal) => store?.addGoal(goal),
      changeGoal: (goalId: string, fields: GoalFields) => store?.changeGoal(goalId, fields),
      dropGoal: (id: string) => store?.dropGoal(id),
      logAmount: (goalId: string, date: string, amount: number) => store?.log(goalId, date, amount),
      takeBack: (goalId: string, date: string, amount?: number) => store?.takeBack(goalId, date, amount) ?? null,
      undoAmount: (goalId: string, date: string) => store?.undoAmount(goalId, date) ?? null,
      dismissNotice: (id: number) => store?.dismissNotice(id),
      setOrder: async (ids: string[]) => store?.setOrder(ids),
      setArchived: async (goalId: string, archived: boolean) => store?.setArchived(goalId, archived),
      /** The number of entries still unsent after trying to send them all, null if the session ended (whenSent). */
      whenSent: async (waitMs: number): Promise<number | null> => (store ? store.whenSent(waitMs) : 0),
    }),
    [store],
  );

  // One object per change, so the app context built from it changes only then.
  return useMemo(() => ({ ...snapshot, ...actions }), [snapshot, actions]);
}
