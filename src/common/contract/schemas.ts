/**
 * The TypeBox schemas of every request and answer of the HTTP API (spec: ../shared/spec/habit-goal-api.md,
 * beyond it: docs/api-logging.md). The server validates and answers with these; the web app imports their static
 * types (`Static<typeof X>` below), never a hand copy. Limits come from common/limits.ts and common/goal.ts.
 */
import { type Static, Type } from 'typebox';
import { GOAL_LIMITS } from '../goal.js';
import { ExportDocumentSchema } from './export-format.js';
import { LIMITS } from '../limits.js';
import { LOCALES } from '../locales.js';

/**
 * A string field of a request body. The schema's cap only bounds the work a request can cause; the field's real
 * rule (non-empty, its limit after trimming) is checked where the field is used and refused with a code naming
 * the field (decision 0007). `limit` documents that rule.
 */
export const Text = (limit?: number) =>
  Type.String({
    maxLength: 4096,
    ...(limit !== undefined && { description: `at most ${limit} characters after trimming` }),
  });

const Nullable = <T extends ReturnType<typeof Type.String>>(schema: T) => Type.Union([schema, Type.Null()]);

export const Ok = Type.Object({ ok: Type.Literal(true) }, { additionalProperties: false });
export const LocaleSchema = Type.Enum(LOCALES, { description: 'UI language' });

// Accounts

export const LoginBody = Type.Object({ email: Text(LIMITS.emailMax), password: Text(LIMITS.passwordMax) });
export const RegisterBody = Type.Object({
  email: Text(LIMITS.emailMax),
  password: Text(LIMITS.passwordMax),
  token: Text(),
  name: Type.Optional(Text(LIMITS.displayNameMax)),
});
export const AccountAnswer = Type.Object(
  { ok: Type.Literal(true), email: Type.String(), name: Type.String() },
  { additionalProperties: false },
);
export const Me = Type.Object(
  {
    ok: Type.Literal(true),
    email: Type.String(),
    id: Type.Integer(),
    name: Type.String({ description: 'empty when never set' }),
    locale: LocaleSchema,
    is_admin: Type.Boolean(),
  },
  { additionalProperties: false },
);
/** Spec §7.1: the 401 of `GET /api/me` is `{ ok: false }`, not an error body. */
export const NotLoggedIn = Type.Object({ ok: Type.Literal(false) }, { additionalProperties: false });
export const PatchMeBody = Type.Object({
  name: Type.Optional(Text(LIMITS.displayNameMax)),
  locale: Type.Optional(Type.String({ maxLength: 4096, description: `one of ${LOCALES.join(', ')}` })),
});
export const PatchMeAnswer = Type.Union([
  Type.Object({ ok: Type.Literal(true), name: Type.String() }, { additionalProperties: false }),
  Type.Object({ ok: Type.Literal(true), locale: LocaleSchema }, { additionalProperties: false }),
  Type.Object({ ok: Type.Literal(true), name: Type.String(), locale: LocaleSchema }, { additionalProperties: false }),
]);
export const ResetRequestBody = Type.Object({ email: Text(LIMITS.emailMax) });
export const ResetPasswordBody = Type.Object({ selector: Text(), token: Text(), password: Text(LIMITS.passwordMax) });
export const ResetCheckBody = Type.Object({ selector: Text(), token: Text() });
export const ResetCheckAnswer = Type.Object(
  {
    state: Type.Union([Type.Literal('valid'), Type.Literal('expired'), Type.Literal('invalid')], {
      description: 'valid: it can set a new password; expired; invalid: no such link, or used already',
    }),
  },
  { additionalProperties: false },
);
export const ChangePasswordBody = Type.Object({
  old_password: Text(LIMITS.passwordMax),
  new_password: Text(LIMITS.passwordMax),
});
export const DeleteMeBody = Type.Object({ password: Text(LIMITS.passwordMax) });

// Goals

const DateKey = Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$', description: 'calendar date YYYY-MM-DD' });
export const GoalSets = Type.Record(DateKey, Type.Array(Type.Number(), { maxItems: GOAL_LIMITS.amountsPerDateMax }), {
  description: `amounts logged per date; at most ${GOAL_LIMITS.setsDatesMax} dates`,
});
export const Goal = Type.Object(
  {
    id: Type.String({ pattern: '^[0-9]+$', description: 'numeric identifier rendered as a string' }),
    name: Type.String(),
    unit: Type.String(),
    daily: Type.Number({ exclusiveMinimum: 0, maximum: GOAL_LIMITS.dailyMax }),
    days: Type.Integer({ minimum: 1, maximum: LIMITS.goalDaysMax }),
    start: Type.String({
      pattern: '^\\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2}:\\d{2}$',
      description: 'wall-clock YYYY-MM-DD HH:MM:SS in the server time zone',
    }),
    sets: GoalSets,
  },
  { additionalProperties: false },
);
export const GoalList = Type.Array(Goal);

