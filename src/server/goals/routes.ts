import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyPluginAsync } from 'fastify';
import { Type } from 'typebox';
import { currentUser } from '../auth/plugin.js';
import type { AppDeps } from '../deps.js';
import { GOAL_BODY_LIMIT_BYTES } from '../http/body-limits.js';
import { notFound } from '../http/errors.js';
import { Ok } from '../http/schemas.js';
import { goalJson, goalListJson } from './serialize.js';
import { appendAmount, removeLastAmount } from './sets.js';
import { serverTimeZone } from './start.js';
import { GoalListCache } from './list-cache.js';
import { deleteGoal, editGoalSets, goalsVersion, insertGoal, listGoals, updateGoal } from './store.js';
import {
  checkedGoalChanges,
  checkedLogAmount,
  checkedLogDate,
  checkedNewGoal,
  parseGoalId,
} from './validation.js';

/**
 * Any JSON object: the goal fields are checked by `validation.ts`, which names the field and never coerces,
 * rather than by Ajv. Unknown fields are ignored (docs/decisions/0030-goal-api-choices.md).
 */
const AnyObject = Type.Record(Type.String(), Type.Unknown());
const GoalParams = Type.Object({ id: Type.String() });
const LogParams = Type.Object({ id: Type.String(), date: Type.String() });
const LogAnswer = Type.Object({ ok: Type.Literal(true), date: Type.String(), amounts: Type.Array(Type.Number()) });

const JSON_TYPE = 'application/json; charset=utf-8';
const goalNotFound = () => notFound('goal_not_found', 'Goal not found');

/** The spec's goal endpoints plus the atomic logging endpoints of docs/api-logging.md. */
export const goalRoutes =
  (deps: AppDeps): FastifyPluginAsync =>
  async (base) => {
    const app = base.withTypeProvider<TypeBoxTypeProvider>();
    const { db, clock } = deps;
    const timeZone = serverTimeZone();

    // No response schema on purpose: the answer is built as text around the stored sets JSON
    // (docs/decisions/0033-goal-list-hot-path.md).
    const listCache = new GoalListCache();
    app.get('/api/goals', async (request, reply) => {
      const userId = currentUser(request).id;
      const version = await goalsVersion(db, userId);
      let body = listCache.get(userId, version);
      if (!body) {
        body = Buffer.from(goalListJson(await listGoals(db, userId)));
        listCache.set(userId, version, body);
      }
      return reply.type(JSON_TYPE).send(body);
    });

    app.post('/api/goals', { bodyLimit: GOAL_BODY_LIMIT_BYTES, schema: { body: AnyObject } }, async (request, reply) => {
      const user = currentUser(request);
      const now = clock.now();
      const goal = await insertGoal(db, user.id, checkedNewGoal(request.body, now, timeZone), now);
      return reply.type(JSON_TYPE).send(goalJson(goal));
    });

    app.patch(
      '/api/goals/:id',
      { bodyLimit: GOAL_BODY_LIMIT_BYTES, schema: { params: GoalParams, body: AnyObject, response: { 200: Ok } } },
      async (request) => {
        const user = currentUser(request);
        const changes = checkedGoalChanges(request.body);
        const goalId = parseGoalId(request.params.id);
        if (goalId === null || !(await updateGoal(db, user.id, goalId, changes, clock.now()))) throw goalNotFound();
        return { ok: true as const };
      },
    );

    app.delete('/api/goals/:id', { schema: { params: GoalParams, response: { 200: Ok } } }, async (request) => {
      const user = currentUser(request);
      const goalId = parseGoalId(request.params.id);
      if (goalId !== null) await deleteGoal(db, user.id, goalId);
      return { ok: true as const };
    });

    const logRoute = (path: string, edit: typeof appendAmount) =>
      app.post(path, { schema: { params: LogParams, body: AnyObject, response: { 200: LogAnswer } } }, async (request) => {
        const user = currentUser(request);
        const goalId = parseGoalId(request.params.id);
        if (goalId === null) throw goalNotFound();
        const date = checkedLogDate(request.params.date);
        const amount = checkedLogAmount(request.body.amount);
        const edited = await editGoalSets(db, user.id, goalId, clock.now(), (sets) => edit(sets, date, amount));
        if (!edited) throw goalNotFound();
        return { ok: true as const, date, amounts: edited.result };
      });

    logRoute('/api/goals/:id/sets/:date', appendAmount);
    logRoute('/api/goals/:id/sets/:date/remove', removeLastAmount);
  };
