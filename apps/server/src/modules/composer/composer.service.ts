import type { ComposerDraft, SaveComposerDraftRequest } from '@herald/contract';
import type { Db } from '../../db/client.js';
import { AppError } from '../../lib/app-error.js';
import { findPost } from '../posts/posts.lookups.js';
import * as repo from './composer.repository.js';

/** Whose draft: the member, in the organization, of a new post (null) or an edit of that post. */
export interface DraftOwner {
  organizationId: string;
  userId: string;
}

function toDto(row: repo.ComposerDraftRow): ComposerDraft {
  return { postId: row.postId, body: row.body, updatedAt: row.updatedAt.toISOString() };
}

/** docs/product.md#composer-autosave: the member's unsent work, or null. */
export async function readDraft(db: Db, owner: DraftOwner, postId: string | null) {
  const row = await repo.findDraft(db, owner.organizationId, owner.userId, postId);
  return row ? toDto(row) : null;
}

export async function saveDraft(
  db: Db,
  owner: DraftOwner,
  request: SaveComposerDraftRequest,
  now: Date,
) {
  // An edit's draft belongs to a post of this organization (the key alone would not say so).
  if (request.postId && !(await findPost(db, owner.organizationId, request.postId))) {
    throw new AppError('NOT_FOUND', 'This post does not exist in this organization.');
  }
  const row = await repo.upsertDraft(db, { ...owner, postId: request.postId }, request.body, now);
  return toDto(row);
}

export async function discardDraft(db: Db, owner: DraftOwner, postId: string | null) {
  await repo.deleteDraft(db, owner.organizationId, owner.userId, postId);
}
