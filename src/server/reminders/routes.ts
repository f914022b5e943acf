import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyPluginAsync } from 'fastify';
import { ROUTES } from '../../common/contract/routes.js';
import { canonicalTimeZone, isReminderChannel, isReminderTime, REMINDER_REFUSALS } from '../../common/reminders.js';
import { currentUser } from '../auth/plugin.js';
import type { AppDeps } from '../deps.js';
import { fromContract } from '../http/contract.js';
import { badRequest } from '../http/errors.js';
import { isOwnGoal } from '../goals/store.js';
import { goalNotFound, parseGoalId } from '../goals/validation.js';
import { findTimezone, saveTimezone } from './preferences-store.js';
import { findGoalOwner, listReminders, removeReminder, saveReminder } from './store.js';
import { reminderOffDonePage, reminderOffQuestionPage } from './off-page.js';
import { verifyReminderOffToken } from './unsubscribe-link.js';

const HTML_TYPE = 'text/html; charset=utf-8';

/** `/api/preferences`, `/api/goals/:id/reminder`, `/api/reminders` (docs/api-reminders.md). */
export const reminderRoutes =
  (deps: AppDeps): FastifyPluginAsync =>
  async (base) => {
    const app = base.withTypeProvider<TypeBoxTypeProvider>();
    const { db, clock } = deps;

    app.get(ROUTES.getPreferences.url, fromContract('getPreferences'), async (request) => ({
      timezone: await findTimezone(db, currentUser(request).id),
    }));

    app.patch(ROUTES.patchPreferences.url, fromContract('patchPreferences'), async (request) => {
      const timezone = canonicalTimeZone(request.body.timezone);
      if (timezone === null) {
        throw badRequest(
          'invalid_timezone',
          'timezone must be an IANA time zone name such as Europe/Berlin',
          'timezone',
        );
      }
      await saveTimezone(db, currentUser(request).id, timezone, clock.now());
      return { ok: true as const, timezone };
    });

    /** The caller's goal id from the path; 404 for a malformed id, another user's goal or a missing one. */
    const ownGoalId = async (userId: number, raw: string): Promise<number> => {
      const goalId = parseGoalId(raw);
      if (goalId === null || !(await isOwnGoal(db, userId, goalId))) throw goalNotFound();
      return goalId;
    };

    app.put(ROUTES.putReminder.url, fromContract('putReminder'), async (request) => {
      const user = currentUser(request);
      const { time, channel } = request.body;
      if (!isReminderTime(time)) throw badRequest('invalid_reminder_time', `time ${REMINDER_REFUSALS.time}`, 'time');
      if (!isReminderChannel(channel)) {
        throw badRequest('invalid_reminder_channel', `channel ${REMINDER_REFUSALS.channel}`, 'channel');
      }
      const goalId = await ownGoalId(user.id, request.params.id);
      await saveReminder(db, user.id, goalId, { time, channel }, clock.now());
      return { ok: true as const };
    });

    app.delete(ROUTES.deleteReminder.url, fromContract('deleteReminder'), async (request) => {
      const user = currentUser(request);
      await removeReminder(db, user.id, await ownGoalId(user.id, request.params.id));
      return { ok: true as const };
    });

    app.get(ROUTES.listReminders.url, fromContract('listReminders'), async (request) =>
      (await listReminders(db, currentUser(request).id)).map((reminder) => ({
        goal_id: String(reminder.goal_id),
        time: reminder.time,
        channel: reminder.channel,
      })),
    );

    await app.register(reminderOffRoutes(deps));
  };

/**
 * The mail's signed link. Its own plugin, so only these two routes take the form bodies a mail client's one-click
 * POST sends (RFC 8058), and the CSRF guard lets them through: the signature is their authority, not a cookie.
 */
const reminderOffRoutes =
  (deps: AppDeps): FastifyPluginAsync =>
  async (base) => {
    const app = base.withTypeProvider<TypeBoxTypeProvider>();
    const { db, secretKey, config } = deps;
    for (const type of ['application/x-www-form-urlencoded', 'multipart/form-data', 'text/plain']) {
      // The body says "List-Unsubscribe=One-Click" at most; the token in the path is all that counts.
      app.addContentTypeParser(type, { parseAs: 'string' }, (_request, _body, done) => done(null, undefined));
    }

    const checkedLink = async (token: string) => {
      const named = verifyReminderOffToken(secretKey, token);
      if (!named) throw badRequest('reminder_link_invalid', 'This reminder link is not valid', 'token');
      const goal = await findGoalOwner(db, named.goalId);
      // A deleted goal has no reminder left: the link's work is done.
      return { ...named, goal: goal && goal.user_id === named.userId ? goal : null };
    };

    app.get(
      ROUTES.reminderOffPage.url,
      { ...fromContract('reminderOffPage'), config: { ...fromContract('reminderOffPage').config, signedLink: true } },
      async (request, reply) => {
        const { goal } = await checkedLink(request.params.token);
        const html = goal
          ? reminderOffQuestionPage(goal.locale, goal.name, `/api/reminders/off/${request.params.token}`)
          : reminderOffDonePage('en', null, config.baseUrl);
        return reply.type(HTML_TYPE).send(html);
      },
    );

    app.post(
      ROUTES.reminderOff.url,
      { ...fromContract('reminderOff'), config: { ...fromContract('reminderOff').config, signedLink: true } },
      async (request, reply) => {
        const { goalId, userId, goal } = await checkedLink(request.params.token);
        if (goal) await removeReminder(db, userId, goalId);
        return reply
          .type(HTML_TYPE)
          .send(reminderOffDonePage(goal?.locale ?? 'en', goal?.name ?? null, config.baseUrl));
      },
    );
  };
