// Steady's service worker: keeps the app shell (the page, its scripts and styles, icons) so the app starts offline.
// The API is never cached: private data stays on the server and is always fresh.
const CACHE = 'steady-shell-v1';
const STATIC = ['/manifest.webmanifest', '/icon.svg', '/icon-192.png', '/icon-512.png'];

self.addEventListener('install', (event) => {
  event.waitUntil(cacheShell().then(() => self.skipWaiting()));
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((names) => Promise.all(names.filter((name) => name !== CACHE).map((name) => caches.delete(name))))
      .then(() => self.clients.claim()),
  );
});

self.addEventListener('fetch', (event) => {
  const request = event.request;
  if (request.method !== 'GET') return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin || url.pathname.startsWith('/api/') || url.pathname === '/sw.js') return;
  // Only the app's own address is the page; an icon or the manifest opened in a tab is a navigation too.
  if (url.pathname === '/' || url.pathname === '/index.html') {
    event.respondWith(pageNetworkFirst(event));
  } else if (url.pathname.startsWith('/assets/')) {
    event.respondWith(cacheFirst(request));
  } else if (STATIC.includes(url.pathname)) {
    event.respondWith(networkFirst(event, url.pathname));
  }
});

/**
 * How long a start waits for the network before it opens with the cached copy (decision 0147): a phone on a bad
 * network can hold a request for minutes without an answer or an error. The network's answer, when it comes, still
 * refreshes the cache for the next start.
 */
const NETWORK_WAIT_MS = 3000;

/** The page from the network (fresh after a deployment), the cached shell when offline or slow. */
function pageNetworkFirst(event) {
  return networkFirst(event, '/', async (response) => {
    if (!isHtml(response)) return false;
    // A new deployment brings new hashed assets: fetch them now, so the next offline start has them.
    cacheAssetsOf(await response.clone().text()).catch(() => undefined);
    return true;
  });
}

function isHtml(response) {
  return (response.headers.get('content-type') ?? '').startsWith('text/html');
}

/** Hashed assets never change, so a cached copy is always right. */
async function cacheFirst(request) {
  const cached = await caches.match(request);
  if (cached) return cached;
  const response = await fetch(request);
  if (response.ok) (await caches.open(CACHE)).put(request, response.clone());
  return response;
}

/**
 * The request of `event` fresh from the network, kept under `key` when `keep(response)` agrees; the cached copy when
 * the network fails, or answers nothing within NETWORK_WAIT_MS while a copy is there. The page, the manifest and the
 * icons keep their names across deployments, so the network comes first.
 */
async function networkFirst(event, key, keep = async () => true) {
  const fresh = fetch(event.request).then(async (response) => {
    if (response.ok && (await keep(response))) await (await caches.open(CACHE)).put(key, response.clone());
    return response;
  });
  // The worker stays until the network's answer is kept, even when the cached copy answered first.
  event.waitUntil(fresh.catch(() => undefined));
  const cached = await caches.match(key);
  if (!cached) return fresh;
  let timer;
  const slow = new Promise((resolve) => (timer = setTimeout(() => resolve(cached), NETWORK_WAIT_MS)));
  try {
    return await Promise.race([fresh, slow]);
  } catch {
    return cached;
  } finally {
    clearTimeout(timer);
  }
}

async function cacheShell() {
  const cache = await caches.open(CACHE);
  const response = await fetch('/', { cache: 'no-cache' });
  if (!response.ok || !isHtml(response)) return;
  await cache.put('/', response.clone());
  await cache.addAll(STATIC).catch(() => undefined);
  await cacheAssetsOf(await response.text());
}

/** Caches the scripts and styles the page refers to (those not cached yet) and forgets assets of older builds. */
async function cacheAssetsOf(html) {
  const cache = await caches.open(CACHE);
  const wanted = [...html.matchAll(/(?:src|href)="(\/assets\/[^"]+)"/g)].map((match) => new URL(match[1], self.location.origin).href);
  if (wanted.length === 0) return;
  const cached = new Set((await cache.keys()).map((request) => request.url));
  await cache.addAll(wanted.filter((href) => !cached.has(href)));
  const keep = new Set(wanted);
  for (const href of cached) {
    if (new URL(href).pathname.startsWith('/assets/') && !keep.has(href)) await cache.delete(href);
  }
}

// Background Sync (decisions 0095, 0128): the app asks for a sync when it queues a log or an undo. When the network
// is back the browser wakes this worker. An open app that answers the hand-over sends its queue itself (it shows the
// result), and takes over the rows of tabs that are gone (each row names the Web Lock of the tab sending it, decision
// 0190; this worker takes no lock and reads no such name); otherwise (no tab, or only tabs the browser froze in the
// background, which answer nothing until they wake) the worker sends the IndexedDB outbox (src/web/offline/idb.ts,
// goal-store.ts) with the same rules. Every log and every undo of a sent entry carries its entry_id, and every undo
// by amount its Idempotency-Key (decision 0200), so the app and the worker sending the same one change it once.
const SYNC_TAG = 'steady-outbox';
/** How long an open app has to answer the hand-over; a running one answers at once. */
const HANDOVER_WAIT_MS = 2000;

