import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { ROUTES } from '../../common/contract/routes.js';
import { canonicalTimeZone, isReminderChannel, isReminderTime, REMINDER_REFUSALS } from '../../common/reminders.js';
import { currentUser } from '../auth/plugin.js';
import type { AppDeps } from '../deps.js';
import { fromContract } from '../http/contract.js';
import { badRequest } from '../http/errors.js';
import { isOwnGoal } from '../goals/store.js';
import { goalNotFound, parseGoalId } from '../goals/validation.js';
import { findTimezone, saveTimezone } from './preferences-store.js';
import { findGoalOwner, findUserLocale, listReminders, removeReminder, saveReminder } from './store.js';
import { OFF_PAGE_CSS, reminderLinkInvalidPage, reminderOffDonePage, reminderOffQuestionPage } from './off-page.js';
import { verifyReminderOffToken } from './unsubscribe-link.js';
import { acceptLanguageLocale } from '../http/accept-language.js';

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
 * Every answer is a page for the person who opened the link, in their language (decision 0178): a link that is not
 * valid is a 404 page in the browser's language (the user it names is not known for sure), a goal deleted since
 * the mail the page of a reminder that is off, in the language of the user the signed token names.
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

    /** The link's goal and user, or null when its signature does not check out (damaged, cut off, made up). */
    const checkedLink = async (token: string) => {
      const named = verifyReminderOffToken(secretKey, token);
      if (!named) return null;
      const goal = await findGoalOwner(db, named.goalId);
      // A deleted goal has no reminder left: the link's work is done.
      return { ...named, goal: goal && goal.user_id === named.userId ? goal : null };
    };
    const browserLocale = (request: FastifyRequest) => acceptLanguageLocale(request.headers['accept-language']);
    const invalidLink = (request: FastifyRequest, reply: FastifyReply) =>
      reply
        .code(404)
        .type(HTML_TYPE)
        .send(reminderLinkInvalidPage(browserLocale(request), config.baseUrl));
    /** The page of a reminder that is off, when its goal is gone: in its user's language while the account lasts. */
    const gonePage = async (request: FastifyRequest, userId: number) =>
      reminderOffDonePage((await findUserLocale(db, userId)) ?? browserLocale(request), null, config.baseUrl);

    app.get(
      ROUTES.reminderOffPage.url,
      { ...fromContract('reminderOffPage'), config: { ...fromContract('reminderOffPage').config, signedLink: true } },
      async (request, reply) => {
        const link = await checkedLink(request.params.token);
        if (!link) return invalidLink(request, reply);
        const html = link.goal
          ? reminderOffQuestionPage(link.goal.locale, link.goal.name, `/api/reminders/off/${request.params.token}`)
          : await gonePage(request, link.userId);
        return reply.type(HTML_TYPE).send(html);
      },
    );

    app.post(
      ROUTES.reminderOff.url,
      { ...fromContract('reminderOff'), config: { ...fromContract('reminderOff').config, signedLink: true } },
      async (request, reply) => {
        const link = await checkedLink(request.params.token);
        if (!link) return invalidLink(request, reply);
        const { goalId, userId, goal } = link;
        if (!goal) return reply.type(HTML_TYPE).send(await gonePage(request, userId));
        await removeReminder(db, userId, goalId);
        return reply.type(HTML_TYPE).send(reminderOffDonePage(goal.locale, goal.name, config.baseUrl));
      },
    );

    // The pages' look, from our own origin: the Content-Security-Policy allows no inline style.
    app.get(ROUTES.reminderPageStyle.url, fromContract('reminderPageStyle'), async (_request, reply) =>
      reply.type('text/css; charset=utf-8').send(OFF_PAGE_CSS),
    );
  };
