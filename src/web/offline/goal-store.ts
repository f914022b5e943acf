import { addDays, localDateKey } from '../../common/progress.js';
import { ApiError, api, type Goal, type GoalFields, type GoalLayout, newRandomId } from '../api.js';
import { idbAll, idbChange, idbDelete, idbGet, idbPut } from './idb.js';
import { type Entry, type QueuedOp, withQueuedOps } from './overlay.js';
import { requestBackgroundSync } from './background-sync.js';

/**
 * The logged-in user's goals as the app shows them (decision 0095): the last goals the server answered (kept in
 * IndexedDB, so the app opens offline), with the logs and removals not yet sent laid over them. Every log and undo
 * goes through the outbox: it shows at once, is written to IndexedDB (survives reload and a closed tab) and is sent
 * in order; a failure to reach the server is retried with backoff, on the `online` event and at the next start.
 * Each log carries an `entry_id`, so sending it twice (a retry, another tab, Background Sync) adds it once.
 */

/** Something the person must see: queued entries dropped because the goal is gone, or a refused log. */
export interface Notice {
  id: number;
  kind: 'goalGone' | 'refused';
  goalName: string;
  /** The refusal (translated where it is shown); null for `goalGone`. */
  error: unknown;
}

export interface GoalsSnapshot {
  /** null until the first copy (local or from the server) is there. */
  goals: Goal[] | null;
  /** The failure of the last load when there is no copy to show, else null. */
  goalsError: unknown;
  layout: GoalLayout | null;
  /** Queued (not yet confirmed) logs and removals per goal id. */
  pending: Record<string, number>;
  notices: Notice[];
  /** The last attempt to reach the server failed for want of a connection. */
  offline: boolean;
}

/** An entry this device logged and the server confirmed: undo names it by its id. */
interface MyEntry extends Entry {
  entry_id: string;
  user_id: number;
  removed: boolean;
}

/** How `takeBack` takes an entry back, and its amount. */
type TakeBack =
  | { how: 'unqueue' | 'queued'; op: QueuedOp; amount: number }
  | { how: 'mine'; entry: MyEntry; amount: number }
  | { how: 'by-amount'; amount: number };

const BACKOFF_MS = [1_000, 2_000, 5_000, 10_000, 30_000, 60_000];
/**
 * While the app is in view it asks for the goals this often, so what another device logged shows without a reload
 * (a tablet on the counter, a laptop beside the phone); hidden, it asks again when it comes back into view.
 */
const REFRESH_MS = 60_000;

export class GoalStore {
  private server: Goal[] | null = null;
  private layout: GoalLayout | null = null;
  private ops: QueuedOp[] = [];
  private mine = new Map<string, MyEntry>();
  private goalsError: unknown = null;
  private notices: Notice[] = [];
  private offline = false;
  private inFlight: QueuedOp | null = null;
  /**
   * The queue entries this page wrote. The others it found in the outbox when it started, where the service worker
   * or another tab may be sending them right now (decision 0132).
   */
  private readonly ownOps = new WeakSet<QueuedOp>();
  /** Outbox writes not finished yet: an entry is sent only once it is stored (its `seq` known). */
  private readonly writes = new Map<QueuedOp, Promise<void>>();
  /** Counts sends started and finished: a goal list fetched meanwhile may be older than an answer already applied. */
  private sends = 0;
  /** `reload` gave up while sends kept crossing its lists: the queue's end asks again. */
  private listStale = false;
  private failures = 0;
  /** Sends that failed for want of the server or a session; only ever grows (`failures` restarts the backoff). */
  private sendFailures = 0;
  /** A send was refused as unauthenticated: the session has ended, and the queue waits for the next login. */
  private sessionEnded = false;
  /** Outbox rows of sent entries being deleted: until then IndexedDB still holds them. */
  private readonly forgetting = new Set<Promise<void>>();
  private retryTimer: ReturnType<typeof setTimeout> | undefined;
  private refreshTimer: ReturnType<typeof setInterval> | undefined;
  private stopped = false;
  private noticeSerial = 0;
  /** The names of goals the list held before, for a notice about entries of a goal that is gone. */
  private readonly goneNames = new Map<string, string>();
  private readonly listeners = new Set<() => void>();
  /**
   * The Web Lock this store holds while it runs, named in the outbox rows it sends: another tab takes them over only
   * once the lock is free, so each row has one sender (decision 0190).
   */
  private readonly tab = newRandomId();
  private release?: () => void;
  /** Tabs whose rows this store took, or waits for. */
  private readonly watched = new Set<string>();
  snapshot: GoalsSnapshot = { goals: null, goalsError: null, layout: null, pending: {}, notices: [], offline: false };

