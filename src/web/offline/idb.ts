/**
 * A small promise wrapper around IndexedDB for the offline copy (decision 0095): one database, three stores.
 * - `copy`: the last known user, goals and layout, keyed by `me`, `goals:<user id>`, `layout:<user id>`;
 * - `outbox`: queued logs and removals in the order they were made (auto-increment `seq`);
 * - `mine`: the entries this device logged (by `entry_id`, which starts with the logging time, so in the order of
 *   logging; decision 0189), so undo can name the entry it takes back.
 * The service worker (public/sw.js) opens the same database for Background Sync; keep the names in step.
 * Without IndexedDB (some private modes) every call fails and the app runs online only.
 */

export const DB_NAME = 'steady';
const DB_VERSION = 1;
export type StoreName = 'copy' | 'outbox' | 'mine';

let opening: Promise<IDBDatabase> | null = null;

function open(): Promise<IDBDatabase> {
  opening ??= new Promise<IDBDatabase>((resolve, reject) => {
    const request = indexedDB.open(DB_NAME, DB_VERSION);
    request.onupgradeneeded = () => {
      const db = request.result;
      db.createObjectStore('copy');
      db.createObjectStore('outbox', { keyPath: 'seq', autoIncrement: true });
      db.createObjectStore('mine', { keyPath: 'entry_id' });
    };
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error ?? new Error('IndexedDB unavailable'));
  }).catch((error: unknown) => {
    opening = null;
    throw error;
  });
  return opening;
}

function done(transaction: IDBTransaction): Promise<void> {
  return new Promise((resolve, reject) => {
    transaction.oncomplete = () => resolve();
    transaction.onerror = transaction.onabort = () => reject(transaction.error ?? new Error('IndexedDB failed'));
  });
}

function result<T>(request: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error ?? new Error('IndexedDB failed'));
  });
}

export async function idbGet<T>(store: StoreName, key: IDBValidKey): Promise<T | undefined> {
  const db = await open();
  return result(db.transaction(store).objectStore(store).get(key)) as Promise<T | undefined>;
}

export async function idbAll<T>(store: StoreName): Promise<T[]> {
  const db = await open();
  return result(db.transaction(store).objectStore(store).getAll()) as Promise<T[]>;
}

/** Writes `value` (under `key` for the `copy` store); answers the key, e.g. an outbox entry's new `seq`. */
export async function idbPut(store: StoreName, value: unknown, key?: IDBValidKey): Promise<IDBValidKey> {
  const db = await open();
  const transaction = db.transaction(store, 'readwrite');
  const written = result(transaction.objectStore(store).put(value, key));
  await done(transaction);
  return written;
}

export async function idbDelete(store: StoreName, keys: IDBValidKey[]): Promise<void> {
  if (keys.length === 0) return;
  const db = await open();
  const transaction = db.transaction(store, 'readwrite');
  for (const key of keys) transaction.objectStore(store).delete(key);
  await done(transaction);
}

/**
 * Removes what this browser keeps of one user (logout, account deletion): their goal copy, layout, queued entries and
 * logged entries, and the start's last known user. Another person's queued entries stay: their session ended before
 * they were sent, and their next login here sends them (decision 0176).
 */
export async function idbForgetUser(userId: number): Promise<void> {
  const db = await open();
  const transaction = db.transaction(['copy', 'outbox', 'mine'], 'readwrite');
  for (const key of ['me', `goals:${userId}`, `layout:${userId}`]) transaction.objectStore('copy').delete(key);
  for (const store of ['outbox', 'mine'] as const) {
    eachRow(transaction.objectStore(store), (cursor) => {
      if ((cursor.value as { user_id?: unknown }).user_id === userId) cursor.delete();
    });
  }
  await done(transaction);
}

/**
 * Rewrites, in one transaction, every row of `store` that `change` answers a new value for, and answers those values.
 * Two tabs changing the same rows take turns: the second sees the first one's values.
 */
export async function idbChange<T>(store: StoreName, change: (value: T) => T | undefined): Promise<T[]> {
  const db = await open();
  const transaction = db.transaction(store, 'readwrite');
  const changed: T[] = [];
  eachRow(transaction.objectStore(store), (cursor) => {
    const value = change(cursor.value as T);
    if (value) {
      changed.push(value);
      cursor.update(value);
    }
  });
  await done(transaction);
  return changed;
}

function eachRow(store: IDBObjectStore, visit: (cursor: IDBCursorWithValue) => void): void {
  const cursors = store.openCursor();
  cursors.onsuccess = () => {
    const cursor = cursors.result;
    if (!cursor) return;
    visit(cursor);
    cursor.continue();
  };
}
