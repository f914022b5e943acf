import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyPluginAsync } from 'fastify';
import { Type } from 'typebox';
import { currentUser } from '../auth/plugin.js';
import { spendAttempt } from '../auth/throttle.js';
import type { AppDeps } from '../deps.js';
import { Text } from '../http/schemas.js';
import { checkedInviteNote } from './note.js';
import { createInvite } from './service.js';
import { listInvitesByCreator } from './store.js';
import { toInviteView } from './view.js';

const Nullable = <T extends ReturnType<typeof Type.String>>(schema: T) => Type.Union([schema, Type.Null()]);

const InviteAnswer = Type.Object({
  url: Nullable(Type.String()),
  note: Nullable(Type.String()),
  status: Type.Union([Type.Literal('pending'), Type.Literal('used'), Type.Literal('expired')]),
  created_at: Type.String(),
  expires_at: Type.String(),
  used_at: Nullable(Type.String()),
  used_by_email: Nullable(Type.String()),
});

/** `POST /api/invite` and `GET /api/invites` (spec §4 Invites); registration with a token is in accounts. */
export const inviteRoutes =
  (deps: AppDeps): FastifyPluginAsync =>
  async (base) => {
    const app = base.withTypeProvider<TypeBoxTypeProvider>();

    app.post(
      '/api/invite',
      {
        schema: {
          body: Type.Object({ note: Type.Optional(Text()) }),
          response: { 200: Type.Object({ url: Type.String() }) },
        },
        // Every field is optional, so a POST without any body simply means "no note".
        preValidation: async (request) => {
          request.body ??= {};
        },
      },
      async (request) => {
        const user = currentUser(request);
        const note = checkedInviteNote(request.body.note);
        await spendAttempt(deps.db, 'invitePerUser', String(user.id), deps.clock.now());
        const { url } = await createInvite(deps, user.id, note);
        return { url };
      },
    );

    app.get('/api/invites', { schema: { response: { 200: Type.Array(InviteAnswer) } } }, async (request) => {
      const user = currentUser(request);
      const now = deps.clock.now();
      const rows = await listInvitesByCreator(deps.db, user.id);
      return rows.map((row) => toInviteView(deps, row, now));
    });
  };
