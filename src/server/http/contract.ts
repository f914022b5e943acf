import { ROUTES, type RouteName } from '../../common/contract/routes.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route's entry in the contract (common/contract/routes.ts); the OpenAPI document is built from it. */
    contract?: RouteName;
  }
}

/**
 * A route's options from the contract: its schemas (validation, answers, documentation) and its auth mode.
 * `app.post(ROUTES.login.url, fromContract('login'), handler)`; the method and path must match the entry (a test
 * compares every route Fastify knows with the document).
 */
export function fromContract<N extends RouteName>(name: N) {
  const entry = ROUTES[name];
  return { config: { auth: entry.auth, contract: name }, schema: entry.schema as (typeof ROUTES)[N]['schema'] };
}
