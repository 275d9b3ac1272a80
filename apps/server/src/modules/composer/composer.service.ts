import type {
  ComposerDraft,
  HashtagGroup,
  SaveComposerDraftRequest,
  SaveHashtagGroupRequest,
} from '@herald/contract';
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

/** docs/product.md#hashtag-groups: more than this many groups is refused. */
export const HASHTAG_GROUPS_MAX = 100;
const GROUP_NOT_FOUND = 'This hashtag group does not exist in this organization.';

function groupDto(row: repo.HashtagGroupRow): HashtagGroup {
  return {
    id: row.id,
    name: row.name,
    hashtags: row.hashtags,
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** The same hashtag once, in the order given. */
const distinct = (tags: readonly string[]) => [...new Set(tags)];

export async function listHashtagGroups(db: Db, organizationId: string) {
  return (await repo.listHashtagGroups(db, organizationId)).map(groupDto);
}

export async function createHashtagGroup(
  db: Db,
  organizationId: string,
  request: SaveHashtagGroupRequest,
) {
  const existing = await repo.listHashtagGroups(db, organizationId);
  if (existing.length >= HASHTAG_GROUPS_MAX) {
    throw new AppError(
      'VALIDATION_FAILED',
      `An organization can keep at most ${HASHTAG_GROUPS_MAX} hashtag groups: delete one first.`,
    );
  }
  const row = await repo.insertHashtagGroup(db, {
    organizationId,
    name: request.name,
    hashtags: distinct(request.hashtags),
  });
  return groupDto(row);
}

export async function updateHashtagGroup(
  db: Db,
  organizationId: string,
  groupId: string,
  request: SaveHashtagGroupRequest,
  now: Date,
) {
  const row = await repo.updateHashtagGroup(db, organizationId, groupId, {
    name: request.name,
    hashtags: distinct(request.hashtags),
    updatedAt: now,
  });
  if (!row) throw new AppError('NOT_FOUND', GROUP_NOT_FOUND);
  return groupDto(row);
}

export async function deleteHashtagGroup(db: Db, organizationId: string, groupId: string) {
  if (!(await repo.deleteHashtagGroup(db, organizationId, groupId))) {
    throw new AppError('NOT_FOUND', GROUP_NOT_FOUND);
  }
}