/**
 * The goal fields a client sends. Documentation only: the goal routes accept any JSON object and check each field
 * by hand (server/goals/validation.ts), so every refusal names its field with `invalid_goal` or `missing_field`.
 */
const goalFields = {
  name: Text(LIMITS.goalNameMax),
  unit: Type.Optional(Text(LIMITS.goalUnitMax)),
  daily: Type.Optional(Type.Number({ exclusiveMinimum: 0, maximum: GOAL_LIMITS.dailyMax })),
  days: Type.Optional(Type.Integer({ minimum: 1, maximum: LIMITS.goalDaysMax })),
  sets: Type.Optional(GoalSets),
};
export const GoalCreateBody = Type.Object({
  ...goalFields,
  start: Type.Optional(Type.String({ description: 'any date or date-time; unparsable means now (decision 0031)' })),
});
export const GoalPatchBody = Type.Partial(Type.Object(goalFields));
/** What the goal routes validate with: any object (see GoalCreateBody). */
export const AnyObject = Type.Record(Type.String(), Type.Unknown());
export const GoalParams = Type.Object({ id: Type.String({ description: 'numeric goal id' }) });
export const LogParams = Type.Object({
  id: Type.String({ description: 'numeric goal id' }),
  // Checked by hand, so a bad date is `invalid_date` (docs/api-logging.md), not Ajv's `invalid_input`.
  date: Type.String({ description: 'calendar date YYYY-MM-DD' }),
});
const EntryId = Type.String({
  minLength: 1,
  maxLength: 64,
  pattern: '^[A-Za-z0-9_-]+$',
  description:
    "the client's id of this logging, unique per user: a replay is answered without adding (docs/api-logging.md)",
});
export const LogBody = Type.Object({
  amount: Type.Number({ description: `not 0, from -${GOAL_LIMITS.amountAbsMax} to ${GOAL_LIMITS.amountAbsMax}` }),
  entry_id: Type.Optional(EntryId),
});
/** Undo: `{ amount }` removes the last logging of that amount, `{ entry_id }` exactly that entry. */
export const RemoveBody = Type.Union([
  Type.Object({ amount: LogBody.properties.amount }),
  Type.Object({ entry_id: EntryId, amount: Type.Optional(LogBody.properties.amount) }),
]);
export const LogAnswer = Type.Object(
  { ok: Type.Literal(true), date: Type.String(), amounts: Type.Array(Type.Number()) },
  { additionalProperties: false },
);

// Goal layout (decision 0093): the user's order and archive, beside the spec's goal list, which keeps its shape.

const GoalIdText = Type.String({ pattern: '^[0-9]{1,10}$', description: 'numeric goal id' });
export const GoalLayout = Type.Object(
  {
    order: Type.Array(Type.String(), {
      description: "every goal of the user, archived ones included, in the user's order",
    }),
    archived: Type.Array(Type.String(), { description: 'the archived goals (hidden from Today), in the same order' }),
  },
  { additionalProperties: false },
);
export const GoalOrderBody = Type.Object({
  ids: Type.Array(GoalIdText, {
    maxItems: GOAL_LIMITS.goalsPerUserMax,
    uniqueItems: true,
    description: 'goals first, in this order; goals not listed follow in creation order',
  }),
});

// Invites

export const InviteBody = Type.Object({ note: Type.Optional(Text(LIMITS.inviteNoteMax)) });
export const InviteCreated = Type.Object({ url: Type.String() }, { additionalProperties: false });
export const InviteStatus = Type.Union([Type.Literal('pending'), Type.Literal('used'), Type.Literal('expired')]);
export const Invite = Type.Object(
  {
    url: Nullable(Type.String()),
    note: Nullable(Type.String()),
    status: InviteStatus,
    created_at: Type.String(),
    expires_at: Type.String(),
    used_at: Nullable(Type.String()),
    used_by_email: Nullable(Type.String()),
  },
  { additionalProperties: false },
);
export const InviteList = Type.Array(Invite);
export const RevokeInviteBody = Type.Object(
  { url: Text() },
  { description: 'the invite link as GET /api/invites shows it' },
);