  constructor(readonly userId: number) {}

  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** The local copy first (instant, and all there is offline), then the server's goals, then the outbox. */
  async start(): Promise<void> {
    window.addEventListener('online', this.onOnline);
    document.addEventListener('visibilitychange', this.onVisible);
    navigator.serviceWorker?.addEventListener('message', this.onWorkerMessage);
    this.refreshTimer = setInterval(this.onRefreshTime, REFRESH_MS);
    // Held before this store writes a row: a row naming a free lock is taken over by the next tab that reads it.
    await new Promise<void>((held) => {
      if (!navigator.locks) return held();
      void navigator.locks.request(this.tab, () => {
        held();
        return new Promise<void>((done) => (this.release = done));
      });
    });
    await this.loadCopy().catch(() => undefined);
    if (this.stopped) return;
    this.emit();
    void this.flush();
    await this.reload();
  }

  stop(): void {
    this.stopped = true;
    this.release?.();
    clearTimeout(this.retryTimer);
    clearInterval(this.refreshTimer);
    window.removeEventListener('online', this.onOnline);
    document.removeEventListener('visibilitychange', this.onVisible);
    navigator.serviceWorker?.removeEventListener('message', this.onWorkerMessage);
  }

  private readonly onOnline = () => {
    this.failures = 0;
    void this.adopt();
    void this.flush();
    void this.reload();
  };
  /** Back to the app after a while: other devices may have logged, another tab may be gone. */
  private readonly onVisible = () => {
    if (document.visibilityState !== 'visible') return;
    void this.reload();
    void this.adopt();
  };
  private readonly onRefreshTime = () => {
    if (document.visibilityState === 'visible' && navigator.onLine) void this.reload();
  };
  /** The service worker hands a Background Sync over (public/sw.js): this app answers that it sends the queue. */
  private readonly onWorkerMessage = (event: MessageEvent) => {
    if ((event.data as { type?: unknown } | null)?.type !== 'steady-sync') return;
    event.ports[0]?.postMessage('sending');
    this.onOnline();
  };

  private async loadCopy(): Promise<void> {
    const [goals, layout, mine] = await Promise.all([
      idbGet<Goal[]>('copy', `goals:${this.userId}`),
      idbGet<GoalLayout>('copy', `layout:${this.userId}`),
      idbAll<MyEntry>('mine'),
      this.adopt(true),
    ]);
    if (goals && this.server === null) this.server = goals;
    if (layout && this.layout === null) this.layout = layout;
    // Only recent entries can still be undone from Today; older ones are forgotten.
    const oldest = addDays(localDateKey(new Date()), -2);
    const stale = mine.filter((entry) => entry.date < oldest).map((entry) => entry.entry_id);
    // Oldest first, as `chooseTakeBack` reads them: rows of the older version (order unknown) before the timed ones,
    // which IndexedDB returns by their id, so in the order they were logged (decision 0189).
    mine.sort((a, b) => +timed(a) - +timed(b));
    for (const entry of mine)
      if (entry.user_id === this.userId && entry.date >= oldest) this.mine.set(entry.entry_id, entry);
    void idbDelete('mine', stale).catch(() => undefined);
  }

  /**
   * Fetches goals and layout, answering whether the server's list arrived; offline, the local copy stays on screen
   * and the failure is shown only without one.
   */
  async reload(): Promise<boolean> {
    if (this.server === null) this.goalsError = null;
    this.listStale = false;
    for (let attempt = 0; attempt < 3; attempt++) {
      const mark = this.sends;
      try {
        const [goals, layout] = await Promise.all([api.goals(), api.goalLayout()]);
        if (this.stopped) return false;
        // A send started or ended meanwhile: this list may miss its entry, or hold one still queued. Ask again.
        if (mark !== this.sends || this.inFlight) continue;
        this.offline = false;
        this.goalsError = null;
        this.layout = layout;
        this.setServer(goals);
        return true;
      } catch (failure) {
        if (this.stopped) return false;
        this.offline = failure instanceof ApiError && failure.code === 'network';
        if (this.server === null) this.goalsError = failure;
        this.emit();
        return false;
      }
    }
    // Each list crossed a send: the screen keeps the older one until the queue is through (`flush` asks again; the
    // queue may be through already, the last send having ended during the last try).
    if (!this.inFlight && this.ops.length === 0) return this.reload();
    this.listStale = true;
    return false;
  }

