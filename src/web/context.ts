import { createContext } from 'preact';
import { useContext } from 'preact/hooks';
import type { Goal, GoalFields, GoalLayout, Me } from './api.js';
import type { Notice } from './offline/goal-store.js';
import type { Locale } from './i18n/index.js';

/** What every logged-in page may use: the user, the goals (loaded once, patched in place), and app-wide actions. */
export interface AppState {
  me: Me;
  setMe: (me: Me) => void;
  /** null until loaded. */
  goals: Goal[] | null;
  /** The failure of the last load (translated where it is shown), or null. */
  goalsError: unknown;
  /** Asks the server for the goals again; answers whether its list arrived. */
  reloadGoals: () => Promise<boolean>;
  /** A goal the server made. */
  addGoal: (goal: Goal) => void;
  /** Fields of a goal the server changed (not `sets`: the outbox changes those). */
  changeGoal: (goalId: string, fields: GoalFields) => void;
  dropGoal: (id: string) => void;
  /** The user's order and archive (decision 0093); null until loaded. */
  layout: GoalLayout | null;
  /** Logs and removals per goal id still waiting to be sent. */
  pending: Record<string, number>;
  /** Dropped or refused queued entries, shown until dismissed. */
  notices: Notice[];
  /** The server could not be reached the last time the app tried. */
  offline: boolean;
  /** Logs an amount on any date through the outbox: shown at once, sent when possible (offline/goal-store.ts). */
  logAmount: (goalId: string, date: string, amount: number) => void;
  /**
   * Takes back an entry of the goal and date through the outbox (of `amount` when given, else any): this device's
   * last such entry first. The amount taken back, or null when there is none.
   */
  takeBack: (goalId: string, date: string, amount?: number) => number | null;
  /** The amount `takeBack` without an amount would take back now, or null: what an undo button names. */
  undoAmount: (goalId: string, date: string) => number | null;
  dismissNotice: (id: number) => void;
  setOrder: (ids: string[]) => Promise<void>;
  setArchived: (goalId: string, archived: boolean) => Promise<void>;
  /** A short polite message in the status area (after logging, saving, deleting ...). */
  announce: (text: string) => void;
  changeLocale: (locale: Locale) => Promise<void>;
  /** Logs out once the outbox is sent (decision 0150). */
  logout: () => Promise<void>;
  /** Ends the session and empties this device's copy and outbox at once: after the account was deleted. */
  forgetDevice: () => Promise<void>;
}

export const AppContext = createContext<AppState | null>(null);

export function useApp(): AppState {
  const state = useContext(AppContext);
  if (!state) throw new Error('useApp outside the logged-in app');
  return state;
}
