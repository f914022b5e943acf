/**
 * The typed client for Steady's HTTP API (docs: /work/shared/spec/habit-goal-api.md). Same origin, HttpOnly
 * cookies; every failure becomes an ApiError carrying the server's stable `code`, which the UI translates.
 */
import { type ErrorCode, isErrorCode } from '../common/contract/error-codes.js';
import type {
  AccountAnswer,
  AdminUser,
  Goal,
  GoalCreateBody,
  GoalLayout,
  GoalPatchBody,
  ImportAnswer,
  Invite,
  InviteCheckAnswer,
  InviteCreated,
  LogAnswer,
  Me,
  Ok,
  PatchMeAnswer,
  PatchPreferencesAnswer,
  Preferences,
  PushKey,
  RegisterBody,
  Reminder,
  ResetCheckAnswer,
} from '../common/contract/schemas.js';
import type { ReminderChannel } from '../common/reminders.js';
import type { Locale } from '../common/locales.js';

// The shapes are the contract's (common/contract/schemas.ts), never copied here.
export type {
  AdminUser,
  Goal,
  GoalLayout,
  Invite,
  InviteCheckAnswer,
  Me,
  Reminder,
} from '../common/contract/schemas.js';

/** What the goal form sends; the server's defaults fill in what is left out. */
export type GoalInput = GoalCreateBody;

/** What an edit may change of a goal: all but its id, start and amounts. */
export type GoalFields = Partial<Pick<Goal, 'name' | 'unit' | 'daily' | 'days'>>;

/** The codes a failure can carry: the server's, or `network` when the server could not be reached. */
export type ClientErrorCode = ErrorCode | 'network';

/** Downloads (plain links: the browser saves the attachment with the session cookie). */
export const EXPORT_LINKS = { json: '/api/export', csv: '/api/export.csv' } as const;

/** A failed request. `code` is the server's code, or `network` when the server could not be reached. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: ClientErrorCode,
    message: string,
    /** Seconds from `Retry-After` on 429, else null. */
    readonly retryAfter: number | null = null,
    /** The input the server named (`daily`, `goals[1].daily`), else null. */
    readonly field: string | null = null,
    /** The refused key of the object at `field` (an import's `sets` date that is none), else null. */
    readonly key: string | null = null,
    /** On 413 from Steady, the most bytes the route takes (`max_bytes`); null from a proxy's 413. */
    readonly maxBytes: number | null = null,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

let unauthenticated: (code: ErrorCode) => void = () => undefined;

/**
 * Runs `handler` whenever a request finds no session (it ended elsewhere, or its account was deleted:
 * `account_deleted`, decision 0198), whichever request that is.
 */
export function onUnauthenticated(handler: (code: ErrorCode) => void): void {
  unauthenticated = handler;
}

/**
 * How long a request may take before it counts as not answered (decision 0147). A phone on a bad network can keep a
 * request open for minutes without an answer or an error: without a deadline a form stays busy, the outbox waits and
 * the app cannot open from this device's copy. A request that reached the server and then timed out is a lost answer,
 * which every write already survives (entry ids, idempotency keys).
 */
const REQUEST_TIMEOUT_MS = 10_000;
/**
 * `/api/me`: a start without a known user on this device waits for it (use-session.ts), and says the server cannot
 * be reached after this.
 */
const START_TIMEOUT_MS = 5_000;
/** An import sends up to 20 MB, which takes minutes on a slow upload. */
const IMPORT_TIMEOUT_MS = 300_000;

interface CallOptions {
  headers?: Record<string, string>;
  timeoutMs?: number;
}

/** The failure of a request that got no answer (no network, or none within the deadline). */
export const unreachable = () => new ApiError(0, 'network', 'The server could not be reached');

