import { type Kysely, sql } from 'kysely';

/** Waits until `done` says so, checking every 10 ms, at most 20 s. */
export async function until(what: string, done: () => boolean | Promise<boolean>): Promise<void> {
  for (const start = Date.now(); !(await done()); await new Promise((resolve) => setTimeout(resolve, 10))) {
    if (Date.now() - start > 20_000) throw new Error(`gave up waiting: ${what}`);
  }
}

/** Whether a session on `db`'s PostgreSQL database waits for a lock on a table (one a test holds). */
export async function someoneWaitsForATable(db: Kysely<any>): Promise<boolean> {
  const waiting = await sql<{ n: number }>`select count(*)::int as n from pg_stat_activity
    where datname = current_database() and wait_event_type = 'Lock' and wait_event = 'relation'`.execute(db);
  return waiting.rows[0]!.n > 0;
}
