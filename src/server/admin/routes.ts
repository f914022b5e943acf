import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyPluginAsync } from 'fastify';
import { listUsers } from '../accounts/store.js';
import { currentUser } from '../auth/plugin.js';
import { isAdmin } from '../config.js';
import type { AppDeps } from '../deps.js';
import { fromContract } from '../http/contract.js';
import { forbidden } from '../http/errors.js';
import { ROUTES } from '../../common/contract/routes.js';

/**
 * `GET /api/admin/users` (spec §4 Admin). Administrator rights are not stored: the caller's (normalized) e-mail
 * must equal ADMIN_EMAIL. Without a session the auth hook answers 401 first (docs/decisions/0024-admin-without-session.md).
 */
export const adminRoutes =
  (deps: AppDeps): FastifyPluginAsync =>
  async (base) => {
    const app = base.withTypeProvider<TypeBoxTypeProvider>();

    app.get(ROUTES.adminUsers.url, fromContract('adminUsers'), async (request) => {
      const user = currentUser(request);
      if (!isAdmin(deps.config, user.email)) {
        throw forbidden('forbidden', 'Only the administrator may list users');
      }
      const users = await listUsers(deps.db);
      return users.map((row) => ({
        id: row.id,
        email: row.email,
        username: row.name,
        registered: Math.floor(row.created_at / 1000),
      }));
    });
  };
