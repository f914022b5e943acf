import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import { currentUser } from '../auth/plugin.js';
import type { AppDeps } from '../deps.js';
import { GOAL_BODY_LIMIT_BYTES } from '../http/body-limits.js';
import { encodingFor, sendCompressible } from '../http/compression.js';
import { fromContract } from '../http/contract.js';
import { ROUTES } from '../../common/contract/routes.js';
import { goalJson, goalListBody, setsJson } from './serialize.js';
import { serverTimeZone } from './start.js';
import { findTimezone } from '../reminders/preferences-store.js';
import { GoalListCache } from './list-cache.js';
import { logEntry, removeEntry } from './entries-store.js';
import { deleteGoal, entryParts, goalJsonById, insertGoal, insertKeyedGoal, listGoals, updateGoal } from './store.js';
import { idempotencyKeyOf, KeyedBodies, keyReused } from '../http/idempotency-key.js';
import {
  checkedEntryId,
  checkedGoalChanges,
  checkedLogAmount,
  checkedLogDate,
  checkedNewGoal,
  goalNotFound,
  parseGoalId,
} from './validation.js';

/*
 * The bodies are any JSON object (contract: AnyObject): the goal fields are checked by `validation.ts`, which
 * names the field and never coerces, rather than by Ajv. Unknown fields are ignored (decision 0030).
 */

const JSON_TYPE = 'application/json; charset=utf-8';

/** The spec's goal endpoints plus the atomic logging endpoints of docs/api-logging.md. */
export const goalRoutes =
  (deps: AppDeps): FastifyPluginAsync =>
  async (base) => {
    const app = base.withTypeProvider<TypeBoxTypeProvider>();
    const { db, clock } = deps;
    /** The zone of a person who has set none (decision 0031). */
    const timeZone = serverTimeZone();

    // The answer is built as text from the goal rows and one ordered read of their entries (decisions 0033,
    // 0090); Fastify sends a Buffer as it is,
    // so the contract's response schema documents it without a serialisation step (a test checks the bytes).
    const { database } = deps.config;
    const listCache = new GoalListCache(
      deps.config.goalListCacheBytes,
      database.kind === 'postgres' ? database.poolSize : 1,
    );
    app.get(ROUTES.listGoals.url, fromContract('listGoals'), async (request, reply) => {
      // The version came with the session lookup (decision 0110): read before the goals, as the cache needs.
      const { id: userId, goalsVersion: version } = currentUser(request);
      const list = await listCache.getOrBuild(userId, version, async () =>
        goalListBody(await listGoals(db, userId), entryParts(db, userId)),
      );
      reply.type(JSON_TYPE);
      return sendCompressible(reply, list, encodingFor(request, list.body));
    });

    // An Idempotency-Key makes a retried creation answer the goal the first one made (decision 0130).
    const keyedBodies = new KeyedBodies();
    app.post(
      ROUTES.createGoal.url,
      {
        ...fromContract('createGoal'),
        bodyLimit: GOAL_BODY_LIMIT_BYTES,
        preParsing: async (request, _reply, payload) => keyedBodies.read(request, idempotencyKeyOf(request), payload),
      },
      async (request, reply) => {
        const user = currentUser(request);
        const now = clock.now();
        // A zoned or missing start is read in the person's own zone when they have set one, as their reminders are:
        // day 1 is then their calendar day, not the server's (decision 0210).
        const checked = checkedNewGoal(request.body, now, (await findTimezone(db, user.id)) ?? timeZone);
        const key = keyedBodies.of(request);
        const created = key
          ? await insertKeyedGoal(db, user.id, checked, now, key)
          : await insertGoal(db, user.id, checked, now);
        if (created === 'reused') throw keyReused();
        if ('repeatOf' in created) {
          // The goal as it is now; deleted since, the repeat finds nothing to answer with.
          const goal = await goalJsonById(db, user.id, created.repeatOf);
          if (goal === undefined) throw goalNotFound();
          return sendJsonText(reply, goal);
        }
        return sendJsonText(reply, goalJson(created, setsJson(checked.sets)));
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

    // Refusal order (docs/api-logging.md): a non-numeric id, the date, the body, then whether the goal exists.
    app.post(ROUTES.logAmount.url, fromContract('logAmount'), async (request) => {
      const user = currentUser(request);
      const goalId = parseGoalId(request.params.id);
      if (goalId === null) throw goalNotFound();
      const date = checkedLogDate(request.params.date);
      const amount = checkedLogAmount(request.body.amount);
      const entryId = request.body.entry_id === undefined ? undefined : checkedEntryId(request.body.entry_id);
      const amounts = await logEntry(db, user.id, goalId, { date, amount, entryId }, clock.now());
      if (!amounts) throw goalNotFound();
      return { ok: true as const, date, amounts };
    });

    // An Idempotency-Key makes a repeated undo by amount take one amount away, not two (decision 0200).
    const keyedRemovals = new KeyedBodies();
    app.post(
      ROUTES.removeAmount.url,
      {
        ...fromContract('removeAmount'),
        preParsing: async (request, _reply, payload) => keyedRemovals.read(request, idempotencyKeyOf(request), payload),
      },
      async (request) => {
        const user = currentUser(request);
        const goalId = parseGoalId(request.params.id);
        if (goalId === null) throw goalNotFound();
        const date = checkedLogDate(request.params.date);
        const { body } = request;
        // With an entry_id, that entry is removed; an amount sent along must still be valid but is not used.
        if (body.entry_id !== undefined && body.amount !== undefined) checkedLogAmount(body.amount);
        const removal =
          body.entry_id === undefined
            ? { date, amount: checkedLogAmount(body.amount) }
            : { date, entryId: checkedEntryId(body.entry_id) };
        const amounts = await removeEntry(db, user.id, goalId, removal, clock.now(), keyedRemovals.of(request));
        if (amounts === 'reused') throw keyReused();
        if (!amounts) throw goalNotFound();
        return { ok: true as const, date, amounts };
      },
    );
  };

/**
 * Sends JSON built as text (serialize.ts) as it is: Fastify serialises only objects, so the route's response schema
 * documents this answer without costing a step. The reply is widened because the schema's type is the object.
 */
function sendJsonText(reply: FastifyReply, json: string): FastifyReply {
  return (reply as FastifyReply).type(JSON_TYPE).send(json);
}
