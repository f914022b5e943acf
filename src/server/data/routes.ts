import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyPluginAsync } from 'fastify';
import { Type } from 'typebox';
import { findUserById } from '../accounts/store.js';
import { requireFilled } from '../accounts/validation.js';
import { verifyPassword } from '../auth/passwords.js';
import { currentUser, sessionContext } from '../auth/plugin.js';
import { endSession } from '../auth/session.js';
import { spendAttempt, type ThrottleRuleName } from '../auth/throttle.js';
import type { AppDeps } from '../deps.js';
import { insertGoals } from '../goals/store.js';
import { badRequest, unauthorized } from '../http/errors.js';
import { Ok, Text } from '../http/schemas.js';
import { exportCsv, exportDocument, exportFileName } from './export.js';
import { checkedImport, ImportProblem } from './import-check.js';
import { deleteUserEverywhere, listGoalsForExport } from './store.js';

/** An import may be large (3,000 dates on many goals); every other route keeps the 1 MB limit (app.ts). */
export const IMPORT_BODY_LIMIT_BYTES = 20 * 1024 * 1024;

/** Wrong passwords spend change-password's attempts of this session (decisions 0064, 0072). */
const PASSWORD_CHECK_RULE: ThrottleRuleName = 'changePasswordPerSession';

/** Export, import and account deletion (docs/api-data.md). */
export const dataRoutes =
  (deps: AppDeps): FastifyPluginAsync =>
  async (base) => {
    const app = base.withTypeProvider<TypeBoxTypeProvider>();
    const { db, clock } = deps;

    app.get('/api/export', async (request, reply) => {
      const sessionUser = currentUser(request);
      const user = await findUserById(db, sessionUser.id);
      if (!user) throw unauthorized();
      const now = clock.now();
      const document = exportDocument(user, await listGoalsForExport(db, user.id), now);
      return reply
        .type('application/json; charset=utf-8')
        .header('content-disposition', `attachment; filename="${exportFileName(now, 'json')}"`)
        .send(JSON.stringify(document));
    });

    app.get('/api/export.csv', async (request, reply) => {
      const user = currentUser(request);
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="${exportFileName(clock.now(), 'csv')}"`)
        .send(exportCsv(await listGoalsForExport(db, user.id)));
    });

    app.post(
      '/api/import',
      {
        bodyLimit: IMPORT_BODY_LIMIT_BYTES,
        schema: {
          response: {
            200: Type.Object({ ok: Type.Literal(true), goals: Type.Integer() }),
            400: Type.Object({ error: Type.String(), code: Type.String(), field: Type.Optional(Type.String()) }),
          },
        },
      },
      async (request, reply) => {
        const user = currentUser(request);
        let goals;
        try {
          goals = checkedImport(request.body);
        } catch (error) {
          if (!(error instanceof ImportProblem)) throw error;
          return reply.code(400).send({ error: error.message, code: error.code, field: error.field });
        }
        await insertGoals(db, user.id, goals, clock.now());
        return { ok: true as const, goals: goals.length };
      },
    );

    app.delete(
      '/api/me',
      { schema: { body: Type.Object({ password: Text() }), response: { 200: Ok } } },
      async (request, reply) => {
        const sessionUser = currentUser(request);
        requireFilled(request.body, ['password']);
        await spendAttempt(db, PASSWORD_CHECK_RULE, String(sessionUser.sessionId), clock.now());
        const user = await findUserById(db, sessionUser.id);
        if (!user) throw unauthorized();
        if (!(await verifyPassword(user.password_hash, request.body.password))) {
          throw badRequest('wrong_password', 'The password is wrong');
        }
        await deleteUserEverywhere(db, user);
        await endSession(sessionContext(deps), request, reply);
        return { ok: true as const };
      },
    );
  };
