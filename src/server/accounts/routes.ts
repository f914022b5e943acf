import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { DEFAULT_LOCALE, LOCALES, isLocale, type Locale } from '../../common/locales.js';
import type { PatchMeAnswer } from '../../common/contract/schemas.js';
import { hashPassword, verifyAgainstDummy, verifyPassword } from '../auth/passwords.js';
import { currentUser, sessionContext } from '../auth/plugin.js';
import { endAllSessions, endSession, startSession } from '../auth/session.js';
import { addressThrottleKey } from '../auth/client-address.js';
import { spendAttempt } from '../auth/throttle.js';
import { isUniqueViolation } from '../db/dialect.js';
import { isAdmin } from '../config.js';
import type { AppDeps } from '../deps.js';
import { badRequest, conflict, HttpError, unauthorized } from '../http/errors.js';
import { fromContract } from '../http/contract.js';
import { ROUTES } from '../../common/contract/routes.js';
import { claimInvite, type InviteState, inviteState, recordInviteUser } from '../invites/store.js';
import { inviteTokenHash } from '../invites/service.js';
import { deleteUserResets } from './reset-store.js';
import { bumpCredentialVersion, findUserByEmail, findUserById, insertUser, updateUser } from './store.js';
import { checkedDisplayName, checkedEmail, checkNewPassword, requireFilled } from './validation.js';
import { normalizeEmail } from '../../common/email.js';

const INVITE_ERRORS = {
  unknown: ['invite_invalid', 'The invite link is not valid'],
  used: ['invite_used', 'The invite has already been used'],
  expired: ['invite_expired', 'The invite has expired'],
} as const;

const adminAddressNeedsOperatorInvite = () =>
  badRequest(
    'admin_email_needs_operator_invite',
    "The administrator's address can only be registered with an operator's invite",
  );

const emailTaken = () => conflict('email_taken', 'This e-mail address is already registered', 'email');

function inviteError(state: Exclude<InviteState, 'pending'>) {
  const [code, message] = INVITE_ERRORS[state];
  return badRequest(code, message, 'token');
}

