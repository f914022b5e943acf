/**
 * The route table of the HTTP API: every route's method, path, auth mode, request schemas and the answer of every
 * status it gives. Server routes take their `schema` from here (server/http/contract.ts), @fastify/swagger turns
 * them into `GET /api/openapi.json`, and the test client checks every answer of the HTTP suite against that
 * document. Adding a route: DEVELOPERS.md, "Adding a route".
 */
import type { TSchema } from 'typebox';
import { ErrorBody, unavailableAnswer } from './errors.js';
import * as S from './schemas.js';

export type RouteAuth = 'required' | 'optional' | 'none';
export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** What a route declares; the statuses every route of its kind can answer are added by `route()`. */
interface RouteSpec<B, P, R extends TSchema, E extends number, O extends Record<number, TSchema>> {
  method: Method;
  url: string;
  auth: RouteAuth;
  summary: string;
  tags: string[];
  body?: B;
  params?: P;
  /** Documented request body when the route validates a looser one by hand (the goal routes). */
  documentedBody?: TSchema;
  /** The success answer: status 200 unless `successStatus` says otherwise. */
  success: R;
  /** The statuses beyond the common ones, each answered with the error body. */
  errors: readonly E[];
  /** Other answers with their own schema (e.g. `GET /api/me`'s 401 `{ ok: false }`). */
  otherAnswers?: O;
  /** The content type of a non-JSON success answer (the docs page, the CSV export); errors stay JSON. */
  produces?: string;
  /** False for the few routes that never touch the database (the document and its page): no `database_unavailable`. */
  database?: false;
}

/**
 * Statuses any route of a kind can answer with the error body: 400 (a malformed URL is refused before routing; a
 * body that is not valid JSON or holds a NUL), 500 (unexpected failure); with a body 403 (CSRF guard), 413 (too
 * large), 415 (not JSON); with a required session 401. Every route also answers 503 (`unavailableAnswer`): a server
 * shutting down answers any request still arriving `shutting_down` (decision 0196), and one that uses the database
 * `database_unavailable`, both with Retry-After.
 */
export function commonStatuses(method: Method, auth: RouteAuth): number[] {
  const statuses = [400, 500];
  if (method !== 'GET') statuses.push(403, 413, 415);
  if (auth === 'required') statuses.push(401);
  return statuses;
}

const STATUS_TEXT: Record<number, string> = {
  400: 'Refused input (the field is named when the refusal is about one)',
  401: 'Not logged in',
  403: 'Not allowed (or a cross-site request)',
  404: 'Not found',
  409: 'Conflict',
  413: 'Request body too large (`max_bytes` says how many bytes the route takes)',
  415: 'Request body is not JSON',
  422: 'The Idempotency-Key came earlier with another request body',
  429: 'Too many attempts (Retry-After says when to try again)',
  500: 'Unexpected failure',
};

type ErrorAnswers<E extends number> = { [K in E]: typeof ErrorBody };

export interface RouteContract<B, P, R extends TSchema, E extends number, O> {
  method: Method;
  url: string;
  auth: RouteAuth;
  documentedBody: TSchema | undefined;
  produces: string | undefined;
  schema: {
    summary: string;
    tags: string[];
    body: B;
    params: P;
    response: { 200: R } & ErrorAnswers<E> & O;
  };
}

function route<
  B extends TSchema | undefined = undefined,
  P extends TSchema | undefined = undefined,
  R extends TSchema = TSchema,
  E extends number = never,
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- "no other answers"
  O extends Record<number, TSchema> = {},
>(spec: RouteSpec<B, P, R, E, O>): RouteContract<B, P, R, E, O> {
  // A non-JSON success names its content type; Fastify and @fastify/swagger both read `content` per status.
  const success =
    spec.produces === undefined ? spec.success : { content: { [spec.produces]: { schema: spec.success } } };
  const response: Record<number, TSchema> = { 200: success as TSchema };
  for (const status of [...commonStatuses(spec.method, spec.auth), ...spec.errors]) {
    // The description names the status in the document (swagger reads it from the schema).
    response[status] = { ...ErrorBody, description: STATUS_TEXT[status] ?? 'Refused' };
  }
  response[503] = unavailableAnswer(spec.database !== false);
  Object.assign(response, spec.otherAnswers);
  const schema = {
    summary: spec.summary,
    tags: spec.tags,
    ...(spec.body !== undefined && { body: spec.body }),
    ...(spec.params !== undefined && { params: spec.params }),
    response,
  };
  return {
    method: spec.method,
    url: spec.url,
    auth: spec.auth,
    documentedBody: spec.documentedBody,
    produces: spec.produces,
    schema: schema as RouteContract<B, P, R, E, O>['schema'],
  };
}

