import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import { currentUser } from '../auth/plugin.js';
import type { AppDeps } from '../deps.js';
import { GOAL_BODY_LIMIT_BYTES } from '../http/body-limits.js';
import { notFound } from '../http/errors.js';
import { fromContract } from '../http/contract.js';
import { ROUTES } from '../../common/contract/routes.js';
import { goalJson, goalListJson } from './serialize.js';
import { appendAmount, removeLastAmount } from './sets.js';
import { serverTimeZone } from './start.js';
import { GoalListCache } from './list-cache.js';
import { deleteGoal, editGoalSets, insertGoal, listGoals, updateGoal } from './store.js';
import { checkedGoalChanges, checkedLogAmount, checkedLogDate, checkedNewGoal, parseGoalId } from './validation.js';

/*
 * The bodies are any JSON object (contract: AnyObject): the goal fields are checked by `validation.ts`, which
 * names the field and never coerces, rather than by Ajv. Unknown fields are ignored (decision 0030).
 */

const JSON_TYPE = 'application/json; charset=utf-8';
const goalNotFound = () => notFound('goal_not_found', 'Goal not found');

/** The spec's goal endpoints plus the atomic logging endpoints of docs/api-logging.md. */
export const goalRoutes =
  (deps: AppDeps): FastifyPluginAsync =>
  async (base) => {
    const app = base.withTypeProvider<TypeBoxTypeProvider>();
    const { db, clock } = deps;
    const timeZone = serverTimeZone();

    // The answer is built as text around the stored sets JSON (decision 0033); Fastify sends a Buffer as it is,
    // so the contract's response schema documents it without a serialisation step (a test checks the bytes).
    const listCache = new GoalListCache(deps.config.goalListCacheBytes);
    app.get(ROUTES.listGoals.url, fromContract('listGoals'), async (request, reply) => {
      // The version came with the session lookup (decision 0110): read before the goals, as the cache needs.
      const { id: userId, goalsVersion: version } = currentUser(request);
      let body = listCache.get(userId, version);
      if (!body) {
        body = Buffer.from(goalListJson(await listGoals(db, userId)));
        listCache.set(userId, version, body);
      }
      return sendJsonText(reply, body);
    });

    app.post(
      ROUTES.createGoal.url,
      { ...fromContract('createGoal'), bodyLimit: GOAL_BODY_LIMIT_BYTES },
      async (request, reply) => {
        const user = currentUser(request);
        const now = clock.now();
        const goal = await insertGoal(db, user.id, checkedNewGoal(request.body, now, timeZone), now);
        return sendJsonText(reply, goalJson(goal));
      },
    );

    app.patch(
      ROUTES.patchGoal.url,
      { ...fromContract('patchGoal'), bodyLimit: GOAL_BODY_LIMIT_BYTES },
      async (request) => {
        const user = currentUser(request);
        const changes = checkedGoalChanges(request.body);
        const goalId = parseGoalId(request.params.id);
        if (goalId === null || !(await updateGoal(db, user.id, goalId, changes, clock.now()))) throw goalNotFound();
        return { ok: true as const };
      },
    );

    app.delete(ROUTES.deleteGoal.url, fromContract('deleteGoal'), async (request) => {
      const user = currentUser(request);
      const goalId = parseGoalId(request.params.id);
      if (goalId !== null) await deleteGoal(db, user.id, goalId);
      return { ok: true as const };
    });

    const logRoute = (name: 'logAmount' | 'removeAmount', edit: typeof appendAmount) =>
      app.post(ROUTES[name].url, fromContract(name), async (request) => {
        const user = currentUser(request);
        const goalId = parseGoalId(request.params.id);
        if (goalId === null) throw goalNotFound();
        const date = checkedLogDate(request.params.date);
        const amount = checkedLogAmount(request.body.amount);
        const edited = await editGoalSets(db, user.id, goalId, clock.now(), (sets) => edit(sets, date, amount));
        if (!edited) throw goalNotFound();
        return { ok: true as const, date, amounts: edited.result };
      });

    logRoute('logAmount', appendAmount);
    logRoute('removeAmount', removeLastAmount);
  };

/**
 * Sends JSON built as text (serialize.ts) as it is: Fastify serialises only objects, so the route's response schema
 * documents this answer without costing a step. The reply is widened because the schema's type is the object.
 */
function sendJsonText(reply: FastifyReply, json: string | Buffer): FastifyReply {
  return (reply as FastifyReply).type(JSON_TYPE).send(json);
}