export const accountRoutes =
  (deps: AppDeps): FastifyPluginAsync =>
  async (base) => {
    const app = base.withTypeProvider<TypeBoxTypeProvider>();
    const { db, clock, config } = deps;

    app.post(ROUTES.login.url, fromContract('login'), async (request, reply) => {
      requireFilled(request.body, ['email', 'password']);
      await spendAttempt(db, 'loginPerAddress', addressThrottleKey(request.ip), clock.now());
      const user = await findUserByEmail(db, normalizeEmail(request.body.email));
      const valid = user
        ? await verifyPassword(user.password_hash, request.body.password)
        : await verifyAgainstDummy(request.body.password);
      // A password change or reset that committed while this password was being checked also refuses it.
      const started =
        user &&
        valid &&
        (await startSession(sessionContext(deps), reply, { id: user.id, credentialVersion: user.credential_version }));
      if (!user || !started) throw new HttpError(401, 'invalid_credentials', 'Wrong e-mail or password');
      return { ok: true as const, email: user.email, name: user.name };
    });

    app.post(ROUTES.logout.url, fromContract('logout'), async (request, reply) => {
      await endSession(sessionContext(deps), request, reply);
      return { ok: true as const };
    });

    app.get(ROUTES.me.url, fromContract('me'), async (request, reply) => {
      const user = request.user;
      if (!user) return reply.code(401).send({ ok: false });
      const locale = isLocale(user.locale) ? user.locale : DEFAULT_LOCALE;
      return {
        ok: true as const,
        email: user.email,
        id: user.id,
        name: user.name,
        locale,
        is_admin: isAdmin(config, user.email),
      };
    });

    app.patch(ROUTES.patchMe.url, fromContract('patchMe'), async (request) => {
      const user = currentUser(request);
      const { name, locale } = request.body;
      if (name === undefined && locale === undefined)
        throw badRequest('missing_field', 'name must not be empty', 'name');
      const changes: { name?: string; locale?: Locale } = {};
      if (name !== undefined) {
        changes.name = checkedDisplayName(name);
        if (!changes.name) throw badRequest('missing_field', 'name must not be empty', 'name');
      }
      if (locale !== undefined) {
        if (!isLocale(locale))
          throw badRequest('invalid_locale', `locale must be one of ${LOCALES.join(', ')}`, 'locale');
        changes.locale = locale;
      }
      await updateUser(db, user.id, changes);
      return { ok: true as const, ...changes } as PatchMeAnswer;
    });

    app.post(ROUTES.register.url, fromContract('register'), async (request, reply) => {
      const body = request.body;
      requireFilled(body, ['email', 'password', 'token']);
      const email = checkedEmail(body.email);
      checkNewPassword(body.password);
      const name = checkedDisplayName(body.name ?? '');
      const tokenHash = inviteTokenHash(body.token);
      // Cheap reads first, so a bad token or a taken address costs no password hashing; the claim and the
      // unique index inside the transaction below are what count.
      const state = await inviteState(db, tokenHash, clock.now());
      if (state !== 'pending') throw inviteError(state);
      if (await findUserByEmail(db, email)) throw emailTaken();
      const passwordHash = await hashPassword(body.password);
      const now = clock.now();

      const userId = await db.transaction().execute(async (trx) => {
        const claim = await claimInvite(trx, tokenHash, now);
        if (!claim.ok) throw inviteError(claim.reason);
        // Whoever holds ADMIN_EMAIL is the administrator, so only the operator may hand that address out
        // (docs/decisions/0068-admin-address-registration.md).
        if (claim.createdBy !== null && isAdmin(config, email)) throw adminAddressNeedsOperatorInvite();
        let id: number;
        try {
          id = await insertUser(trx, { email, passwordHash, name, locale: DEFAULT_LOCALE, now });
        } catch (error) {
          if (isUniqueViolation(error)) throw emailTaken();
          throw error;
        }
        await recordInviteUser(trx, claim.inviteId, id);
        return id;
      });

      // A new user starts at credential version 0 (the column's default).
      await startSession(sessionContext(deps), reply, { id: userId, credentialVersion: 0 });
      return { ok: true as const, email, name };
    });

    app.post(ROUTES.changePassword.url, fromContract('changePassword'), async (request, reply) => {
      const sessionUser = currentUser(request);
      requireFilled(request.body, ['old_password', 'new_password']);
      checkNewPassword(request.body.new_password, 'new_password');
      // Per session, so that whoever holds a copied cookie cannot lock the owner out of other logins (decision 0064).
      await spendAttempt(db, 'changePasswordPerSession', String(sessionUser.sessionId), clock.now());
      const user = await findUserById(db, sessionUser.id);
      if (!user || !(await verifyPassword(user.password_hash, request.body.old_password))) {
        throw badRequest('wrong_password', 'The current password is wrong', 'old_password');
      }
      const passwordHash = await hashPassword(request.body.new_password);
      const version = await db.transaction().execute(async (trx) => {
        const bumped = await bumpCredentialVersion(trx, user.id, {
          passwordHash,
          expectedVersion: sessionUser.credentialVersion,
        });
        if (bumped === undefined) return undefined;
        // Reset links asked for before the change must not undo it.
        await deleteUserResets(trx, user.id);
        await endAllSessions(trx, user.id);
        return bumped;
      });
      // A reset or another change came first and already ended this session.
      if (version === undefined) throw unauthorized();
      // Every other device is logged out; this one continues on a fresh session and remember-me token.
      await startSession(sessionContext(deps), reply, { id: user.id, credentialVersion: version });
      return { ok: true as const };
    });

    /** "Log out everywhere else" (docs/api-logging.md): every other session and remember-me token ends. */
    app.post(ROUTES.logoutOthers.url, fromContract('logoutOthers'), async (request, reply) => {
      const sessionUser = currentUser(request);
      const version = await db.transaction().execute(async (trx) => {
        const bumped = await bumpCredentialVersion(trx, sessionUser.id, {
          expectedVersion: sessionUser.credentialVersion,
        });
        if (bumped !== undefined) await endAllSessions(trx, sessionUser.id);
        return bumped;
      });
      if (version === undefined) throw unauthorized();
      // This device continues on a fresh session and remember-me token issued under the new version.
      await startSession(sessionContext(deps), reply, { id: sessionUser.id, credentialVersion: version });
      return { ok: true as const };
    });
  };
