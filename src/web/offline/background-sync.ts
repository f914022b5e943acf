/** The tag the service worker's `sync` handler answers (public/sw.js). */
export const SYNC_TAG = 'steady-outbox';

interface SyncRegistration extends ServiceWorkerRegistration {
  sync?: { register(tag: string): Promise<void> };
}

/**
 * Asks the browser to wake the service worker when the network is back (Background Sync, where the browser has
 * it): it then tells an open app to send its queue, or sends it itself when no tab is open.
 */
export function requestBackgroundSync(): void {
  if (!('serviceWorker' in navigator)) return;
  void navigator.serviceWorker.ready
    .then((registration: SyncRegistration) => registration.sync?.register(SYNC_TAG))
    .catch(() => undefined);
}
