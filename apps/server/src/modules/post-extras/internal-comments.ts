import type { InternalComment } from '@herald/contract';
import type { Db } from '../../db/client.js';
import { AppError } from '../../lib/app-error.js';
import { recordNotification } from '../notifications/notifications.service.js';
import { postLabel } from '../publishing/outcome-notifications.js';
import * as posts from '../posts/posts.lookups.js';
import * as repo from './post-extras.repository.js';

/**
 * docs/product.md#internal-comments: the team's discussion of a post, never sent to a network.
 * Every read and write is scoped by the organization; a post of another organization is "not
 * found", as is a comment of another post.
 */
const notFound = () => new AppError('NOT_FOUND', 'This post does not exist in this organization.');

type Row = repo.InternalCommentRow;

async function requirePost(db: Db, organizationId: string, postId: string) {
  const post = await posts.findPost(db, organizationId, postId);
  if (!post) throw notFound();
  return post;
}

async function namesOf(db: Db, userIds: string[]) {
  if (userIds.length === 0) return new Map<string, string | null>();
  const rows = await repo.userNames(db, userIds);
  return new Map(rows.map((u) => [u.id, u.displayName ?? u.email]));
}

function toDto(row: Row, names: Map<string, string | null>, callerId: string): InternalComment {
  return {
    id: row.id,
    postId: row.postId,
    body: row.body,
    author: row.userId ? { id: row.userId, displayName: names.get(row.userId) ?? null } : null,
    mentions: row.mentionedUserIds
      .filter((id) => names.has(id))
      .map((id) => ({ id, displayName: names.get(id) ?? null })),
    createdAt: row.createdAt.toISOString(),
    isOwn: row.userId === callerId,
  };
}

async function toDtos(db: Db, rows: Row[], callerId: string) {
  const ids = new Set<string>();
  for (const row of rows) {
    if (row.userId) ids.add(row.userId);
    for (const id of row.mentionedUserIds) ids.add(id);
  }
  const names = await namesOf(db, [...ids]);
  return rows.map((row) => toDto(row, names, callerId));
}

export async function listInternalComments(
  db: Db,
  organizationId: string,
  postId: string,
  callerId: string,
) {
  await requirePost(db, organizationId, postId);
  const rows = await repo.listInternalComments(db, organizationId, postId);
  return toDtos(db, rows, callerId);
}

/**
 * Adds a comment and notifies each mentioned teammate (not the author) with a link to the post.
 * A mention of someone who is not an active member of the organization is refused.
 */
export async function addInternalComment(
  db: Db,
  caller: { organizationId: string; userId: string },
  postId: string,
  input: { body: string; mentionedUserIds: string[] },
) {
  const org = caller.organizationId;
  const mentioned = [...new Set(input.mentionedUserIds)];
  return db.transaction(async (tx) => {
    const post = await requirePost(tx, org, postId);
    if (mentioned.length > 0) {
      const found = new Set(await repo.activeMemberIds(tx, org, mentioned));
      const strangers = mentioned.filter((id) => !found.has(id));
      if (strangers.length > 0) {
        throw new AppError(
          'VALIDATION_FAILED',
          strangers.length === 1
            ? 'One of the people you mentioned is not a member of this organization.'
            : `${strangers.length} of the people you mentioned are not members of this organization.`,
          { mentionedUserIds: strangers },
        );
      }
    }
    const row = await repo.insertInternalComment(tx, {
      organizationId: org,
      postId,
      userId: caller.userId,
      body: input.body,
      mentionedUserIds: mentioned,
    });
    const names = await namesOf(tx, [caller.userId]);
    const toNotify = mentioned.filter((id) => id !== caller.userId);
    if (toNotify.length > 0) {
      const who = names.get(caller.userId) ?? 'A teammate';
      await recordNotification(
        tx,
        org,
        { userIds: toNotify },
        {
          type: 'POST_MENTIONED',
          priority: 'MEDIUM',
          message: `${who} mentioned you in a comment on ${postLabel(post)}.`,
          postId,
        },
      );
    }
    const [dto] = await toDtos(tx, [row], caller.userId);
    return dto!;
  });
}

/** Deletes a comment its caller wrote; someone else's is refused. */
export async function deleteInternalComment(
  db: Db,
  caller: { organizationId: string; userId: string },
  postId: string,
  commentId: string,
) {
  const org = caller.organizationId;
  await db.transaction(async (tx) => {
    await requirePost(tx, org, postId);
    const row = await repo.lockInternalComment(tx, org, postId, commentId);
    if (!row) throw new AppError('NOT_FOUND', 'This comment does not exist on this post.');
    if (row.userId !== caller.userId)
      throw new AppError('FORBIDDEN', 'You can delete only your own comments.');
    await repo.deleteInternalComment(tx, row.id);
  });
}
