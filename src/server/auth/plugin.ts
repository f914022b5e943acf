import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppDeps } from '../deps.js';
import { unauthorized } from '../http/errors.js';
import { type AuthenticatedUser, resolveUser, type SessionContext } from './session.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Routes are private unless they say `config: { public: true }`; the hook below decides. */
    public?: boolean;
  }
  interface FastifyRequest {
    /** The logged-in user, or null on a public route without a session. */
    user: AuthenticatedUser | null;
  }
}

/** Resolves the session of every API request and refuses private routes without one (401). */
export function installAuth(app: FastifyInstance, deps: AppDeps): void {
  app.decorateRequest('user', null);
  app.addHook('onRequest', async (request, reply) => {
    if (!request.routeOptions.url?.startsWith('/api/')) return;
    request.user = await resolveUser(sessionContext(deps), request, reply);
    if (!request.user && !request.routeOptions.config.public) throw unauthorized();
  });
}

export function sessionContext(deps: AppDeps): SessionContext {
  return { db: deps.db, now: deps.clock.now(), secure: deps.config.secureCookies };
}

/** The user of a private route; the auth hook already guaranteed there is one. */
export function currentUser(request: FastifyRequest): AuthenticatedUser {
  if (!request.user) throw unauthorized();
  return request.user;
}
