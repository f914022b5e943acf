/**
 * Web Push in the browser: whether this browser can get notifications at all, and subscribing it (the permission
 * is asked only from a tap, never on page load).
 */
import { api } from './api.js';

export type PushSupport = 'available' | 'unavailable' | 'denied';

/**
 * iOS and iPadOS offer Web Push only to a web app added to the Home Screen (16.4+): in a Safari tab PushManager
 * is missing, so this answers 'unavailable' there, and the app offers e-mail.
 */
export function pushSupport(): PushSupport {
  if (!('serviceWorker' in navigator) || !('PushManager' in window) || !('Notification' in window))
    return 'unavailable';
  return Notification.permission === 'denied' ? 'denied' : 'available';
}

/** Asks for permission (call from a tap), subscribes this browser and gives the subscription to the server. */
export async function subscribeToPush(): Promise<'ok' | 'denied'> {
  const permission = await Notification.requestPermission();
  if (permission !== 'granted') return 'denied';
  const registration = await navigator.serviceWorker.ready;
  let subscription = await registration.pushManager.getSubscription();
  if (!subscription) {
    const { public_key } = await api.pushKey();
    subscription = await registration.pushManager.subscribe({
      userVisibleOnly: true,
      applicationServerKey: fromBase64Url(public_key),
    });
  }
  await api.addPushSubscription(subscription.toJSON());
  return 'ok';
}

function fromBase64Url(text: string): Uint8Array<ArrayBuffer> {
  const base64 = text.replace(/-/g, '+').replace(/_/g, '/');
  const binary = atob(base64 + '='.repeat((4 - (base64.length % 4)) % 4));
  const bytes = new Uint8Array(new ArrayBuffer(binary.length));
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}
