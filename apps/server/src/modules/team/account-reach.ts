import type { preHandlerHookHandler } from 'fastify';
import { AppError } from '../../lib/app-error.js';
import { assertReachesAccounts, reachesAccount } from './account-access.js';
import { STATE_CHANGING } from '../../http/route-hooks.js';
import type { MembershipContext } from './membership.js';

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
    const params = (request.params ?? {}) as Record<string, unknown>;
    const bodyIds = (request.body as { postIds?: unknown } | undefined)?.postIds;
    const postIds = [params.postId, ...(Array.isArray(bodyIds) ? bodyIds : [])].filter(
      (id): id is string => typeof id === 'string',
    );
    await checkAccountReach(lookups, member, {
      integrationId: typeof params.integrationId === 'string' ? params.integrationId : undefined,
      postIds,
      conversationId: typeof params.conversationId === 'string' ? params.conversationId : undefined,
      changing: STATE_CHANGING.has(request.method),
    });
  };
}

/**
 * The check of `accountReach` for one operation, for a surface that names its account, posts or
 * conversation elsewhere than in a route's path (the MCP tools).
 */
export async function checkAccountReach(
  lookups: AccountReachLookups,
  member: Pick<MembershipContext, 'organizationId' | 'accountIds'>,
  names: { integrationId?: string; postIds?: string[]; conversationId?: string; changing: boolean },
): Promise<void> {
  if (member.accountIds === null) return;
  const organizationId = member.organizationId;
  if (names.integrationId !== undefined && !reachesAccount(member, names.integrationId))
    throw new AppError('NOT_FOUND', 'This account is not connected to this organization.');
  const postIds = names.postIds ?? [];
  if (postIds.length > 0) {
    const accounts = await lookups.postAccounts(organizationId, postIds);
    for (const postId of postIds) {
      const targets = accounts.get(postId);
      // Not a post of this organization: the operation answers that itself.
      if (!targets) continue;
      if (!targets.some((t) => reachesAccount(member, t.integrationId))) throw postNotFound();
      if (names.changing) assertReachesAccounts(member, targets);
    }
  }
  if (names.conversationId !== undefined) {
    const account = await lookups.conversationAccount(organizationId, names.conversationId);
    if (account !== null && !reachesAccount(member, account))
      throw new AppError('NOT_FOUND', 'This conversation does not exist in this organization.');
  }
}
