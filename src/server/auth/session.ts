import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import { DAY, MINUTE } from '../clock.js';
import type { Database } from '../db/schema.js';
import * as store from './sessions-store.js';
import { constantTimeEqual, isHexToken, randomToken, sha256Hex } from './tokens.js';

/** Spec §5: a session lasts 86,400 s from login, however active it is. */
export const SESSION_LIFETIME_MS = DAY;
/** Remember-me: 30 days since its last use, rotated on every use (docs/decisions/0003-sessions-and-remember-me.md). */
export const REMEMBER_LIFETIME_MS = 30 * DAY;
/** How long after a rotation the replaced validator is refused quietly instead of being taken as theft. */
export const REMEMBER_ROTATION_GRACE_MS = MINUTE;

export interface CookieNames {
  session: string;
  remember: string;
}

/** `__Host-` names bind the cookies to our exact origin over https; plain http cannot use that prefix. */
export function cookieNames(secure: boolean): CookieNames {
  return secure
    ? { session: '__Host-steady_session', remember: '__Host-steady_remember' }
    : { session: 'steady_session', remember: 'steady_remember' };
}

export interface SessionContext {
  db: Kysely<Database>;
  now: number;
  secure: boolean;
}

/** The logged-in user of a request: `{ id, email, name, locale }` and the session it came with. */
export type AuthenticatedUser = store.SessionUser;

/** Whom a new login is for: the user and the credential version its password was checked against. */
export interface LoginSubject {
  id: number;
  credentialVersion: number;
}

/**
 * Starts a new session and remember-me token for `user` and sets both cookies. Both carry the credential version
 * the password was checked against; when a password change or reset bumped it meanwhile, the new rows are
 * removed again, no cookie is set and the answer is false (docs/decisions/0060-credential-version.md).
 */
export async function startSession(ctx: SessionContext, reply: FastifyReply, user: LoginSubject): Promise<boolean> {
  const session = await insertNewSession(ctx, user);
  const selector = randomToken(16);
  const validator = randomToken();
  await store.insertRememberToken(ctx.db, {
    selector,
    validatorHash: sha256Hex(validator),
    userId: user.id,
    credentialVersion: user.credentialVersion,
    now: ctx.now,
    expiresAt: ctx.now + REMEMBER_LIFETIME_MS,
  });
  // The rows would never be accepted anyway (lookups compare versions); removing them keeps the tables clean.
  if ((await store.credentialVersion(ctx.db, user.id)) !== user.credentialVersion) {
    await store.deleteSessionByHash(ctx.db, session.tokenHash);
    await store.deleteRememberTokenBySelector(ctx.db, selector);
    return false;
  }
  setSessionCookie(ctx, reply, session.token);
  setRememberCookie(ctx, reply, { selector, validator });
  return true;
}

/**
 * Finds the user behind the request's cookies. A valid session cookie wins; otherwise a valid remember-me
 * cookie buys a fresh session, and its validator is replaced (the selector stays). Presenting a replaced
 * validator later means the cookie was copied and used elsewhere: all of that user's logins end
 * (docs/decisions/0010-remember-me-rotation.md).
 */
