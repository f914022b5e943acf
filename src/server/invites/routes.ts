import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyPluginAsync } from 'fastify';
import { currentUser } from '../auth/plugin.js';
import { spendAttempt } from '../auth/throttle.js';
import type { AppDeps } from '../deps.js';
import { fromContract } from '../http/contract.js';
import { notFound } from '../http/errors.js';
import { idempotencyKeyOf, IDEMPOTENCY_KEY_FIELD, KeyedBodies, keyReused } from '../http/idempotency-key.js';
import { ROUTES } from '../../common/contract/routes.js';
import { checkedInviteNote } from './note.js';
import { createInvite, createKeyedInvite, inviteTokenHash } from './service.js';
import { inviteState, listInvitesByCreator } from './store.js';
import { toInviteView } from './view.js';

/**
 * `POST /api/invite` and `GET /api/invites` (spec §4 Invites), and the check of a link before registering;
 * registration with a token is in accounts.
 */
export const inviteRoutes =
  (deps: AppDeps): FastifyPluginAsync =>
  async (base) => {
    const app = base.withTypeProvider<TypeBoxTypeProvider>();

    // An Idempotency-Key makes a retried creation answer the link the first one made (decision 0141).
    const keyedBodies = new KeyedBodies();
    app.post(
      ROUTES.createInvite.url,
      {
        ...fromContract('createInvite'),
        preParsing: async (request, _reply, payload) => keyedBodies.read(request, idempotencyKeyOf(request), payload),
        // Every field is optional, so a POST without any body simply means "no note".
        preValidation: async (request) => {
          request.body ??= {};
        },
      },
      async (request) => {
        const user = currentUser(request);
        const note = checkedInviteNote(request.body.note);
        await spendAttempt(deps.db, 'invitePerUser', String(user.id), deps.clock.now());
        const key = keyedBodies.of(request);
        if (!key) return { url: (await createInvite(deps, user.id, note)).url };
        const created = await createKeyedInvite(deps, user.id, note, key);
        if (created === 'reused') throw keyReused();
        if (created === 'gone') {
          throw notFound(
            'invite_not_found',
            'The invite this key made was used or revoked since',
            IDEMPOTENCY_KEY_FIELD,
          );
        }
        return created;
      },
    );

    // Read only, as registration's first step is: whoever has the link learns what registering would answer.
    app.post(ROUTES.checkInvite.url, fromContract('checkInvite'), async (request) => {
      const state = await inviteState(deps.db, inviteTokenHash(request.body.token), deps.clock.now());
      return { state: state === 'unknown' ? ('invalid' as const) : state };
    });

    app.get(ROUTES.listInvites.url, fromContract('listInvites'), async (request) => {
      const user = currentUser(request);
      const now = deps.clock.now();
      const rows = await listInvitesByCreator(deps.db, user.id);
      return rows.map((row) => toInviteView(deps, row, now));
    });
  };
