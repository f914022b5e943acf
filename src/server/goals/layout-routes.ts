import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyPluginAsync } from 'fastify';
import { ROUTES } from '../../common/contract/routes.js';
import { currentUser } from '../auth/plugin.js';
import type { AppDeps } from '../deps.js';
import { fromContract } from '../http/contract.js';
import { notFound } from '../http/errors.js';
import { readGoalLayout, setGoalArchived, setGoalOrder } from './layout-store.js';
import { goalNotFound, parseGoalId } from './validation.js';

/**
 * The goal layout (decision 0093): order and archive, kept on the server so every device shows the same Today.
 * Separate endpoints, so `GET /api/goals` keeps the spec's creation order and shape.
 */
export const goalLayoutRoutes =
  (deps: AppDeps): FastifyPluginAsync =>
  async (base) => {
    const app = base.withTypeProvider<TypeBoxTypeProvider>();
    const { db, clock } = deps;

    app.get(ROUTES.goalLayout.url, fromContract('goalLayout'), async (request) => {
      const layout = await readGoalLayout(db, currentUser(request).id);
      return { order: layout.order.map(String), archived: layout.archived.map(String) };
    });

    app.put(ROUTES.setGoalOrder.url, fromContract('setGoalOrder'), async (request) => {
      const ids = request.body.ids.map((raw) => parseGoalId(raw));
      const badIndex = ids.indexOf(null);
      if (badIndex >= 0) throw notInOrder(badIndex);
      const foreign = await setGoalOrder(db, currentUser(request).id, ids as number[]);
      if (foreign.length > 0) throw notInOrder(ids.indexOf(foreign[0]!));
      return { ok: true as const };
    });

    const archiveRoute = (name: 'archiveGoal' | 'unarchiveGoal') =>
      app.post(ROUTES[name].url, fromContract(name), async (request) => {
        const goalId = parseGoalId(request.params.id);
        const archivedAt = name === 'archiveGoal' ? clock.now() : null;
        if (goalId === null || !(await setGoalArchived(db, currentUser(request).id, goalId, archivedAt))) {
          throw goalNotFound();
        }
        return { ok: true as const };
      });
    archiveRoute('archiveGoal');
    archiveRoute('unarchiveGoal');
  };

/** The listed id that is not one of the caller's goals, named as `ids[3]`. */
const notInOrder = (index: number) =>
  notFound('goal_not_found', `ids[${index}] is not one of your goals`, `ids[${index}]`);
