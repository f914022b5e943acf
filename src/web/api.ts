/**
 * The typed client for Steady's HTTP API (docs: /work/shared/spec/habit-goal-api.md). Same origin, HttpOnly
 * cookies; every failure becomes an ApiError carrying the server's stable `code`, which the UI translates.
 */
import type { Goal } from '../common/goal.js';
import type { Locale } from '../common/locales.js';

export interface Me {
  ok: true;
  id: number;
  email: string;
  name: string;
  locale: Locale;
  is_admin: boolean;
}

export type { Goal } from '../common/goal.js';

export interface GoalInput {
  name: string;
  /** Left out when empty: the server then uses its default unit. */
  unit?: string;
  daily: number;
  days: number;
  start?: string;
}

export interface Invite {
  url: string | null;
  note: string | null;
  status: 'pending' | 'used' | 'expired';
  created_at: string;
  expires_at: string;
  used_at: string | null;
  used_by_email: string | null;
}

/** Downloads (plain links: the browser saves the attachment with the session cookie). */
export const EXPORT_LINKS = { json: '/api/export', csv: '/api/export.csv' } as const;

export interface AdminUser {
  id: number;
  email: string;
  username: string;
  registered: number;
}

export interface SetsAnswer {
  ok: true;
  date: string;
  amounts: number[];
}

/** A failed request. `code` is the server's code, or `network` when the server could not be reached. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    /** Seconds from `Retry-After` on 429, else null. */
    readonly retryAfter: number | null = null,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

let unauthenticated: () => void = () => undefined;

/** Runs `handler` whenever a request finds no session (it ended elsewhere), whichever request that is. */
export function onUnauthenticated(handler: () => void): void {
  unauthenticated = handler;
}

async function call<T>(method: string, path: string, body?: unknown): Promise<T> {
  const init: RequestInit = { method, credentials: 'same-origin', headers: { accept: 'application/json' } };
  if (body !== undefined) {
    init.headers = { accept: 'application/json', 'content-type': 'application/json' };
    init.body = JSON.stringify(body);
  }
  let response: Response;
  try {
    response = await fetch(path, init);
  } catch {
    throw new ApiError(0, 'network', 'The server could not be reached');
  }
  const data: unknown = await response.json().catch(() => null);
  if (!response.ok) {
    const record = (data ?? {}) as { error?: unknown; code?: unknown };
    const retry = Number(response.headers.get('retry-after'));
    const failure = new ApiError(
      response.status,
      typeof record.code === 'string' ? record.code : fallbackCode(response.status),
      typeof record.error === 'string' ? record.error : response.statusText,
      Number.isFinite(retry) && retry > 0 ? Math.ceil(retry) : null,
    );
    if (failure.code === 'unauthenticated') unauthenticated();
    throw failure;
  }
  return data as T;
}

function fallbackCode(status: number): string {
  if (status === 401) return 'unauthenticated';
  if (status === 403) return 'forbidden';
  if (status === 404) return 'not_found';
  if (status === 429) return 'too_many_attempts';
  return status >= 500 ? 'internal' : 'bad_request';
}

const goalPath = (id: string) => `/api/goals/${encodeURIComponent(id)}`;

export const api = {
  /** The logged-in user, or null when there is no session. */
  async me(): Promise<Me | null> {
    try {
      return await call<Me>('GET', '/api/me');
    } catch (error) {
      if (error instanceof ApiError && error.status === 401) return null;
      throw error;
    }
  },
  login: (email: string, password: string) => call<{ ok: true; email: string; name: string }>('POST', '/api/login', { email, password }),
  logout: () => call<{ ok: true }>('POST', '/api/logout', {}),
  register: (body: { email: string; password: string; token: string; name?: string }) =>
    call<{ ok: true; email: string; name: string }>('POST', '/api/register', body),
  setName: (name: string) => call<{ ok: true; name: string }>('PATCH', '/api/me', { name }),
  setLocale: (locale: Locale) => call<{ ok: true; locale: Locale }>('PATCH', '/api/me', { locale }),
  requestReset: (email: string) => call<{ ok: true }>('POST', '/api/reset-request', { email }),
  resetPassword: (selector: string, token: string, password: string) =>
    call<{ ok: true }>('POST', '/api/reset-password', { selector, token, password }),
  changePassword: (oldPassword: string, newPassword: string) =>
    call<{ ok: true }>('POST', '/api/change-password', { old_password: oldPassword, new_password: newPassword }),
  deleteAccount: (password: string) => call<{ ok: true }>('DELETE', '/api/me', { password }),
  logoutOthers: () => call<{ ok: true }>('POST', '/api/sessions/logout-others', {}),

  goals: () => call<Goal[]>('GET', '/api/goals'),
  createGoal: (input: GoalInput) => call<Goal>('POST', '/api/goals', input),
  updateGoal: (id: string, input: Partial<GoalInput>) => call<{ ok: true }>('PATCH', goalPath(id), input),
  deleteGoal: (id: string) => call<{ ok: true }>('DELETE', goalPath(id)),
  addAmount: (id: string, date: string, amount: number) =>
    call<SetsAnswer>('POST', `${goalPath(id)}/sets/${encodeURIComponent(date)}`, { amount }),
  removeAmount: (id: string, date: string, amount: number) =>
    call<SetsAnswer>('POST', `${goalPath(id)}/sets/${encodeURIComponent(date)}/remove`, { amount }),

  createInvite: (note: string) => call<{ url: string }>('POST', '/api/invite', note ? { note } : {}),
  invites: () => call<Invite[]>('GET', '/api/invites'),
  revokeInvite: (url: string) => call<{ ok: true }>('POST', '/api/invites/revoke', { url }),
  adminUsers: () => call<AdminUser[]>('GET', '/api/admin/users'),
};
