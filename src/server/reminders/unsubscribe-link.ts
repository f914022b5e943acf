import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * The signed one-click link that turns one reminder off without a session (mail clients and their
 * List-Unsubscribe-Post call it). The token is `<goal id>.<user id>.<signature>`: an HMAC-SHA256 under a key
 * derived from the server's secret key, so it cannot be forged or moved to another goal, and it keeps working
 * for as long as the goal exists (it only ever removes that goal's reminder).
 */
const PURPOSE = 'steady reminder off v1';

function signingKey(secretKey: Buffer): Buffer {
  return createHmac('sha256', secretKey).update(PURPOSE).digest();
}

function signature(secretKey: Buffer, goalId: number, userId: number): Buffer {
  return createHmac('sha256', signingKey(secretKey)).update(`${goalId}.${userId}`).digest();
}

export function reminderOffToken(secretKey: Buffer, goalId: number, userId: number): string {
  return `${goalId}.${userId}.${signature(secretKey, goalId, userId).toString('base64url')}`;
}

export function reminderOffUrl(baseUrl: string, secretKey: Buffer, goalId: number, userId: number): string {
  return `${baseUrl}/api/reminders/off/${reminderOffToken(secretKey, goalId, userId)}`;
}

/** The goal and user a token names when its signature is right (compared in constant time), else null. */
export function verifyReminderOffToken(secretKey: Buffer, token: string): { goalId: number; userId: number } | null {
  const match = /^(\d{1,15})\.(\d{1,15})\.([A-Za-z0-9_-]{43})$/.exec(token);
  if (!match) return null;
  const goalId = Number(match[1]);
  const userId = Number(match[2]);
  const given = Buffer.from(match[3]!, 'base64url');
  const expected = signature(secretKey, goalId, userId);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  return { goalId, userId };
}