async function call<T>(method: string, path: string, body?: unknown, options: CallOptions = {}): Promise<T> {
  const deadline = new AbortController();
  const timer = setTimeout(() => deadline.abort(), options.timeoutMs ?? REQUEST_TIMEOUT_MS);
  const init: RequestInit = {
    method,
    credentials: 'same-origin',
    headers: {
      accept: 'application/json',
      ...(body !== undefined && { 'content-type': 'application/json' }),
      ...options.headers,
    },
    signal: deadline.signal,
  };
  if (body !== undefined) init.body = JSON.stringify(body);
  try {
    let response: Response;
    try {
      response = await fetch(path, init);
    } catch {
      throw unreachable();
    }
    let cutOff = false;
    const data: unknown = await response.json().catch(() => {
      // The deadline cut the answer off while its body came in: not an answer. Any other failure is a body that is
      // not JSON, which the status decides about.
      cutOff = deadline.signal.aborted;
      return null;
    });
    if (cutOff) throw unreachable();
    if (!response.ok) {
      const record = (data ?? {}) as {
        error?: unknown;
        code?: unknown;
        field?: unknown;
        key?: unknown;
        max_bytes?: unknown;
      };
      const retry = Number(response.headers.get('retry-after'));
      const failure = new ApiError(
        response.status,
        // A code this app does not know (a newer server) is treated as its status's general code.
        isErrorCode(record.code) ? record.code : fallbackCode(response.status),
        typeof record.error === 'string' ? record.error : response.statusText,
        Number.isFinite(retry) && retry > 0 ? Math.ceil(retry) : null,
        typeof record.field === 'string' ? record.field : null,
        typeof record.key === 'string' ? record.key : null,
        typeof record.max_bytes === 'number' ? record.max_bytes : null,
      );
      if (failure.code === 'unauthenticated' || failure.code === 'account_deleted') unauthenticated(failure.code);
      throw failure;
    }
    return data as T;
  } finally {
    clearTimeout(timer);
  }
}

function fallbackCode(status: number): ErrorCode {
  if (status === 401) return 'unauthenticated';
  if (status === 403) return 'forbidden';
  if (status === 404) return 'not_found';
  // A reverse proxy's own limit (nginx takes 1 MB unless told otherwise) answers 413 in HTML.
  if (status === 413) return 'body_too_large';
  if (status === 429) return 'too_many_attempts';
  return status >= 500 ? 'internal' : 'bad_request';
}

const goalPath = (id: string) => `/api/goals/${encodeURIComponent(id)}`;
const setsPath = (id: string, date: string) => `${goalPath(id)}/sets/${encodeURIComponent(date)}`;

/**
 * A new random UUID, for an entry id or an `Idempotency-Key`: `crypto.randomUUID()`, or the same form from
 * `getRandomValues` where randomUUID is missing (it needs a secure context, and a self-hosted server may be reached
 * over plain HTTP in a home network).
 */
export function newRandomId(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const hex = Array.from(crypto.getRandomValues(new Uint8Array(16)), (byte) => byte.toString(16).padStart(2, '0'));
  return `${hex.slice(0, 4).join('')}-${hex.slice(4, 6).join('')}-${hex.slice(6, 8).join('')}-${hex.slice(8, 10).join('')}-${hex.slice(10).join('')}`;
}