  // Changes pages make after the server accepted them (goal form, delete).

  /** A goal the server made (the goal form's answer). */
  addGoal(goal: Goal): void {
    this.setServer([...(this.server ?? []).filter((item) => item.id !== goal.id), goal]);
  }

  /**
   * Fields of a goal the server changed. Only these: a page's goal has the queued entries laid over its `sets`, which
   * stored here as the server's would count them twice.
   */
  changeGoal(goalId: string, fields: GoalFields): void {
    this.setServer((this.server ?? []).map((goal) => (goal.id === goalId ? { ...goal, ...fields } : goal)));
  }

  private putAmounts(goalId: string, date: string, amounts: number[]): void {
    this.setServer((this.server ?? []).map((goal) => (goal.id === goalId ? withAmounts(goal, date, amounts) : goal)));
  }

  dropGoal(goalId: string): void {
    this.dropOps((op) => op.goal_id === goalId);
    this.setServer((this.server ?? []).filter((goal) => goal.id !== goalId));
  }

  // Logging (Today and the goal page): through the outbox.

  /** Logs `amount` now (shown at once) and sends it when it can. */
  log(goalId: string, date: string, amount: number): void {
    lastLogged = Math.max(Date.now(), lastLogged + 1);
    const entryId = lastLogged.toString(16).padStart(12, '0') + newRandomId();
    void this.enqueue({ user_id: this.userId, kind: 'log', entry_id: entryId, goal_id: goalId, date, amount });
  }

  /**
   * Takes back an entry of the goal and date, of `amount` when given (a chosen entry of a past day), else the last
   * (undo): this device's last such entry first (see `chooseTakeBack`). Answers the amount taken back, or null.
   */
  takeBack(goalId: string, date: string, amount?: number): number | null {
    const choice = this.chooseTakeBack(goalId, date, amount);
    if (choice === null) return null;
    switch (choice.how) {
      case 'unqueue':
        this.dropOps((op) => op === choice.op);
        break;
      // Dropped from the queue, a log another sender has on its way would still arrive and stay. So it stays queued,
      // with its removal by entry_id after it: this page sends the log (new, or a replay that changes nothing) before
      // the removal, and a copy that arrives after the removal meets its tombstone (decision 0092).
      case 'queued':
        void this.enqueue({ ...choice.op, seq: undefined, kind: 'remove' });
        break;
      case 'mine':
        choice.entry.removed = true;
        void idbPut('mine', choice.entry).catch(() => undefined);
        void this.enqueue({ ...this.removal(goalId, date, choice.amount), entry_id: choice.entry.entry_id });
        break;
      case 'by-amount':
        void this.enqueue({ ...this.removal(goalId, date, choice.amount), key: newRandomId() });
        break;
    }
    return choice.amount;
  }

  private removal(goalId: string, date: string, amount: number): QueuedOp {
    return { user_id: this.userId, kind: 'remove', entry_id: null, goal_id: goalId, date, amount };
  }

  /** The amount undo (`takeBack` without an amount) would take back now, or null: what its button names. */
  undoAmount(goalId: string, date: string): number | null {
    return this.chooseTakeBack(goalId, date)?.amount ?? null;
  }

