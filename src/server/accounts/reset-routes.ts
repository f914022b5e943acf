import type { FastifyPluginAsync } from 'fastify';
import type { AppDeps } from '../deps.js';

// Placeholder until the feature lands; the app registers it already.
export const resetRoutes =
  (_deps: AppDeps): FastifyPluginAsync =>
  async () => {};
