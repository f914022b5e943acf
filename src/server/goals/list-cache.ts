import { ConcurrencyLimit } from '../concurrency-limit.js';
import { CompressibleBody } from '../http/compression.js';

interface Entry {
  userId: number;
  version: number;
  list: CompressibleBody;
  /** The body and the compressed forms made so far. */
  bytes: number;
}

/**
 * The last goal list answer of recently active users, as ready-to-send bytes, each tagged with the user's
 * `goals_version` it was read at. A request reads the current version (one indexed row) and reuses the bytes
 * while it is unchanged; every goal write bumps the version in its own transaction, so several server processes
 * sharing one PostgreSQL database never serve each other stale lists (docs/decisions/0033-goal-list-hot-path.md).
 *
 * The version is read before the goals, so an entry's bytes are never older than its tag: a write that slips in
 * between only makes the entry newer than it claims, and the next request replaces it.
 *
 * Each entry also keeps the compressed forms clients have asked for (decision 0119), counted against the budget
 * once made.
 *
 * Builds of different users run at most `buildsAtOnce` at a time, the others wait their turn (decision 0231): a
 * build holds a part of rows and its text between turns of the event loop, so twenty users' builds after their writes
 * raised the server's peak memory by 20-25 MB; and builds beyond the connections that can read at once read no
 * faster, they only wait holding what they have read.
 */
export class GoalListCache {
  private readonly entries = new Map<number, Entry>();
  /** The builds under way, one per user, with the version each was started for. */
  private readonly building = new Map<number, { version: number; list: Promise<CompressibleBody> }>();
  private bytes = 0;
  private readonly builds: ConcurrencyLimit;

  /**
   * `maxBytes` (GOAL_LIST_CACHE_MB) bounds the memory of all entries together; the least recently used leave
   * first. 0 keeps nothing: every list is read from the database. `buildsAtOnce`: the database connections that
   * can read at once (one on SQLite, the pool's size on PostgreSQL).
   */
  constructor(
    private readonly maxBytes = 16 * 1024 * 1024,
    buildsAtOnce = 1,
  ) {
    this.builds = new ConcurrencyLimit(buildsAtOnce);
  }

  get(userId: number, version: number): CompressibleBody | undefined {
    const entry = this.entries.get(userId);
    if (!entry || entry.version !== version) return undefined;
    // Re-inserting moves the entry to the end: Map iteration order is our recency order.
    this.entries.delete(userId);
    this.entries.set(userId, entry);
    return entry.list;
  }

  /**
   * The list for this version: kept, or being built for this version by another request (which this one then
   * waits for instead of reading the same rows again), or built now by `build`. After a write, each of a user's
   * devices and tabs asks at once; without the shared build each read every amount of the user (decision 0120).
   * A failed build is kept by nobody: the requests that waited for it fail with it, the next one builds anew.
   * With a budget of 0 (the cache off) nothing is shared either: every request reads its list from the database.
   */
  getOrBuild(
    userId: number,
    version: number,
    build: () => Promise<Buffer>,
  ): CompressibleBody | Promise<CompressibleBody> {
    if (this.maxBytes === 0) return this.builds.run(build).then((body) => new CompressibleBody(body));
    const kept = this.get(userId, version);
    if (kept) return kept;
    const underway = this.building.get(userId);
    if (underway?.version === version) return underway.list;
    const list = this.builds
      .run(build)
      .then((body) => this.set(userId, version, body))
      .finally(() => {
        if (this.building.get(userId)?.list === list) this.building.delete(userId);
      });
    this.building.set(userId, { version, list });
    return list;
  }

  /** Keeps `body` for this version when it fits, and gives it back ready to send either way. */
  set(userId: number, version: number, body: Buffer): CompressibleBody {
    // Versions only grow: a slow build of an older one must not push out the newer list kept meanwhile.
    const kept = this.entries.get(userId);
    if (kept && kept.version > version) return new CompressibleBody(body);
    this.remove(userId);
    // One huge list must not push out everybody else.
    if (body.length > this.maxBytes / 8) return new CompressibleBody(body);
    const entry: Entry = {
      userId,
      version,
      list: new CompressibleBody(body, (bytes) => this.grow(entry, bytes)),
      bytes: 0,
    };
    this.entries.set(userId, entry);
    this.grow(entry, body.length);
    return entry.list;
  }

  /** Counts `bytes` more for `entry` while it is still kept (a compressed form may arrive after it left). */
  private grow(entry: Entry, bytes: number): void {
    if (this.entries.get(entry.userId) !== entry) return;
    entry.bytes += bytes;
    this.bytes += bytes;
    for (const [oldest] of this.entries) {
      if (this.bytes <= this.maxBytes) break;
      this.remove(oldest);
    }
  }

  private remove(userId: number): void {
    const entry = this.entries.get(userId);
    if (!entry) return;
    this.bytes -= entry.bytes;
    this.entries.delete(userId);
  }
}