  /**
   * Which entry `takeBack` takes, without taking it: a queued log this page wrote and is not sending leaves the
   * queue; one that may be on its way (sent by this page, the service worker or another tab) and a sent one of this
   * device are removed by their `entry_id`; an entry from elsewhere, by its amount.
   */
  private chooseTakeBack(goalId: string, date: string, amount?: number): TakeBack | null {
    const sameDay = (entry: Entry) =>
      entry.goal_id === goalId && entry.date === date && (amount === undefined || entry.amount === amount);
    const last = lastOf(changesIn(this.ops), sameDay);
    if (last?.kind === 'log') {
      const how = last !== this.inFlight && this.ownOps.has(last) ? 'unqueue' : 'queued';
      return { how, op: last, amount: last.amount };
    }
    const amounts = this.snapshot.goals?.find((goal) => goal.id === goalId)?.sets[date] ?? [];
    const mine = [...this.mine.values()].filter((entry) => sameDay(entry) && !entry.removed);
    const newest = mine.at(-1);
    // Named by its id only while the day still holds as many of its amount as this device has entries of it: another
    // device may have removed one (by value or by id, which one is not known here), and removing a removed entry
    // changes nothing. Else by its value, which takes back one that is there.
    const stillThere = (entry: MyEntry) =>
      mine.filter((other) => other.amount === entry.amount).length <=
      amounts.filter((other) => other === entry.amount).length;
    // An older version's entries say nothing of their order: undo then takes the day's last by its value.
    if (newest && timed(newest) && stillThere(newest)) return { how: 'mine', entry: newest, amount: newest.amount };
    const taken = amount === undefined ? amounts.at(-1) : amounts.includes(amount) ? amount : undefined;
    return taken === undefined ? null : { how: 'by-amount', amount: taken };
  }

  dismissNotice(id: number): void {
    this.notices = this.notices.filter((notice) => notice.id !== id);
    this.emit();
  }

  // Layout: shown at once, put back if the server refuses.

  async setOrder(ids: string[]): Promise<void> {
    await this.changeLayout({ order: ids, archived: this.layout?.archived ?? [] }, () => api.setGoalOrder(ids));
  }

  async setArchived(goalId: string, archived: boolean): Promise<void> {
    const current = this.layout?.archived ?? [];
    const next = archived ? [...current.filter((id) => id !== goalId), goalId] : current.filter((id) => id !== goalId);
    await this.changeLayout({ order: this.layout?.order ?? [], archived: next }, () =>
      api.setArchived(goalId, archived),
    );
  }

  private async changeLayout(next: GoalLayout, send: () => Promise<unknown>): Promise<void> {
    const before = this.layout;
    this.setLayout(next);
    try {
      await send();
    } catch (failure) {
      this.setLayout(before);
      throw failure;
    }
  }

  private setLayout(layout: GoalLayout | null): void {
    this.layout = layout;
    if (layout) void idbPut('copy', layout, `layout:${this.userId}`).catch(() => undefined);
    this.emit();
  }

  // The outbox.

  private async enqueue(op: QueuedOp): Promise<void> {
    this.ownOps.add(op);
    this.ops.push(op);
    this.emit();
    const written = idbPut('outbox', { ...withoutSeq(op), tab: this.tab }).then(
      (seq) => void (op.seq = Number(seq)),
      // No IndexedDB: the entry is sent from memory, and lost if the tab closes first.
      () => undefined,
    );
    this.writes.set(op, written);
    await written;
    this.writes.delete(op);
    requestBackgroundSync();
    void this.flush();
  }

  /** Sends the queue in order, one at a time. */
  async flush(): Promise<void> {
    const op = this.ops[0];
    if (!op || this.inFlight || this.stopped) return;
    clearTimeout(this.retryTimer);
    this.inFlight = op;
    this.sends++;
    try {
      await this.writes.get(op);
      const answer =
        op.kind === 'log'
          ? await api.addAmount(op.goal_id, op.date, op.amount, op.entry_id ?? undefined)
          : op.entry_id
            ? await api.removeEntry(op.goal_id, op.date, op.entry_id)
            : await api.removeAmount(op.goal_id, op.date, op.amount, op.key);
      this.failures = 0;
      this.offline = false;
      if (op.kind === 'log') this.remember(op);
      this.ops = this.ops.filter((queued) => queued !== op);
      void this.forget(op);
      this.putAmounts(op.goal_id, answer.date, answer.amounts);
    } catch (failure) {
      if (!this.handleFailure(op, failure)) return;
    } finally {
      this.inFlight = null;
      this.sends++;
    }
    if (this.listStale && this.ops.length === 0) void this.reload();
    void this.flush();
  }

