import type { Post } from '@herald/contract';
import type { Db } from '../../db/client.js';
import { lockOrganization } from '../organizations/organization-lock.js';
import { AppError } from '../../lib/app-error.js';
import { requireCapacity, requireEntitlement } from '../billing/entitlements.js';
import { toPostDtos } from '../posts/post-dto.js';
import * as posts from '../posts/posts.lookups.js';
import { startOfUtcDay, type Caller, type PostsDeps } from '../posts/posts.service.js';
import { eachPost, lockChosenPosts } from '../posts/posts.bulk.js';
import { targetsOfPost } from './post-extras.repository.js';

type DuplicateDeps = Pick<PostsDeps, 'db' | 'media' | 'now'>;

/**
 * docs/product.md#duplicate: a new draft with the post's title, texts, link tracking, accounts
 * (those still connected, with the settings chosen for them) and files (their alt texts too), in
 * one transaction. Not its time, statuses or results. The files' stored bytes are shared: a
 * file is removed from storage only once no post refers to it.
 */
export async function duplicatePost(
  deps: DuplicateDeps,
  caller: Caller,
  postId: string,
): Promise<Post> {
  const org = caller.organizationId;
  return deps.db.transaction(async (tx) => {
    await lockOrganization(tx, org);
    const source = await posts.findPost(tx, org, postId);
    if (!source) throw new AppError('NOT_FOUND', 'This post does not exist in this organization.');
    const plan = await requireEntitlement(tx, org, 'post');
    const today = await posts.countPostsCreatedSince(tx, org, startOfUtcDay(deps.now()));
    requireCapacity(plan, 'postsPerDay', today);
    const row = await copyOf(tx, caller, source);
    const [dto] = await toPostDtos({ ...deps, db: tx }, org, [row]);
    return dto!;
  });
}

/**
 * Duplicate for several posts (docs/product.md#bulk-actions): a draft copy of each, in the order
 * asked, in one transaction or none. The copies count against the day's post allowance
 * together: when they would not all fit, none is made and the sentence says how many would.
 */
export async function bulkDuplicate(
  deps: DuplicateDeps,
  caller: Caller,
  postIds: string[],
): Promise<Array<{ postId: string; copyId: string }>> {
  const org = caller.organizationId;
  return deps.db.transaction(async (tx) => {
    await lockOrganization(tx, org);
    const sources = await lockChosenPosts(tx, org, postIds);
    const plan = await requireEntitlement(tx, org, 'post');
    const today = await posts.countPostsCreatedSince(tx, org, startOfUtcDay(deps.now()));
    const limit = plan.features.postsPerDay;
    if (today + sources.length > limit) {
      const left = Math.max(0, limit - today);
      throw new AppError(
        'FORBIDDEN',
        `Your ${plan.name} plan allows ${limit} post${limit === 1 ? '' : 's'} per day and ${left === 0 ? 'none is' : `${left} ${left === 1 ? 'is' : 'are'}`} left today, so ${sources.length} copies cannot be made. Choose fewer posts, try again tomorrow or upgrade your plan.`,
      );
    }
    const copies = await eachPost(sources, (source) => copyOf(tx, caller, source));
    return copies.map((copy, index) => ({ postId: sources[index]!.id, copyId: copy.id }));
  });
}

/** The one code of a copy: the new draft's row, inside the caller's transaction. */
async function copyOf(tx: Db, caller: Caller, source: posts.PostRow): Promise<posts.PostRow> {
  const org = caller.organizationId;
  const connected = new Map(
    (await posts.connectedAccounts(tx, org)).map((account) => [account.integrationId, account]),
  );
  const targets = await targetsOfPost(tx, org, source.id);
  const seen = new Set<string>();
  const newTargets: posts.NewTarget[] = [];
  for (const t of targets) {
    const account = t.integrationId ? connected.get(t.integrationId) : undefined;
    if (!account || seen.has(account.integrationId)) continue;
    seen.add(account.integrationId);
    newTargets.push({
      platformId: account.platformId,
      integrationId: account.integrationId,
      accountName: account.name,
      accountUsername: account.username,
      accountExternalId: account.platformAccountId,
      settings: t.settings ?? null,
    });
  }
  const media = await posts.mediaOfPost(tx, org, source.id);
  return posts.insertPost(
    tx,
    {
      organizationId: org,
      createdByUserId: caller.userId,
      title: source.title,
      status: 'draft',
      content: source.content,
      contentByPlatform: source.contentByPlatform,
      linkTracking: source.linkTracking,
      shortLinks: source.shortLinks,
      scheduledAt: null,
    },
    newTargets,
    media.map((m) => ({
      position: m.position,
      storageKey: m.storageKey,
      thumbnailKey: m.thumbnailKey,
      fileName: m.fileName,
      mimeType: m.mimeType,
      kind: m.kind,
      size: m.size,
      width: m.width,
      height: m.height,
      durationSec: m.durationSec,
      sha256: m.sha256,
      platformIds: m.platformIds,
      altText: m.altText,
    })),
  );
}
