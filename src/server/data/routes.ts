import { Readable } from 'node:stream';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import { findUserById } from '../accounts/store.js';
import { ConcurrencyLimit } from '../concurrency-limit.js';
import { requireFilled } from '../accounts/validation.js';
import { verifyPassword } from '../auth/passwords.js';
import { currentUser, sessionContext } from '../auth/plugin.js';
import { endSession } from '../auth/session.js';
import { spendAttempt, type ThrottleRuleName } from '../auth/throttle.js';
import type { AppDeps } from '../deps.js';
import { badRequest, unauthorized } from '../http/errors.js';
import { idempotencyKeyOf, KeyedBodies, keyReused } from '../http/idempotency-key.js';
import { fromContract } from '../http/contract.js';
import { IMPORT_BODY_LIMIT_BYTES } from '../../common/contract/export-identity.js';
import { ROUTES } from '../../common/contract/routes.js';
import { csvDialect, exportCsv, exportFileName, exportJson } from './export.js';
import { checkedImport } from './import-check.js';
import { deleteUserEverywhere, goalsForExport, importGoals } from './store.js';

/**
 * An import holds its whole body as objects until its rows are in (about 100 MB of heap for 20 MiB of one-digit
 * amounts), so a process parses and inserts one at a time (decision 0116).
 */
const IMPORTS_AT_ONCE = 1;

/**
 * Waits for a place of `limit` and keeps it until the response closes: when the answer is sent or the connection is
 * gone, also while still waiting (the place is then given back as soon as it comes).
 */
async function holdUntilAnswered(limit: ConcurrencyLimit, reply: FastifyReply): Promise<void> {
  const place = limit.acquire();
  reply.raw.once('close', () => void place.then((release) => release()));
  await place;
}

/** Wrong passwords spend change-password's attempts of this session (decisions 0064, 0072). */
const PASSWORD_CHECK_RULE: ThrottleRuleName = 'changePasswordPerSession';

/** Export, import and account deletion (docs/api-data.md). */
export const dataRoutes =
  (deps: AppDeps): FastifyPluginAsync =>
  async (base) => {
    const app = base.withTypeProvider<TypeBoxTypeProvider>();
    const { db, clock } = deps;

    app.get(ROUTES.exportJson.url, fromContract('exportJson'), async (request, reply) => {
      const sessionUser = currentUser(request);
      const user = await findUserById(db, sessionUser.id);
      if (!user) throw unauthorized();
      const now = clock.now();
      const goals = await goalsForExport(db, user.id);
      // Sent as text in parts (the schema documents it; tests check every export against it): a failure after the
      // first part cuts the download, which the browser reports as failed rather than saving a partial file.
      return (reply as FastifyReply)
        .type('application/json; charset=utf-8')
        .header('content-disposition', `attachment; filename="${exportFileName(now, 'json')}"`)
        .send(Readable.from(exportJson(user, goals, now)));
    });

    app.get(ROUTES.exportCsv.url, fromContract('exportCsv'), async (request, reply) => {
      const user = currentUser(request);
      const goals = await goalsForExport(db, user.id);
      return (reply as FastifyReply)
        .type('text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="${exportFileName(clock.now(), 'csv')}"`)
        .send(Readable.from(exportCsv(goals, csvDialect(user.locale))));
    });

    const importPlaces = new ConcurrencyLimit(IMPORTS_AT_ONCE);
    /** Each keyed import's key and the SHA-256 of its body, taken as the body is read (decision 0127). */
    const keyedBodies = new KeyedBodies();
    app.post(
      ROUTES.importGoals.url,
      {
        ...fromContract('importGoals'),
        // An import may be large (3,000 dates on many goals): 20 MiB, shared with the web app, which checks a file's
        // size against it before reading it; other routes keep 16 KiB or the goals' 1 MiB (http/body-limits.ts).
        bodyLimit: IMPORT_BODY_LIMIT_BYTES,
        // After the session check (onRequest), before the body is read: a waiting upload waits in the network, and a
        // malformed key is refused before 20 MB are sent.
        preParsing: async (request, reply, payload) => {
          const key = idempotencyKeyOf(request);
          await holdUntilAnswered(importPlaces, reply as FastifyReply);
          return keyedBodies.read(request, key, payload);
        },
      },
      async (request) => {
        const user = currentUser(request);
        // Throws ImportProblem: 400 invalid_import with the path of the bad value as `field`, before anything is written.
        const goals = checkedImport(request.body);
        const outcome = await importGoals(db, user.id, goals, clock.now(), keyedBodies.of(request));
        if (outcome === 'reused') throw keyReused();
        return { ok: true as const, goals: outcome.goals };
      },
    );

    app.delete(ROUTES.deleteMe.url, fromContract('deleteMe'), async (request, reply) => {
      const sessionUser = currentUser(request);
      requireFilled(request.body, ['password']);
      await spendAttempt(db, PASSWORD_CHECK_RULE, String(sessionUser.sessionId), clock.now());
      const user = await findUserById(db, sessionUser.id);
      if (!user) throw unauthorized();
      if (!(await verifyPassword(user.password_hash, request.body.password))) {
        throw badRequest('wrong_password', 'The password is wrong', 'password');
      }
      await deleteUserEverywhere(db, user, clock.now());
      await endSession(sessionContext(deps), request, reply);
      return { ok: true as const };
    });
  };