  /**
   * Takes over this user's outbox rows of tabs that are gone: closed, reloaded, or of a version without locks. Rows
   * of a running tab are its own to send and to take back; this store waits for its lock, which comes free when it
   * goes, and then takes them (decision 0190). Answers once the rows of gone tabs are taken (decision 0222).
   */
  private async adopt(atStart?: boolean): Promise<void> {
    const locks = navigator.locks;
    // Without Web Locks (no secure context) a running tab looks like a gone one: only a start takes rows, as before.
    if (!locks && !atStart) return;
    const taken: Array<Promise<unknown>> = [];
    for (const { user_id, tab = 'old' } of await idbAll<QueuedOp>('outbox').catch(() => [])) {
      if (user_id !== this.userId || tab === this.tab || this.watched.has(tab)) continue;
      this.watched.add(tab);
      if (!locks) {
        await this.claim(tab);
        continue;
      }
      // The lock stays held while the rows change hands: a third tab waiting for it finds them taken. A gone tab's
      // lock is free now; a running tab's comes free only when it goes, which is waited for without holding this up.
      const claimWhenFree = () => void locks.request(tab, () => this.claim(tab));
      taken.push(locks.request(tab, { ifAvailable: true }, (lock) => (lock ? this.claim(tab) : claimWhenFree())));
    }
    await Promise.all(taken);
  }

  private async claim(tab: string): Promise<void> {
    if (this.stopped) return;
    const taken = await idbChange<QueuedOp>('outbox', (op) =>
      op.user_id === this.userId && (op.tab ?? 'old') === tab ? { ...op, tab: this.tab } : undefined,
    ).catch(() => []);
    this.ops = [...this.ops, ...taken].sort((a, b) => (a.seq ?? Infinity) - (b.seq ?? Infinity));
    this.emit();
    void this.flush();
  }

  /**
   * Sends the queue now and answers how many changes of this user are still unsent (`changesIn`): 0 once none is left, here or in
   * the outbox another tab of theirs may have written; more as soon as a send fails for want of the server (no
   * network, a server error), or after `waitMs`; null when the server says the session has ended (the entries then
   * wait for the next login). Logout asks first, because it empties the outbox (decision 0150). It looks every 50 ms:
   * the queue has no event for a failed send.
   */
  async whenSent(waitMs: number): Promise<number | null> {
    const failuresBefore = this.sendFailures;
    const until = Date.now() + waitMs;
    // Rows a tab left when it closed are sent from here too: without Background Sync (Safari, Firefox), with this
    // window in view all along, nothing else takes them, and logout would refuse for their sake every time.
    await this.adopt();
    void this.flush();
    while (this.ops.length > 0 && this.sendFailures === failuresBefore && Date.now() < until && !this.stopped) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    if (this.sessionEnded) return null;
    await Promise.all(this.forgetting);
    const stored = await idbAll<QueuedOp>('outbox').catch(() => []);
    const storedHere = stored.filter((op) => op.user_id === this.userId);
    return Math.max(changesIn(this.ops).length, changesIn(storedHere).length);
  }

  /** Answers true when the queue can go on with the next entry. */
  private handleFailure(op: QueuedOp, failure: unknown): boolean {
    const code = failure instanceof ApiError ? failure.code : 'network';
    const status = failure instanceof ApiError ? failure.status : 0;
    // A 401 (`unauthenticated`, or `account_deleted`, whose rows the session forgets, decision 0198).
    const ended = status === 401;
    if (code === 'network' || status >= 500 || status === 429 || ended) {
      // Not the entry's fault: keep it (and everything after it) and try again later; after a 401 the next login
      // sends it.
      this.sendFailures++;
      if (ended) this.sessionEnded = true;
      this.offline = code === 'network';
      if (!ended) this.retryLater();
      this.emit();
      return false;
    }
    const name = this.server?.find((item) => item.id === op.goal_id)?.name ?? this.goneNames.get(op.goal_id) ?? '';
    // The entry is settled: it may leave the queue (dropOps keeps the one in flight).
    this.inFlight = null;
    if (code === 'goal_not_found') {
      // Deleted on another device: nothing of it can be sent any more. Say so once, never retry.
      this.addNotice('goalGone', name, null);
      this.dropGoal(op.goal_id);
    } else {
      // amount_not_found: the entry was already gone (removed elsewhere); quietly done. Anything else is refused
      // for good: the row rolls back and says why.
      this.dropOps((queued) => queued === op);
      if (code !== 'amount_not_found') this.addNotice('refused', name, failure);
    }
    return true;
  }

