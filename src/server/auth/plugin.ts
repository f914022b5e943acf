import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppDeps } from '../deps.js';
import { accountDeleted, unauthorized } from '../http/errors.js';
import { type AuthenticatedUser, isGoneLogin, resolveUser, type SessionContext } from './session.js';

/**
 * How a route treats the session, declared in its `config: { auth }`:
 * - `required` (the default): resolved; 401 without one (`account_deleted` for a login of a deleted account).
 * - `optional`: resolved when there is one; the route sees `request.user` or null (GET /api/me).
 * - `none`: never resolved, so no session query and no remember-me rotation (login, register, logout, resets).
 */
export type RouteAuth = 'required' | 'optional' | 'none';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** `required` unless the route says otherwise; the hook below decides. */
    auth?: RouteAuth;
  }
  interface FastifyRequest {
    /** The logged-in user; null on an `optional` route without a session and always on a `none` route. */
    user: AuthenticatedUser | null;
  }
}

/** Resolves the session of API requests as their route's `auth` mode says and refuses `required` ones without one (401). */
export function installAuth(app: FastifyInstance, deps: AppDeps): void {
  app.decorateRequest('user', null);
  // Decided once per route as it is registered (every route registered after this passes here), so a request runs
  // only the check its route declares. A route's own hooks run after the app's, so this stays the last onRequest.
  app.addHook('onRoute', (route) => {
    if (!route.url.startsWith('/api/')) return;
    const mode = route.config?.auth ?? 'required';
    if (mode === 'none') return;
    const authenticate = async (request: FastifyRequest, reply: FastifyReply) => {
      const ctx = sessionContext(deps);
      request.user = await resolveUser(ctx, request, reply);
      if (request.user || mode !== 'required') return;
      // GET /api/me (optional) keeps the spec's `{ ok: false }`; the app asks a required route to learn why.
      throw (await isGoneLogin(ctx, request)) ? accountDeleted() : unauthorized();
    };
    route.onRequest = [...hookList(route.onRequest), authenticate];
  });
}

function hookList<Hook>(hooks: Hook | Hook[] | undefined): Hook[] {
  if (hooks === undefined) return [];
  return Array.isArray(hooks) ? hooks : [hooks];
}

export function sessionContext(deps: AppDeps): SessionContext {
  return { db: deps.db, now: deps.clock.now(), secure: deps.config.secureCookies };
}

/** The user of an `auth: 'required'` route; the auth hook already guaranteed there is one. */
export function currentUser(request: FastifyRequest): AuthenticatedUser {
  if (!request.user) throw unauthorized();
  return request.user;
}
