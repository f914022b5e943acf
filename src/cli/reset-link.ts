import { parseArgs } from 'node:util';
import { normalizeEmail } from '../common/email.js';
import { createResetLink } from '../server/accounts/reset-link.js';
import { findUserByEmail } from '../server/accounts/store.js';
import { usageError, type Work } from './work.js';

/**
 * `steady reset-link EMAIL`: a password reset link for a user, printed instead of mailed, for a server without
 * SMTP. The link is the last line; an unknown address fails (exit 1) — the operator is not an anonymous caller.
 */
export function resetLinkCommand(args: string[]): Work {
  const { positionals } = parseArgs({ args, options: {}, strict: true, allowPositionals: true });
  if (positionals.length !== 1 || !positionals[0]!.trim()) throw usageError('give the e-mail address of the user');
  const email = normalizeEmail(positionals[0]!);
  return async ({ deps, io }) => {
    const user = await findUserByEmail(deps.db, email);
    if (!user) throw new Error(`no user has the e-mail address ${JSON.stringify(email)}`);
    const { link, expiresAt } = await createResetLink(deps.db, deps.config.baseUrl, user.id, deps.clock.now());
    io.out(`Reset link for ${user.email}, single use, valid until ${new Date(expiresAt).toISOString()}:`);
    io.out(link);
  };
}
