import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyBaseLogger, FastifyPluginAsync } from 'fastify';
import { normalizeEmail } from '../../common/email.js';
import { hashPassword } from '../auth/passwords.js';
import { endAllSessions } from '../auth/session.js';
import { addressThrottleKey } from '../auth/client-address.js';
import { clientAndEmailSubject, tryAttempt } from '../auth/throttle.js';
import { constantTimeEqual, sha256Hex } from '../auth/tokens.js';
import type { AppDeps } from '../deps.js';
import { badRequest, HttpError } from '../http/errors.js';
import { fromContract } from '../http/contract.js';
import { ROUTES } from '../../common/contract/routes.js';
import { MailRefusedError } from '../mail/mailer.js';
import { passwordResetMail } from '../mail/templates.js';
import { createResetLink } from './reset-link.js';
import { ResetAnswerTiming } from './reset-timing.js';
import { claimReset, deleteResetBySelector, deleteUserResets, findResetBySelector } from './reset-store.js';
import { bumpCredentialVersion, findUserByEmail } from './store.js';
import { checkNewPassword, requireFilled } from './validation.js';

const mailFailed = () => new HttpError(500, 'mail_failed', 'The mail could not be sent; try again later');
const resetInvalid = () => badRequest('reset_invalid', 'The reset link is not valid', 'token');

/**
 * Password reset by mail (spec §4 Account). Whether an address is registered never shows: known, unknown,
 * malformed and throttled addresses all answer `{ ok: true }`, and every request that is not throttled talks to
 * the mail server, so a mail server that is down fails known and unknown addresses alike
 * (docs/decisions/0022-reset-request-answers.md); one that refuses a known address's mail answers `{ ok: true }`
 * as for an unknown one (0194).
 */
export const resetRoutes =
  (deps: AppDeps): FastifyPluginAsync =>
  async (base) => {
    const app = base.withTypeProvider<TypeBoxTypeProvider>();
    const { db, clock, config, mailer } = deps;
    const timing = new ResetAnswerTiming();

    app.post(ROUTES.resetRequest.url, fromContract('resetRequest'), async (request) => {
      requireFilled(request.body, ['email']);
      const email = normalizeEmail(request.body.email);
      const now = clock.now();
      const client = addressThrottleKey(request.ip);
      // In this order, so a client over its own limits spends nothing of the address's shared allowance.
      const allowed =
        (await tryAttempt(db, 'resetRequestPerAddress', client, now)) &&
        (await tryAttempt(db, 'resetMailPerClientAndEmail', clientAndEmailSubject(client, email), now)) &&
        (await tryAttempt(db, 'resetMailPerEmail', email, now));
      if (!allowed) return { ok: true as const };

      const startedAt = timing.start();
      const user = await findUserByEmail(db, email);
      if (user) {
        if (await sendResetMail(user, now, request.log)) timing.recordDelivery(startedAt);
        // Refused: answered like an unknown address, as late as one (decision 0194).
        else await timing.padFrom(startedAt);
      } else {
        await mailer.verify().catch((error: unknown) => failMail(error, request.log));
        await timing.padFrom(startedAt);
      }
      return { ok: true as const };
    });

    /**
     * True once the mail server accepted the mail. False when it refused this message (e.g. 501 for an address
     * it cannot take): that depends on the address, so the answer must not differ from an unknown address's, and
     * only the log tells the operator. An unreachable server fails unknown addresses too (`verify`): 500.
     */
    async function sendResetMail(
      user: { id: number; email: string; locale: string },
      now: number,
      log: FastifyBaseLogger,
    ): Promise<boolean> {
      const { selector, link } = await createResetLink(db, config.baseUrl, user.id, now);
      const mail = passwordResetMail(user.locale, link);
      try {
        await mailer.send({ to: user.email, ...mail });
        return true;
      } catch (error) {
        // The link never reached anyone, so it must not stay usable.
        await deleteResetBySelector(db, selector);
        if (error instanceof MailRefusedError) {
          log.error({ err: error, userId: user.id }, 'reset mail: the mail server refused it; answered {ok:true}');
          return false;
        }
        failMail(error, log);
      }
    }

    /** What the link `selector`/`token` can do now; a used link is gone, so it is invalid. */
    async function linkState(body: { selector: string; token: string }, now: number) {
      const selector = body.selector.trim();
      const tokenHash = sha256Hex(body.token.trim());
      const reset = await findResetBySelector(db, selector);
      if (!reset || !constantTimeEqual(reset.token_hash, tokenHash)) return { state: 'invalid' as const };
      if (reset.expires_at <= now) return { state: 'expired' as const };
      return { state: 'valid' as const, selector, tokenHash };
    }

    // Read only: the reset page asks when it opens, so nobody types a new password for a dead link (decision 0142).
    app.post(ROUTES.resetCheck.url, fromContract('resetCheck'), async (request) => ({
      state: (await linkState(request.body, clock.now())).state,
    }));

    app.post(ROUTES.resetPassword.url, fromContract('resetPassword'), async (request) => {
      requireFilled(request.body, ['selector', 'token', 'password']);
      const { password } = request.body;
      checkNewPassword(password);
      const now = clock.now();

      // Checked before hashing, so that invalid links cost no argon2 time.
      const link = await linkState(request.body, now);
      if (link.state === 'invalid') throw resetInvalid();
      if (link.state === 'expired') throw badRequest('reset_expired', 'The reset link has expired', 'token');
      const { selector, tokenHash } = link;
      const passwordHash = await hashPassword(password);

      await db.transaction().execute(async (trx) => {
        const userId = await claimReset(trx, { selector, tokenHash, now });
        if (userId === undefined) throw resetInvalid();
        await bumpCredentialVersion(trx, userId, { passwordHash });
        await deleteUserResets(trx, userId);
        await endAllSessions(trx, userId);
      });
      return { ok: true as const };
    });
  };

function failMail(error: unknown, log: FastifyBaseLogger): never {
  log.error({ err: error }, 'reset mail: the mail server failed');
  throw mailFailed();
}
