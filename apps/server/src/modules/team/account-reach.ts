import type { preHandlerHookHandler } from 'fastify';
import { AppError } from '../../lib/app-error.js';
import { assertReachesAccounts, reachesAccount } from './account-access.js';
import { STATE_CHANGING } from '../../http/route-hooks.js';

/** An account a post goes out to, as a refusal names it. */
export interface PostAccount {
  integrationId: string | null;
  label: string;
}

export interface AccountReachLookups {
  /** The accounts of each post of the organization among `postIds` (others absent). */
  postAccounts(organizationId: string, postIds: string[]): Promise<Map<string, PostAccount[]>>;
  /** The account of a conversation of the organization; null when there is none such. */
  conversationAccount(organizationId: string, conversationId: string): Promise<string | null>;
}

const postNotFound = () =>
  new AppError('NOT_FOUND', 'This post does not exist in this organization.');

/**
 * Keeps a member limited to some connected accounts (MembershipContext.accountIds) to those,
 * on every organization route that names an account, a post or a conversation in its path (or
 * posts in its body, the bulk actions): what belongs to no account they reach is answered as
 * another organization's would be (404); a post they see but that also goes out to an account
 * outside their reach may be read, and is changed by none of them (403 naming the account).
 * Lists are narrowed by the routes themselves.
 */
export function accountReach(lookups: AccountReachLookups): preHandlerHookHandler {
  return async (request) => {
    const member = request.member;
    if (!member || member.accountIds === null) return;
    const organizationId = member.organizationId;
    const params = (request.params ?? {}) as Record<string, unknown>;
    if (typeof params.integrationId === 'string' && !reachesAccount(member, params.integrationId))
      throw new AppError('NOT_FOUND', 'This account is not connected to this organization.');
    const bodyIds = (request.body as { postIds?: unknown } | undefined)?.postIds;
    const postIds = [params.postId, ...(Array.isArray(bodyIds) ? bodyIds : [])].filter(
      (id): id is string => typeof id === 'string',
    );
    if (postIds.length > 0) {
      const accounts = await lookups.postAccounts(organizationId, postIds);
      for (const postId of postIds) {
        const targets = accounts.get(postId);
        // Not a post of this organization: the route answers that itself.
        if (!targets) continue;
        if (!targets.some((t) => reachesAccount(member, t.integrationId))) throw postNotFound();
        if (STATE_CHANGING.has(request.method)) assertReachesAccounts(member, targets);
      }
    }
    if (typeof params.conversationId === 'string') {
      const account = await lookups.conversationAccount(organizationId, params.conversationId);
      if (account !== null && !reachesAccount(member, account))
        throw new AppError('NOT_FOUND', 'This conversation does not exist in this organization.');
    }
  };
}