self.addEventListener('sync', (event) => {
  if (event.tag === SYNC_TAG) event.waitUntil(syncOutbox());
});

async function syncOutbox() {
  // Uncontrolled windows too (opened before this worker took over): their app takes over the outbox rows of tabs that
  // are gone (decision 0190), so sending as if no app were open would send an undo by value twice.
  const windows = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
  if (windows.length > 0 && (await handedOver(windows))) return;
  // A frozen tab still holds the queue in memory and sends it when it wakes: only what is safe to send twice may be
  // sent now.
  await sendOutbox({ onlyRepeatable: windows.length > 0 });
}

/** True when an open app takes the sync over: it answers on the message's port. */
function handedOver(windows) {
  return new Promise((resolve) => {
    const ports = [];
    const decide = (taken) => {
      clearTimeout(timer);
      for (const port of ports) port.close();
      resolve(taken);
    };
    const timer = setTimeout(() => decide(false), HANDOVER_WAIT_MS);
    for (const client of windows) {
      const channel = new MessageChannel();
      channel.port1.onmessage = () => decide(true);
      ports.push(channel.port1);
      client.postMessage({ type: 'steady-sync' }, [channel.port2]);
    }
  });
}

/**
 * Sends the queue in order. With `onlyRepeatable`, stops before the first undo without an entry_id (an amount taken
 * back by its value, which a second sending would take back twice); it and everything after it wait for the app.
 */
async function sendOutbox({ onlyRepeatable }) {
  const db = await openOutbox();
  if (!db) return;
  const ops = (await inStore(db, 'outbox', 'readonly', (store) => store.getAll())).sort((a, b) => a.seq - b.seq);
  for (const op of ops) {
    if (onlyRepeatable && !op.entry_id) return;
    const path = `/api/goals/${encodeURIComponent(op.goal_id)}/sets/${encodeURIComponent(op.date)}`;
    const body =
      op.kind === 'log'
        ? { amount: op.amount, entry_id: op.entry_id }
        : op.entry_id
          ? { entry_id: op.entry_id }
          : { amount: op.amount };
    // A network failure rejects: the browser runs the sync again later.
    const response = await fetch(op.kind === 'log' ? path : `${path}/remove`, {
      method: 'POST',
      credentials: 'same-origin',
      headers: {
        accept: 'application/json',
        'content-type': 'application/json',
        // An undo by amount's key: sent by the app as well, it takes one amount away (decision 0200).
        ...(op.key && { 'idempotency-key': op.key }),
      },
      body: JSON.stringify(body),
    });
    // Not the entry's fault (server trouble, no session): keep it and everything after it for later.
    if (response.status >= 500 || response.status === 429 || response.status === 401) {
      throw new Error(`outbox sync: ${response.status}`);
    }
    // Refused for good (a goal deleted elsewhere: 404, an amount the server does not take): it stays for the app,
    // which sends it at its next start and says what became of it; dropped here, it would vanish without a word.
    if (!response.ok) continue;
    if (op.kind === 'log') {
      const mine = { user_id: op.user_id, entry_id: op.entry_id, goal_id: op.goal_id, date: op.date, amount: op.amount };
      await inStore(db, 'mine', 'readwrite', (store) => store.put({ ...mine, removed: false }));
    }
    await inStore(db, 'outbox', 'readwrite', (store) => store.delete(op.seq));
  }
}

function openOutbox() {
  return new Promise((resolve) => {
    const request = indexedDB.open('steady');
    request.onupgradeneeded = () => {
      // The app has not made its database yet: nothing is queued.
      request.transaction.abort();
    };
    request.onsuccess = () => resolve(request.result);
    // No database (or none usable): nothing to send.
    request.onerror = () => resolve(null);
  });
}

function inStore(db, name, mode, action) {
  return new Promise((resolve, reject) => {
    const request = action(db.transaction(name, mode).objectStore(name));
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
}
// Reminders (issue 11): the server's Web Push payload is { title, body, url }; a tap opens that goal.
self.addEventListener('push', (event) => {
  let data = {};
  try {
    data = event.data ? event.data.json() : {};
  } catch {
    data = { body: event.data ? event.data.text() : '' };
  }
  event.waitUntil(
    self.registration.showNotification(data.title || 'Steady', {
      body: data.body || '',
      icon: '/icon-192.png',
      badge: '/icon-192.png',
      data: { url: data.url || '/' },
      tag: data.url || 'steady-reminder',
    }),
  );
});

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const target = new URL(event.notification.data?.url || '/', self.location.origin);
  // Only our own pages: the payload comes from our server, but a link elsewhere has no place in a reminder.
  const url = target.origin === self.location.origin ? target.href : self.location.origin + '/';
  event.waitUntil(
    self.clients.matchAll({ type: 'window', includeUncontrolled: true }).then((windows) => {
      const open = windows.find((client) => new URL(client.url).origin === self.location.origin);
      // navigate() works only on a window this worker controls; otherwise (or if it fails) a new window opens.
      if (open) {
        return open
          .navigate(url)
          .then((client) => (client || open).focus())
          .catch(() => self.clients.openWindow(url));
      }
      return self.clients.openWindow(url);
    }),
  );
});
