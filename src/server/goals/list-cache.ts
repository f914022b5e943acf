/**
 * The last goal list answer of recently active users, as ready-to-send bytes, each tagged with the user's
 * `goals_version` it was read at. A request reads the current version (one indexed row) and reuses the bytes
 * while it is unchanged; every goal write bumps the version in its own transaction, so several server processes
 * sharing one PostgreSQL database never serve each other stale lists (docs/decisions/0033-goal-list-hot-path.md).
 *
 * The version is read before the goals, so an entry's bytes are never older than its tag: a write that slips in
 * between only makes the entry newer than it claims, and the next request replaces it.
 */
export class GoalListCache {
  private readonly entries = new Map<number, { version: number; body: Buffer }>();
  private bytes = 0;

  /**
   * `maxBytes` (GOAL_LIST_CACHE_MB) bounds the memory of all entries together; the least recently used leave
   * first. 0 keeps nothing: every list is read from the database.
   */
  constructor(private readonly maxBytes = 16 * 1024 * 1024) {}

  get(userId: number, version: number): Buffer | undefined {
    const entry = this.entries.get(userId);
    if (!entry || entry.version !== version) return undefined;
    // Re-inserting moves the entry to the end: Map iteration order is our recency order.
    this.entries.delete(userId);
    this.entries.set(userId, entry);
    return entry.body;
  }

  set(userId: number, version: number, body: Buffer): void {
    this.remove(userId);
    // One huge list must not push out everybody else.
    if (body.length > this.maxBytes / 8) return;
    this.entries.set(userId, { version, body });
    this.bytes += body.length;
    for (const [oldest] of this.entries) {
      if (this.bytes <= this.maxBytes) break;
      this.remove(oldest);
    }
  }

  private remove(userId: number): void {
    const entry = this.entries.get(userId);
    if (!entry) return;
    this.bytes -= entry.body.length;
    this.entries.delete(userId);
  }
}
