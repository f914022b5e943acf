import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyPluginAsync } from 'fastify';
import { requireFilled } from '../accounts/validation.js';
import { currentUser } from '../auth/plugin.js';
import { isHexToken, sha256Hex } from '../auth/tokens.js';
import type { AppDeps } from '../deps.js';
import { notFound } from '../http/errors.js';
import { fromContract } from '../http/contract.js';
import { ROUTES } from '../../common/contract/routes.js';
import { revokeInvite } from './store.js';

/** The token of an invite link `{base_url}/?invite=<token>`, or null when the text is no such link. */
export function inviteTokenOfUrl(url: string): string | null {
  let token: string | null;
  try {
    token = new URL(url.trim()).searchParams.get('invite');
  } catch {
    return null;
  }
  return isHexToken(token ?? undefined) ? token : null;
}

/** `POST /api/invites/revoke` (docs/api-data.md): the creator ends a pending invite before anyone uses it. */
export const inviteRevokeRoutes =
  (deps: AppDeps): FastifyPluginAsync =>
  async (base) => {
    const app = base.withTypeProvider<TypeBoxTypeProvider>();
    app.post(ROUTES.revokeInvite.url, fromContract('revokeInvite'), async (request) => {
      const user = currentUser(request);
      requireFilled(request.body, ['url']);
      const token = inviteTokenOfUrl(request.body.url);
      // Someone else's invite, a used or expired one and a made-up link all look the same: not found.
      if (token === null || !(await revokeInvite(deps.db, user.id, sha256Hex(token), deps.clock.now()))) {
        throw notFound('invite_not_found', 'No pending invite of yours has this link', 'url');
      }
      return { ok: true as const };
    });
  };