export const api = {
  /** The logged-in user, or null when there is no session. */
  async me(): Promise<Me | null> {
    try {
      return await call<Me>('GET', '/api/me', undefined, { timeoutMs: START_TIMEOUT_MS });
    } catch (error) {
      if (error instanceof ApiError && error.status === 401) return null;
      throw error;
    }
  },
  login: (email: string, password: string) => call<AccountAnswer>('POST', '/api/login', { email, password }),
  logout: () => call<Ok>('POST', '/api/logout', {}),
  register: (body: RegisterBody) => call<AccountAnswer>('POST', '/api/register', body),
  checkInvite: (token: string) => call<InviteCheckAnswer>('POST', '/api/invites/check', { token }),
  setName: (name: string) => call<PatchMeAnswer & { name: string }>('PATCH', '/api/me', { name }),
  setLocale: (locale: Locale) => call<PatchMeAnswer>('PATCH', '/api/me', { locale }),
  requestReset: (email: string) => call<Ok>('POST', '/api/reset-request', { email }),
  checkReset: (selector: string, token: string) =>
    call<ResetCheckAnswer>('POST', '/api/reset-check', { selector, token }),
  resetPassword: (selector: string, token: string, password: string) =>
    call<Ok>('POST', '/api/reset-password', { selector, token, password }),
  changePassword: (oldPassword: string, newPassword: string) =>
    call<Ok>('POST', '/api/change-password', { old_password: oldPassword, new_password: newPassword }),
  deleteAccount: (password: string) => call<Ok>('DELETE', '/api/me', { password }),
  /** `key` names this import: sent again with the same document, the server answers the first import (decision 0127). */
  importGoals: (document: unknown, key: string) =>
    call<ImportAnswer>('POST', '/api/import', document, {
      headers: { 'idempotency-key': key },
      timeoutMs: IMPORT_TIMEOUT_MS,
    }),
  logoutOthers: () => call<Ok>('POST', '/api/sessions/logout-others', {}),

  goals: () => call<Goal[]>('GET', '/api/goals'),
  /** `key` names this creation: sent again with the same body, the server answers the goal it made (decision 0130). */
  createGoal: (input: GoalCreateBody, key: string) =>
    call<Goal>('POST', '/api/goals', input, { headers: { 'idempotency-key': key } }),
  updateGoal: (id: string, input: GoalPatchBody) => call<Ok>('PATCH', goalPath(id), input),
  deleteGoal: (id: string) => call<Ok>('DELETE', goalPath(id)),
  /** `entryId` makes the log idempotent: a replay of the same entry adds nothing (docs/api-logging.md). */
  addAmount: (id: string, date: string, amount: number, entryId: string = newRandomId()) =>
    call<LogAnswer>('POST', setsPath(id, date), { amount, entry_id: entryId }),
  /** `key` names this undo: sent again, by any sender, it takes one amount away, not two (decision 0200). */
  removeAmount: (id: string, date: string, amount: number, key?: string) =>
    call<LogAnswer>(
      'POST',
      `${setsPath(id, date)}/remove`,
      { amount },
      key ? { headers: { 'idempotency-key': key } } : {},
    ),
  /** Removes exactly the entry logged with `entryId`; one that is not there (any more) changes nothing. */
  removeEntry: (id: string, date: string, entryId: string) =>
    call<LogAnswer>('POST', `${setsPath(id, date)}/remove`, { entry_id: entryId }),
  goalLayout: () => call<GoalLayout>('GET', '/api/goal-layout'),
  setGoalOrder: (ids: string[]) => call<Ok>('PUT', '/api/goal-layout/order', { ids }),
  setArchived: (id: string, archived: boolean) =>
    call<Ok>('POST', `${goalPath(id)}/${archived ? 'archive' : 'unarchive'}`, {}),

  /** `key` names this invite: sent again with the same note, the server answers the link it made (decision 0141). */
  createInvite: (note: string, key: string) =>
    call<InviteCreated>('POST', '/api/invite', note ? { note } : {}, { headers: { 'idempotency-key': key } }),
  invites: () => call<Invite[]>('GET', '/api/invites'),
  revokeInvite: (url: string) => call<Ok>('POST', '/api/invites/revoke', { url }),
  adminUsers: () => call<AdminUser[]>('GET', '/api/admin/users'),

  preferences: () => call<Preferences>('GET', '/api/preferences'),
  setTimezone: (timezone: string) => call<PatchPreferencesAnswer>('PATCH', '/api/preferences', { timezone }),
  reminders: () => call<Reminder[]>('GET', '/api/reminders'),
  setReminder: (id: string, time: string, channel: ReminderChannel) =>
    call<Ok>('PUT', `${goalPath(id)}/reminder`, { time, channel }),
  removeReminder: (id: string) => call<Ok>('DELETE', `${goalPath(id)}/reminder`),
  pushKey: () => call<PushKey>('GET', '/api/push/key'),
  addPushSubscription: (subscription: PushSubscriptionJSON) =>
    call<Ok>('POST', '/api/push/subscriptions', subscription),
};
