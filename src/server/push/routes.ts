import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyPluginAsync } from 'fastify';
import { ROUTES } from '../../common/contract/routes.js';
import { currentUser } from '../auth/plugin.js';
import type { AppDeps } from '../deps.js';
import { fromContract } from '../http/contract.js';
import { badRequest } from '../http/errors.js';
import { checkPushEndpoint, UnsafeEndpointError } from './endpoint.js';
import { removePushSubscription, savePushSubscription } from './store.js';

/** A P-256 public key (65 bytes) and a 16-byte auth secret, URL-safe base64 as browsers send them. */
const P256DH = /^[A-Za-z0-9_-]{87}={0,1}$/;
const AUTH = /^[A-Za-z0-9_-]{22}(==)?$/;

/** `/api/push/key` and `/api/push/subscriptions` (docs/api-reminders.md). */
export const pushRoutes =
  (deps: AppDeps): FastifyPluginAsync =>
  async (base) => {
    const app = base.withTypeProvider<TypeBoxTypeProvider>();
    const { db, clock, config, push: sender } = deps;

    app.get(ROUTES.pushKey.url, fromContract('pushKey'), async () => ({ public_key: await sender.publicKey() }));

    app.post(ROUTES.addPushSubscription.url, fromContract('addPushSubscription'), async (request) => {
      const { endpoint, keys } = request.body;
      if (!P256DH.test(keys.p256dh)) {
        throw badRequest('invalid_push_subscription', 'keys.p256dh must be a P-256 public key', 'keys.p256dh');
      }
      if (!AUTH.test(keys.auth)) {
        throw badRequest('invalid_push_subscription', 'keys.auth must be a 16-byte secret', 'keys.auth');
      }
      try {
        await checkPushEndpoint(endpoint, config.pushTestOrigin);
      } catch (error) {
        if (error instanceof UnsafeEndpointError) throw badRequest('invalid_push_endpoint', error.message, 'endpoint');
        throw error;
      }
      const subscription = { endpoint, p256dh: keys.p256dh.replace(/=+$/, ''), auth: keys.auth.replace(/=+$/, '') };
      await savePushSubscription(db, currentUser(request).id, subscription, clock.now());
      return { ok: true as const };
    });

    app.delete(ROUTES.deletePushSubscription.url, fromContract('deletePushSubscription'), async (request) => {
      await removePushSubscription(db, currentUser(request).id, request.body.endpoint);
      return { ok: true as const };
    });
  };
