import type { Goal } from '../api.js';

/** One entry of one goal and date, as the outbox and the device's own entries name it. */
export interface Entry {
  /** The log's id; for a removal, the id of the entry it takes back (null: the last entry of `amount`). */
  entry_id: string | null;
  goal_id: string;
  date: string;
  amount: number;
}

/** A log or removal not yet confirmed by the server (IndexedDB `outbox`, decision 0095). */
export interface QueuedOp extends Entry {
  /** The outbox key: the order of sending; undefined until written (or without IndexedDB). */
  seq?: number;
  user_id: number;
  kind: 'log' | 'remove';
  /** The Web Lock of the running store that sends it (decision 0190); none in rows of older versions. */
  tab?: string;
  /**
   * An undo by amount's Idempotency-Key: its sender may close after the server took it and before the answer came,
   * and the tab taking the row over sends it again; the server then takes one amount away, not two (decision 0200).
   * None in removals by entry_id (a repeat changes nothing anyway) and in rows of older versions.
   */
  key?: string;
}

/**
 * The goals as they will be once the queue is sent: each queued log appended, each removal taking away the last
 * entry of its amount, in queue order. Goals the queue does not touch are the same objects.
 */
export function withQueuedOps(goals: Goal[], ops: readonly QueuedOp[]): Goal[] {
  if (ops.length === 0) return goals;
  const touched = new Map<string, Record<string, number[]>>();
  for (const op of ops) {
    const goal = goals.find((item) => item.id === op.goal_id);
    if (!goal) continue;
    const sets = touched.get(goal.id) ?? { ...goal.sets };
    touched.set(goal.id, sets);
    const amounts = [...(sets[op.date] ?? [])];
    if (op.kind === 'log') amounts.push(op.amount);
    else {
      const index = amounts.lastIndexOf(op.amount);
      if (index >= 0) amounts.splice(index, 1);
    }
    if (amounts.length > 0) sets[op.date] = amounts;
    else delete sets[op.date];
  }
  return goals.map((goal) => {
    const sets = touched.get(goal.id);
    return sets ? { ...goal, sets } : goal;
  });
}