/** A non-JSON answer other than the success (the reminder link's 404 page). */
function htmlAnswer(description: string): TSchema {
  return { description, content: { 'text/html': { schema: S.Text() } } } as unknown as TSchema;
}

/** Every route of the API, by a short name. */
export const ROUTES = {
  login: route({
    method: 'POST',
    url: '/api/login',
    auth: 'none',
    tags: ['account'],
    summary: 'Log in (starts a session)',
    body: S.LoginBody,
    success: S.AccountAnswer,
    errors: [401, 429],
  }),
  logout: route({
    method: 'POST',
    url: '/api/logout',
    auth: 'none',
    tags: ['account'],
    summary: 'Log out (ends the session)',
    success: S.Ok,
    errors: [],
  }),
  me: route({
    method: 'GET',
    url: '/api/me',
    auth: 'optional',
    tags: ['account'],
    summary: 'The logged-in user',
    success: S.Me,
    errors: [],
    otherAnswers: { 401: S.NotLoggedIn },
  }),
  patchMe: route({
    method: 'PATCH',
    url: '/api/me',
    auth: 'required',
    tags: ['account'],
    summary: 'Change display name and/or UI language',
    body: S.PatchMeBody,
    success: S.PatchMeAnswer,
    errors: [],
  }),
  register: route({
    method: 'POST',
    url: '/api/register',
    auth: 'none',
    tags: ['account'],
    summary: 'Register with an invite token (starts a session)',
    body: S.RegisterBody,
    success: S.AccountAnswer,
    errors: [409],
  }),
  resetRequest: route({
    method: 'POST',
    url: '/api/reset-request',
    auth: 'none',
    tags: ['account'],
    summary: 'Mail a password reset link (always ok, also for unknown addresses)',
    body: S.ResetRequestBody,
    success: S.Ok,
    errors: [],
  }),
  resetPassword: route({
    method: 'POST',
    url: '/api/reset-password',
    auth: 'none',
    tags: ['account'],
    summary: 'Set a new password with a mailed reset link',
    body: S.ResetPasswordBody,
    success: S.Ok,
    errors: [],
  }),
  resetCheck: route({
    method: 'POST',
    url: '/api/reset-check',
    auth: 'none',
    tags: ['account'],
    summary:
      'Whether a mailed reset link can still set a password, asked by the reset page when it opens ' +
      '(docs/api-data.md)',
    body: S.ResetCheckBody,
    success: S.ResetCheckAnswer,
    errors: [],
  }),
  changePassword: route({
    method: 'POST',
    url: '/api/change-password',
    auth: 'required',
    tags: ['account'],
    summary: 'Change the password (logs out every other device)',
    body: S.ChangePasswordBody,
    success: S.Ok,
    errors: [429],
  }),
  listGoals: route({
    method: 'GET',
    url: '/api/goals',
    auth: 'required',
    tags: ['goals'],
    summary: "The caller's goals, oldest first",
    success: S.GoalList,
    errors: [],
  }),
  createGoal: route({
    method: 'POST',
    url: '/api/goals',
    auth: 'required',
    tags: ['goals'],
    summary:
      'Create a goal (an Idempotency-Key header makes a retry answer the goal the first request made: 404 when it ' +
      'was deleted since, 422 when the key came with another body)',
    body: S.AnyObject,
    documentedBody: S.GoalCreateBody,
    success: S.Goal,
    errors: [404, 422],
  }),
  patchGoal: route({
    method: 'PATCH',
    url: '/api/goals/:id',
    auth: 'required',
    tags: ['goals'],
    summary: 'Change fields of a goal (sets replaced whole)',
    body: S.AnyObject,
    documentedBody: S.GoalPatchBody,
    params: S.GoalParams,
    success: S.Ok,
    errors: [404],
  }),
  deleteGoal: route({
    method: 'DELETE',
    url: '/api/goals/:id',
    auth: 'required',
    tags: ['goals'],
    summary: 'Delete a goal (ok also when it does not exist)',
    params: S.GoalParams,
    success: S.Ok,
    errors: [],
  }),
  logAmount: route({
    method: 'POST',
    url: '/api/goals/:id/sets/:date',
    auth: 'required',
    tags: ['goals'],
    summary: 'Log an amount on a date; a known entry_id is answered without adding (docs/api-logging.md)',
    body: S.AnyObject,
    documentedBody: S.LogBody,
    params: S.LogParams,
    success: S.LogAnswer,
    errors: [404, 409],
  }),
  removeAmount: route({
    method: 'POST',
    url: '/api/goals/:id/sets/:date/remove',
    auth: 'required',
    tags: ['goals'],
    summary:
      'Remove the last logging of an amount, or the entry with an entry_id, on a date (docs/api-logging.md; an ' +
      'Idempotency-Key header makes a repeat answer the amounts as they are, 422 when the key came with another body)',
    body: S.AnyObject,
    documentedBody: S.RemoveBody,
    params: S.LogParams,
    success: S.LogAnswer,
    errors: [404, 422],
  }),
  goalLayout: route({
    method: 'GET',
    url: '/api/goal-layout',
    auth: 'required',
    tags: ['goals'],
    summary: "The caller's goal order and archived goals (decision 0093)",
    success: S.GoalLayout,
    errors: [],
  }),
  setGoalOrder: route({
    method: 'PUT',
    url: '/api/goal-layout/order',
    auth: 'required',
    tags: ['goals'],
    summary:
      'Put the listed goals first, in this order (404 goal_not_found names an id that is not a goal of the caller)',
    body: S.GoalOrderBody,
    success: S.Ok,
    errors: [404],
  }),
  archiveGoal: route({
    method: 'POST',
    url: '/api/goals/:id/archive',
    auth: 'required',
    tags: ['goals'],
    summary: 'Archive a goal: hidden from Today, kept with its data (again: ok)',
    params: S.GoalParams,
    success: S.Ok,
    errors: [404],
  }),
  unarchiveGoal: route({
    method: 'POST',
    url: '/api/goals/:id/unarchive',
    auth: 'required',
    tags: ['goals'],
    summary: 'Restore an archived goal (not archived: ok)',
    params: S.GoalParams,
    success: S.Ok,
    errors: [404],
  }),
  createInvite: route({
    method: 'POST',
    url: '/api/invite',
    auth: 'required',
    tags: ['invites'],
    summary:
      'Create an invite link (an Idempotency-Key header makes a retry answer the link the first request made: 404 ' +
      'when that invite was used or revoked since, 422 when the key came with another body)',
    body: S.InviteBody,
    success: S.InviteCreated,
    errors: [404, 422, 429],
  }),
  listInvites: route({
    method: 'GET',
    url: '/api/invites',
    auth: 'required',
    tags: ['invites'],
    summary: "The caller's invites, newest first",
    success: S.InviteList,
    errors: [],
  }),
  checkInvite: route({
    method: 'POST',
    url: '/api/invites/check',
    auth: 'none',
    tags: ['invites'],
    summary:
      'Whether an invite link can still register, asked by the registration page before the form is filled ' +
      '(docs/api-data.md)',
    body: S.InviteCheckBody,
    success: S.InviteCheckAnswer,
    errors: [],
  }),
  revokeInvite: route({
    method: 'POST',
    url: '/api/invites/revoke',
    auth: 'required',
    tags: ['invites'],
    summary: 'Revoke a pending invite of the caller (404 for any other link; docs/api-data.md)',
    body: S.RevokeInviteBody,
    success: S.Ok,
    errors: [404],
  }),
  exportJson: route({
    method: 'GET',
    url: '/api/export',
    auth: 'required',
    tags: ['data'],
    summary: "The caller's account and goals as a Steady export document (an attachment; docs/api-data.md)",
    success: S.ExportDocument,
    errors: [],
  }),
  exportCsv: route({
    method: 'GET',
    url: '/api/export.csv',
    auth: 'required',
    tags: ['data'],
    summary: "The caller's logged amounts as CSV (an attachment; docs/api-data.md)",
    success: S.Text(),
    produces: 'text/csv',
    errors: [],
  }),
  importGoals: route({
    method: 'POST',
    url: '/api/import',
    auth: 'required',
    tags: ['data'],
    summary:
      'Add the goals of an export document (all or nothing; up to 20 MB; 400 invalid_import names the bad value; ' +
      'an Idempotency-Key header makes a retry answer the first import instead of adding the goals again)',
    // Checked by hand (data/import-check.ts), so every refusal of the document is `invalid_import` with the path of
    // the bad value.
    documentedBody: S.ExportDocument,
    success: S.ImportAnswer,
    errors: [422],
  }),
  deleteMe: route({
    method: 'DELETE',
    url: '/api/me',
    auth: 'required',
    tags: ['account'],
    summary: "Delete the caller's account and everything in it (needs the password; docs/api-data.md)",
    body: S.DeleteMeBody,
    success: S.Ok,
    errors: [429],
  }),
  logoutOthers: route({
    method: 'POST',
    url: '/api/sessions/logout-others',
    auth: 'required',
    tags: ['account'],
    summary: 'End every other session and remember-me token of the caller (docs/api-logging.md)',
    success: S.Ok,
    errors: [],
  }),
  adminUsers: route({
    method: 'GET',
    url: '/api/admin/users',
    auth: 'required',
    tags: ['admin'],
    summary: 'Every user (administrator only)',
    success: S.AdminUserList,
    errors: [403],
  }),
  getPreferences: route({
    method: 'GET',
    url: '/api/preferences',
    auth: 'required',
    tags: ['reminders'],
    summary: "The caller's preferences (time zone; null until set)",
    success: S.Preferences,
    errors: [],
  }),
  patchPreferences: route({
    method: 'PATCH',
    url: '/api/preferences',
    auth: 'required',
    tags: ['reminders'],
    summary: 'Set the time zone (an IANA name; 400 invalid_timezone otherwise)',
    body: S.PatchPreferencesBody,
    success: S.PatchPreferencesAnswer,
    errors: [],
  }),
  putReminder: route({
    method: 'PUT',
    url: '/api/goals/:id/reminder',
    auth: 'required',
    tags: ['reminders'],
    summary: "Set the goal's daily reminder: local time and channel (404 for a goal that is not the caller's)",
    body: S.ReminderBody,
    params: S.GoalParams,
    success: S.Ok,
    errors: [404],
  }),
  deleteReminder: route({
    method: 'DELETE',
    url: '/api/goals/:id/reminder',
    auth: 'required',
    tags: ['reminders'],
    summary: "Turn the goal's reminder off (ok also when none was set; 404 for a goal that is not the caller's)",
    params: S.GoalParams,
    success: S.Ok,
    errors: [404],
  }),
  listReminders: route({
    method: 'GET',
    url: '/api/reminders',
    auth: 'required',
    tags: ['reminders'],
    summary: "The caller's reminders, by goal id",
    success: S.ReminderList,
    errors: [],
  }),
  reminderOffPage: route({
    method: 'GET',
    url: '/api/reminders/off/:token',
    auth: 'none',
    tags: ['reminders'],
    summary: "The reminder mail's signed link: a page with one button that turns the reminder off",
    params: S.ReminderOffParams,
    success: S.Text(),
    produces: 'text/html',
    errors: [],
    otherAnswers: { 404: htmlAnswer('A page saying the link is not valid (damaged, cut off or made up)') },
  }),
  reminderOff: route({
    method: 'POST',
    url: '/api/reminders/off/:token',
    auth: 'none',
    tags: ['reminders'],
    summary: 'Turn the reminder off (the page button, or List-Unsubscribe-Post one-click; any body is ignored)',
    params: S.ReminderOffParams,
    success: S.Text(),
    produces: 'text/html',
    errors: [],
    otherAnswers: { 404: htmlAnswer('A page saying the link is not valid (damaged, cut off or made up)') },
  }),
  reminderPageStyle: route({
    method: 'GET',
    url: '/api/reminders/page.css',
    auth: 'none',
    tags: ['reminders'],
    summary: 'The stylesheet of the reminder link pages',
    success: S.Text(),
    produces: 'text/css',
    database: false,
    errors: [],
  }),
  pushKey: route({
    method: 'GET',
    url: '/api/push/key',
    auth: 'required',
    tags: ['reminders'],
    summary: "The server's VAPID public key, for PushManager.subscribe",
    success: S.PushKey,
    errors: [],
  }),
  addPushSubscription: route({
    method: 'POST',
    url: '/api/push/subscriptions',
    auth: 'required',
    tags: ['reminders'],
    summary: "Store this browser's push subscription (https endpoints on public addresses only)",
    body: S.PushSubscriptionBody,
    success: S.Ok,
    errors: [],
  }),
  deletePushSubscription: route({
    method: 'DELETE',
    url: '/api/push/subscriptions',
    auth: 'required',
    tags: ['reminders'],
    summary: "Forget one of the caller's push subscriptions (ok also when unknown)",
    body: S.PushEndpointBody,
    success: S.Ok,
    errors: [],
  }),
  openApi: route({
    method: 'GET',
    url: '/api/openapi.json',
    auth: 'none',
    tags: ['documentation'],
    summary: 'This OpenAPI 3.1 document',
    success: S.OpenApiDocument,
    database: false,
    errors: [],
  }),
  docs: route({
    method: 'GET',
    url: '/api/docs',
    auth: 'none',
    tags: ['documentation'],
    summary: 'The API documentation as an HTML page',
    success: S.Text(),
    produces: 'text/html',
    database: false,
    errors: [],
  }),
};

export type RouteName = keyof typeof ROUTES;
