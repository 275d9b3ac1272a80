import { webUrlOrNull, type Comment, platformSlug } from '@herald/contract';
import type { Db } from '../../db/client.js';
import { AppError } from '../../lib/app-error.js';
import type { TokenCipher } from '../../lib/token-crypto.js';
import { PlatformError } from '../../platforms/errors.js';
import type { NetworkRuntime } from '../../platforms/runtime.js';
import type { NetworkComment, PublishingAdapter } from '../../platforms/types.js';
import { toStoredAccount } from '../integrations/integrations.service.js';
import { findConnectedAccount, findPostTarget } from './comments.repository.js';

export interface CommentsDeps {
  db: Db;
  cipher: TokenCipher;
  networks: Map<string, NetworkRuntime>;
  /**
   * The accounts the caller is limited to (absent or null: every account): others' comments and
   * posts read as not there.
   */
  accountIds?: string[] | null;
}

/** The docs/product.md#comment-entity shape of a network's comment. */
function toComment(c: NetworkComment): Comment {
  return {
    id: c.id,
    message: c.message,
    likes: c.likes,
    created_time: c.createdTime,
    from: {
      id: c.from.id,
      name: c.from.name,
      // The network's picture of the commenter becomes an image: only a web address is kept.
      picture: { data: { url: webUrlOrNull(c.from.pictureUrl) } },
    },
    isOwn: c.isOwn,
    replies: c.replies.map(toComment),
  };
}

/** A network's refusal as an API error with the network's words. */
function toAppError(err: unknown, network: string): unknown {
  if (!(err instanceof PlatformError)) return err;
  switch (err.kind) {
    case 'bad_request':
      return new AppError('VALIDATION_FAILED', err.message);
    case 'reauth':
      return new AppError(
        'VALIDATION_FAILED',
        `${network} refused the account's access: ${err.message} Reconnect the account in Settings.`,
      );
    case 'rate_limited':
      return new AppError('RATE_LIMITED', `${network} asks to slow down: ${err.message}`);
    default:
      return new AppError(
        'UNAVAILABLE',
        `${network} did not answer properly (${err.message}). Try again in a moment.`,
      );
  }
}

/**
 * The organization's connected account on a platform (the one a post went out from, when
 * named), and that network's adapter.
 */
async function accountOn(
  deps: CommentsDeps,
  organizationId: string,
  platformId: string,
  integrationId?: string | null,
) {
  const row = await findConnectedAccount(
    deps.db,
    organizationId,
    platformId,
    integrationId,
    deps.accountIds ?? null,
  );
  if (!row) {
    throw new AppError('NOT_FOUND', 'This organization has no connected account on that platform.');
  }
  const network = deps.networks.get(platformSlug(row.name));
  return {
    name: row.name,
    account: toStoredAccount(deps.cipher, row.integration),
    publishing: network?.adapter.publishing ?? null,
  };
}

/** The published target of a post on a platform (404 when the post is not there). */
export async function publishedTarget(
  db: Db,
  organizationId: string,
  postId: string,
  platformId: string,
  integrationId?: string,
  accountIds: string[] | null = null,
) {
  const row = await findPostTarget(
    db,
    organizationId,
    postId,
    platformId,
    integrationId,
    accountIds,
  );
  if (!row) {
    throw new AppError(
      'NOT_FOUND',
      integrationId
        ? 'This post does not go out from that account.'
        : 'This post does not go to that platform.',
    );
  }
  if (row.target.status !== 'PUBLISHED' || !row.target.externalId) {
    throw new AppError('VALIDATION_FAILED', `This post is not published on ${row.name} yet.`);
  }
  return { ...row.target, externalId: row.target.externalId, platformName: row.name };
}

function need<K extends keyof PublishingAdapter>(
  publishing: PublishingAdapter | null,
  key: K,
  what: string,
  network: string,
): NonNullable<PublishingAdapter[K]> {
  const fn = publishing?.[key];
  if (!fn) throw new AppError('VALIDATION_FAILED', `${what} is not available for ${network}.`);
  return (fn as (...args: unknown[]) => unknown).bind(publishing) as NonNullable<
    PublishingAdapter[K]
  >;
}

export async function listComments(
  deps: CommentsDeps,
  organizationId: string,
  postId: string,
  platformId: string,
  page: { cursor?: string; limit: number; integrationId?: string },
) {
  const target = await publishedTarget(
    deps.db,
    organizationId,
    postId,
    platformId,
    page.integrationId,
    deps.accountIds ?? null,
  );
  // The comments are read as the account the post went out from.
  const { name, account, publishing } = await accountOn(
    deps,
    organizationId,
    platformId,
    target.integrationId,
  );
  const list = need(publishing, 'listComments', 'Reading comments', name);
  try {
    const result = await list(account, target.externalId, page);
    return { comments: result.comments.map(toComment), nextCursor: result.nextCursor };
  } catch (err) {
    throw toAppError(err, name);
  }
}

async function targetOf(
  deps: CommentsDeps,
  orgId: string,
  platformId: string,
  postId?: string,
  integrationId?: string,
) {
  if (!postId) return { externalId: '', integrationId: integrationId ?? null };
  return publishedTarget(
    deps.db,
    orgId,
    postId,
    platformId,
    integrationId,
    deps.accountIds ?? null,
  );
}

export async function replyToComment(
  deps: CommentsDeps,
  organizationId: string,
  platformId: string,
  commentId: string,
  body: { message: string; postId?: string; integrationId?: string },
) {
  const { externalId, integrationId } = await targetOf(
    deps,
    organizationId,
    platformId,
    body.postId,
    body.integrationId,
  );
  // Replies come from the account the post went out from.
  const { name, account, publishing } = await accountOn(
    deps,
    organizationId,
    platformId,
    integrationId,
  );
  const reply = need(publishing, 'reply', 'Replying to comments', name);
  try {
    return toComment(await reply(account, { externalId, commentId }, body.message));
  } catch (err) {
    throw toAppError(err, name);
  }
}

export async function editComment(
  deps: CommentsDeps,
  organizationId: string,
  platformId: string,
  commentId: string,
  message: string,
  integrationId?: string,
) {
  // The account's own comment: edited as that account (the newest one when not named).
  const { name, account, publishing } = await accountOn(
    deps,
    organizationId,
    platformId,
    integrationId,
  );
  const edit = need(publishing, 'editComment', 'Editing comments', name);
  try {
    await edit(account, commentId, message);
  } catch (err) {
    throw toAppError(err, name);
  }
}

export async function deleteComment(
  deps: CommentsDeps,
  organizationId: string,
  platformId: string,
  commentId: string,
  integrationId?: string,
) {
  const { name, account, publishing } = await accountOn(
    deps,
    organizationId,
    platformId,
    integrationId,
  );
  const remove = need(publishing, 'deleteComment', 'Deleting comments', name);
  try {
    await remove(account, commentId);
  } catch (err) {
    throw toAppError(err, name);
  }
}