export const InviteCheckBody = Type.Object({ token: Text() }, { description: 'the token of an invite link' });
export const InviteCheckAnswer = Type.Object(
  {
    state: Type.Union(
      [Type.Literal('pending'), Type.Literal('used'), Type.Literal('expired'), Type.Literal('invalid')],
      {
        description: 'pending: it can register; used, expired (or revoked), invalid: registering with it is refused',
      },
    ),
  },
  { additionalProperties: false },
);

// Data (docs/api-data.md)

/** The export document (format and growth rules: export-format.ts, decision 0070); also what an import takes. */
export const ExportDocument = ExportDocumentSchema;
export const ImportAnswer = Type.Object(
  { ok: Type.Literal(true), goals: Type.Integer({ description: 'how many goals were added' }) },
  { additionalProperties: false },
);

// Preferences, reminders, push (issue 11)

export const Preferences = Type.Object(
  { timezone: Type.Union([Type.String({ description: 'IANA time zone name' }), Type.Null()]) },
  { additionalProperties: false },
);
export const PatchPreferencesBody = Type.Object({
  timezone: Type.String({ maxLength: 4096, description: 'an IANA time zone name such as Europe/Berlin' }),
});
export const PatchPreferencesAnswer = Type.Object(
  { ok: Type.Literal(true), timezone: Type.String() },
  { additionalProperties: false },
);
export const ReminderBody = Type.Object({
  time: Type.String({ maxLength: 4096, description: 'local time HH:MM (00:00 to 23:59) in the user time zone' }),
  channel: Type.String({ maxLength: 4096, description: 'push or email' }),
});
export const Reminder = Type.Object(
  {
    goal_id: Type.String({ pattern: '^[0-9]+$', description: 'the goal id, as in a Goal' }),
    time: Type.String({ pattern: '^\\d{2}:\\d{2}$' }),
    channel: Type.Union([Type.Literal('push'), Type.Literal('email')]),
  },
  { additionalProperties: false },
);
export const ReminderList = Type.Array(Reminder);
export const ReminderOffParams = Type.Object({ token: Type.String({ description: 'the signed token of the mail' }) });
export const PushKey = Type.Object(
  { public_key: Type.String({ description: 'VAPID public key, URL-safe base64 (applicationServerKey)' }) },
  { additionalProperties: false },
);
export const PushSubscriptionBody = Type.Object(
  {
    endpoint: Type.String({ maxLength: 4096, description: 'https URL of the push service' }),
    keys: Type.Object({
      p256dh: Type.String({ maxLength: 4096 }),
      auth: Type.String({ maxLength: 4096 }),
    }),
  },
  { description: "a browser's PushSubscription.toJSON() (expirationTime is ignored)" },
);
export const PushEndpointBody = Type.Object({ endpoint: Type.String({ maxLength: 4096 }) });

// Admin

export const AdminUser = Type.Object(
  { id: Type.Integer(), email: Type.String(), username: Type.String(), registered: Type.Integer() },
  { additionalProperties: false },
);
export const AdminUserList = Type.Array(AdminUser);

// The document itself

export const OpenApiDocument = Type.Object(
  {
    openapi: Type.String(),
    info: Type.Object({}, { additionalProperties: true }),
    paths: Type.Object({}, { additionalProperties: true }),
  },
  { additionalProperties: true, description: 'this OpenAPI 3.1 document' },
);

export type AccountAnswer = Static<typeof AccountAnswer>;
export type Me = Static<typeof Me>;
export type PatchMeAnswer = Static<typeof PatchMeAnswer>;
export type RegisterBody = Static<typeof RegisterBody>;
export type Goal = Static<typeof Goal>;
export type GoalCreateBody = Static<typeof GoalCreateBody>;
export type GoalPatchBody = Static<typeof GoalPatchBody>;
export type LogAnswer = Static<typeof LogAnswer>;
export type Invite = Static<typeof Invite>;
export type InviteCreated = Static<typeof InviteCreated>;
export type InviteCheckAnswer = Static<typeof InviteCheckAnswer>;
export type ResetCheckAnswer = Static<typeof ResetCheckAnswer>;
export type AdminUser = Static<typeof AdminUser>;
export type Ok = Static<typeof Ok>;
export type GoalLayout = Static<typeof GoalLayout>;
export type ImportAnswer = Static<typeof ImportAnswer>;
export type Preferences = Static<typeof Preferences>;
export type PatchPreferencesAnswer = Static<typeof PatchPreferencesAnswer>;
export type Reminder = Static<typeof Reminder>;
export type PushKey = Static<typeof PushKey>;