  private retryLater(): void {
    const delay = BACKOFF_MS[Math.min(this.failures, BACKOFF_MS.length - 1)]!;
    this.failures++;
    clearTimeout(this.retryTimer);
    this.retryTimer = setTimeout(() => void this.flush(), delay);
  }

  private remember(op: QueuedOp): void {
    const entry: MyEntry = {
      user_id: this.userId,
      entry_id: op.entry_id!,
      goal_id: op.goal_id,
      date: op.date,
      amount: op.amount,
      // Undone while it was on its way: its removal is queued already.
      removed: this.ops.some((queued) => queued.kind === 'remove' && queued.entry_id === op.entry_id),
    };
    this.mine.set(entry.entry_id, entry);
    void idbPut('mine', entry).catch(() => undefined);
  }

  private async forget(op: QueuedOp): Promise<void> {
    if (op.seq === undefined) return;
    const deleted = idbDelete('outbox', [op.seq]).catch(() => undefined);
    this.forgetting.add(deleted);
    await deleted;
    this.forgetting.delete(deleted);
  }

  private dropOps(which: (op: QueuedOp) => boolean): void {
    const dropped = this.ops.filter((op) => which(op) && op !== this.inFlight);
    if (dropped.length === 0) return;
    this.ops = this.ops.filter((op) => !dropped.includes(op));
    for (const op of dropped) void this.forget(op);
    this.emit();
  }

  private addNotice(kind: Notice['kind'], goalName: string, error: unknown): void {
    this.notices = [...this.notices, { id: ++this.noticeSerial, kind, goalName, error }];
    this.emit();
  }

  private setServer(goals: Goal[]): void {
    // A list without a goal may come before the refusal of an entry queued for it: the notice still names it.
    for (const goal of this.server ?? []) this.goneNames.set(goal.id, goal.name);
    this.server = goals;
    void idbPut('copy', goals, `goals:${this.userId}`).catch(() => undefined);
    this.emit();
  }

  private emit(): void {
    if (this.stopped) return;
    const pending: Record<string, number> = {};
    for (const op of changesIn(this.ops)) pending[op.goal_id] = (pending[op.goal_id] ?? 0) + 1;
    this.snapshot = {
      goals: this.server && withQueuedOps(this.server, this.ops),
      goalsError: this.goalsError,
      layout: this.layout,
      pending,
      notices: this.notices,
      offline: this.offline,
    };
    for (const listener of this.listeners) listener();
  }
}

/**
 * The time of the last log's id. An id starts with its logging time (12 hex digits of milliseconds, to the year
 * 10889), later than the one before on this page, so ids sort in the order of logging.
 */
let lastLogged = 0;

/** Whether an entry's id says when it was logged: ids of the older version are bare UUIDs (36 characters). */
const timed = (entry: MyEntry) => entry.entry_id.length > 36;

function withAmounts(goal: Goal, date: string, amounts: number[]): Goal {
  const sets = { ...goal.sets };
  if (amounts.length > 0) sets[date] = amounts;
  else delete sets[date];
  return { ...goal, sets };
}

/** Array.prototype.findLast, which the app's target (ES2022) does not have. */
function lastOf<T>(items: readonly T[], which: (item: T) => boolean): T | undefined {
  for (let index = items.length - 1; index >= 0; index--) if (which(items[index]!)) return items[index];
  return undefined;
}

function withoutSeq(op: QueuedOp): Omit<QueuedOp, 'seq'> {
  const { seq: _seq, ...rest } = op;
  return rest;
}

/**
 * The queued items that change the server. A queued log with its own undo queued after it (by its id), and that
 * undo, leave it as it is: the pending note and logout's warning do not count them, and undo goes past them
 * (decision 0189).
 */
function changesIn(ops: readonly QueuedOp[]): QueuedOp[] {
  const uses = new Map<string, number>();
  for (const { entry_id } of ops) if (entry_id !== null) uses.set(entry_id, (uses.get(entry_id) ?? 0) + 1);
  return ops.filter((op) => op.entry_id === null || uses.get(op.entry_id) === 1);
}