export async function resolveUser(
  ctx: SessionContext,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<AuthenticatedUser | null> {
  const names = cookieNames(ctx.secure);
  const sessionToken = request.cookies[names.session];
  if (isHexToken(sessionToken)) {
    const found = await store.findSessionUser(ctx.db, sha256Hex(sessionToken), ctx.now);
    if (found) return found;
  }

  const remember = parseRememberCookie(request.cookies[names.remember]);
  if (!remember) return null;
  const token = await store.findRememberToken(ctx.db, remember.selector);
  if (!token || token.expires_at <= ctx.now || token.credential_version !== token.user_credential_version) return null;
  if (!constantTimeEqual(token.validator_hash, sha256Hex(remember.validator))) {
    // Within the grace period this is most likely the same browser's parallel request that lost the race below.
    if (ctx.now - token.issued_at >= REMEMBER_ROTATION_GRACE_MS) await store.deleteAllUserLogins(ctx.db, token.user_id);
    return null;
  }
  const validator = randomToken();
  // Compare-and-swap on the old validator: of two requests racing with one cookie, only one gets a session.
  const rotated = await store.rotateRememberValidator(ctx.db, {
    id: token.id,
    expectedHash: token.validator_hash,
    validatorHash: sha256Hex(validator),
    now: ctx.now,
    expiresAt: ctx.now + REMEMBER_LIFETIME_MS,
  });
  if (!rotated) return null;
  const credentialVersion = token.credential_version;
  const sessionId = await issueSessionCookie(ctx, reply, { id: token.user_id, credentialVersion });
  setRememberCookie(ctx, reply, { selector: remember.selector, validator });
  return {
    id: token.user_id,
    email: token.email,
    name: token.name,
    locale: token.locale,
    sessionId,
    credentialVersion,
    goalsVersion: token.goals_version,
  };
}

/**
 * Whether the request's session or remember-me cookie was a login of an account deleted since (decision 0198). Asked
 * only of a request refused for want of a session, so a valid login costs nothing more; only the token's holder can
 * learn it, as the hashes are of the cookie's secrets.
 */
export function isGoneLogin(ctx: SessionContext, request: FastifyRequest): Promise<boolean> {
  const names = cookieNames(ctx.secure);
  const sessionToken = request.cookies[names.session];
  const remember = parseRememberCookie(request.cookies[names.remember]);
  const hashes = [
    ...(isHexToken(sessionToken) ? [sha256Hex(sessionToken)] : []),
    ...(remember ? [sha256Hex(remember.validator)] : []),
  ];
  return store.isGoneLogin(ctx.db, hashes, ctx.now);
}

/** Ends the request's session and remember-me token server-side and clears both cookies. */
export async function endSession(ctx: SessionContext, request: FastifyRequest, reply: FastifyReply): Promise<void> {
  const names = cookieNames(ctx.secure);
  const sessionToken = request.cookies[names.session];
  if (isHexToken(sessionToken)) await store.deleteSessionByHash(ctx.db, sha256Hex(sessionToken));
  const remember = parseRememberCookie(request.cookies[names.remember]);
  if (remember) await store.deleteRememberTokenBySelector(ctx.db, remember.selector);
  reply.clearCookie(names.session, cookieOptions(ctx.secure, 0));
  reply.clearCookie(names.remember, cookieOptions(ctx.secure, 0));
}

/** Deletes every login of `userId` (all devices), e.g. after a password reset; the version bump is what ends them. */
export function endAllSessions(db: Kysely<Database>, userId: number): Promise<void> {
  return store.deleteAllUserLogins(db, userId);
}

/** A fresh session for a rotated remember-me token (which carries its own credential version); returns its id. */
async function issueSessionCookie(ctx: SessionContext, reply: FastifyReply, user: LoginSubject): Promise<number> {
  const session = await insertNewSession(ctx, user);
  setSessionCookie(ctx, reply, session.token);
  return session.id;
}

/** Stores a new session for `user` under its credential version; the token is for the cookie only. */
async function insertNewSession(ctx: SessionContext, user: LoginSubject) {
  const token = randomToken();
  const tokenHash = sha256Hex(token);
  const id = await store.insertSession(ctx.db, {
    tokenHash,
    userId: user.id,
    credentialVersion: user.credentialVersion,
    now: ctx.now,
    expiresAt: ctx.now + SESSION_LIFETIME_MS,
  });
  return { token, tokenHash, id };
}

function setSessionCookie(ctx: SessionContext, reply: FastifyReply, sessionToken: string): void {
  reply.setCookie(cookieNames(ctx.secure).session, sessionToken, cookieOptions(ctx.secure, SESSION_LIFETIME_MS));
}

function setRememberCookie(
  ctx: SessionContext,
  reply: FastifyReply,
  token: { selector: string; validator: string },
): void {
  const value = `${token.selector}.${token.validator}`;
  reply.setCookie(cookieNames(ctx.secure).remember, value, cookieOptions(ctx.secure, REMEMBER_LIFETIME_MS));
}

function cookieOptions(secure: boolean, maxAgeMs: number) {
  return { path: '/', httpOnly: true, sameSite: 'lax' as const, secure, maxAge: Math.floor(maxAgeMs / 1000) };
}

function parseRememberCookie(value: string | undefined): { selector: string; validator: string } | null {
  const [selector, validator, ...rest] = (value ?? '').split('.');
  if (rest.length > 0 || !isHexToken(selector, 32) || !isHexToken(validator)) return null;
  return { selector, validator };
}
