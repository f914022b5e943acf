import type { Logger } from 'pino';
import { countUsers } from '../accounts/store.js';
import type { AppDeps } from '../deps.js';

// Placeholder: the invites feature replaces this with a real invite and its URL in the log.
export async function announceFirstInvite(deps: AppDeps, log: Logger): Promise<void> {
  if ((await countUsers(deps.db)) === 0) log.warn('no users yet');
}
