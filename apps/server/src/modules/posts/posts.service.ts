import {
  constraintsForAccount,
  mediaGoesTo,
  validatePostTargets,
  type CreatePostFields,
  type Post,
  type UpdatePostRequest,
  type FollowUpsInput,
} from '@herald/contract';
import type { Db } from '../../db/client.js';
import { lockOrganization } from '../organizations/organization-lock.js';
import { AppError } from '../../lib/app-error.js';
import type { IngestedMedia, MediaStore } from '../../media/media-store.js';
import { requireCapacity, requireEntitlement } from '../billing/entitlements.js';
import { requireLibraryRoom } from './library-media.js';
import { listedPostDto, toPostDtos } from './post-dto.js';
import { reachableAccounts } from './post-accounts.js';
import {
  checkContentKeys,
  checkMediaKeys,
  chooseAccounts,
  constraintsOf,
  contentErrors,
  factsOf,
  futureTime,
  labelTargets,
  resolveSchedule,
  sentText,
  shortBaseFor,
  splitContent,
  textErrors,
  throwValidation,
  type TargetRule,
} from './post-rules.js';
import * as repo from './posts.repository.js';
import { settleAltTexts } from './alt-text.js';
import { settleMastodonSettings } from './mastodon-settings.js';
import { settleTikTokSettings, type TikTokCreatorReader } from './tiktok-settings.js';
import { settleYouTubeSettings, type YouTubeDayReader } from './youtube-settings.js';
import { settleGbpSettings } from './gbp-settings.js';
import { settlePinterestSettings } from './pinterest-settings.js';
import { settleFollowUps, storeFollowUps } from './follow-up-fields.js';
import { mustSubmit, recordSubmission } from '../approvals/approval-rule.js';
import { recordApprovalEvent } from '../approvals/approval-events.js';
import { announcePostChange } from './post-webhooks.js';
import { markQueued, nextFreeSlot, noSlotError, takeQueueSlot } from '../queue/queue.service.js';
import { refuseUnpublishable } from './publish-check.js';
import { bulkRefusal, lockChosenPosts, withStatus, type Refused } from './posts.bulk.js';

/**
 * What the publishing engine needs to hear about, inside the same transaction as the post
 * write (no post without its jobs, no job without its post).
 */
export interface PostLifecycle {
  /** The post is due at `post.scheduledAt` (now, for "publish now"). */
  scheduled(tx: Db, post: repo.PostRow): Promise<void>;
  /** The post no longer goes out (back to draft, or deleted). */
  unscheduled(tx: Db, post: repo.PostRow): Promise<void>;
  /**
   * The text of a post on its way changed, its time did not: what was uploaded ahead of the
   * time follows the change.
   */
  changed?(tx: Db, post: repo.PostRow): Promise<void>;
}

export interface PostsDeps {
  db: Db;
  media: MediaStore;
  lifecycle: PostLifecycle;
  now: () => Date;
  /** Reads TikTok's creator_info to check a post's TikTok settings; absent: only the fixed rules. */
  tiktokCreator?: TikTokCreatorReader;
  /** What the YouTube API project's day has left (platforms/youtube/quota.ts); absent: not checked. */
  youtubeDay?: YouTubeDayReader;
  /** `PUBLIC_URL/l/`: how long a short link is, for the length rules (absent: not counted). */
  shortLinkBase?: string;
  /**
   * Takes back what posts about to be deleted uploaded ahead to a network (Publisher's
   * withdrawUploaded), saying what the network refused. Absent: nothing to do.
   */
  withdrawUploaded?: (organizationId: string, postIds: string[]) => Promise<Withdrawal>;
}

/** What taking back the uploads of posts about to be deleted did. */
export interface Withdrawal {
  /** The network's refusal, as a sentence; null when every upload is gone. */
  problem: string | null;
  /** Uploads Herald could not reach (their account was disconnected): they stay, said here. */
  notice: string | null;
  /** Makes the targets whose uploads were taken back due again: the posts were not deleted. */
  undo(): Promise<void>;
}

/**
 * Deletes posts whose uploads waiting at a network are taken back first. `refuse` (under the
 * posts' lock) runs before anything is taken back; `work` checks again and deletes: a deletion refused
 * after some uploads were taken back (by the network, or by a post that changed meanwhile) puts
 * those targets back on their way, so a post that stays never stays without its upload.
 */
async function withdrawThenDelete<T>(
  deps: PostsDeps,
  organizationId: string,
  postIds: string[],
  refuse: (tx: Db) => Promise<unknown>,
  work: (tx: Db) => Promise<T>,
): Promise<{ done: T; notice: string | null }> {
  const deleting = () => deps.db.transaction(work);
  if (!deps.withdrawUploaded) return { done: await deleting(), notice: null };
  await deps.db.transaction(refuse);
  const withdrawal = await deps.withdrawUploaded(organizationId, postIds);
  try {
    if (withdrawal.problem) throw new AppError('CONFLICT', withdrawal.problem);
    return { done: await deleting(), notice: withdrawal.notice };
  } catch (err) {
    await withdrawal.undo();
    throw err;
  }
}

/**
 * A post whose video waits at the network (uploaded ahead) is deleted only once that video is
 * gone: checked under the post's lock, after `withdrawUploaded` ran, in case an upload ahead
 * finished in between.
 */
async function refuseWhileUploaded(tx: Db, organizationId: string, postIds: string[]) {
  if ((await repo.countUploadedTargets(tx, organizationId, postIds)) > 0)
    throw new AppError(
      'CONFLICT',
      'A video of this post was just uploaded to YouTube ahead of its time. Try deleting the post again: Herald then deletes that video first.',
    );
}

export interface Caller {
  organizationId: string;
  userId: string;
  /** The API key the user acts through (docs/api.md); absent or null when signed in. */
  apiKeyId?: string | null;
  /** Holds post:approve: never submits for approval (absent counts as not holding it). */
  canApprove?: boolean;
  /** The connected accounts the caller is limited to (absent or null: every account). */
  accountIds?: string[] | null;
}

export const startOfUtcDay = (date: Date) =>
  new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate()));

/**
 * docs/product.md#subscription-gate gate and the plan's posts-per-day number. Checked before the upload is read (a
 * refusal costs the user no upload) and again under the organization's lock when inserting.
 */
export async function checkPostAllowance(deps: PostsDeps, organizationId: string) {
  const plan = await requireEntitlement(deps.db, organizationId, 'post');
  const today = await repo.countPostsCreatedSince(
    deps.db,
    organizationId,
    startOfUtcDay(deps.now()),
  );
  requireCapacity(plan, 'postsPerDay', today);
}

/** What a create request names, checked before any file of it is read. */
export interface CreatePlan {
  accounts: repo.ConnectedAccount[];
  targets: TargetRule[];
  schedule: { status: repo.PostRow['status']; scheduledAt: Date | null };
  /** Each account's thread parts and first comment, checked. */
  followUps: Map<string, FollowUpsInput>;
  /** Where its links' short links start, when it has them (counted by the length rules). */
  shortBase: string | null;
}

/**
 * Every check of a create request that does not need its files: the accounts, the texts and the
 * time (the subscription and the day's allowance are `checkPostAllowance`). The upload route runs
 * both on the text fields before it reads the first file part, so a request that will be refused
 * stores no byte.
 */
export async function planCreate(
  deps: Pick<PostsDeps, 'db' | 'now' | 'shortLinkBase'>,
  caller: Caller,
  fields: CreatePostFields,
): Promise<CreatePlan> {
  const shortBase = await shortBaseFor(
    deps.db,
    caller.organizationId,
    fields.shortLinks,
    deps.shortLinkBase,
  );
  const connected = reachableAccounts(
    caller,
    await repo.connectedAccounts(deps.db, caller.organizationId),
    fields.integrationIds,
  );
  const accounts = chooseAccounts(connected, fields);
  const targets: TargetRule[] = labelTargets(accounts).map((a) => ({
    integrationId: a.integrationId,
    platformId: a.platformId,
    platformName: a.label,
    constraints: constraintsForAccount(constraintsOf(a.mediaConstraints), a.textLimit),
  }));
  checkMediaKeys(Object.keys(fields.platformMedia ?? {}), targets);
  checkContentKeys(fields.content, targets);
  // Media may still come, so only the rules that hold whatever the files are apply here.
  const errors = [
    ...contentErrors(fields.content, targets, () => [null]),
    ...textErrors(fields.content, targets, fields.linkTracking, shortBase),
  ];
  if (errors.length > 0) throwValidation(errors);
  if (fields.action === 'queue') {
    // Refused before the upload is read; the slot itself is taken under the lock below.
    const ids = accounts.map((a) => a.integrationId);
    if (!(await nextFreeSlot(deps.db, caller.organizationId, ids, deps.now()))) {
      throw await noSlotError(deps.db, caller.organizationId, ids);
    }
  }
  const followUps = settleFollowUps(
    accounts.map((a, i) => ({
      integrationId: a.integrationId,
      networkName: a.platformName,
      label: targets[i]!.platformName,
      constraints: targets[i]!.constraints,
    })),
    fields.followUps,
  );
  return {
    accounts,
    targets,
    schedule: resolveSchedule(fields, deps.now()),
    followUps,
    shortBase,
  };
}

/**
 * Creates a post from already-ingested files. The caller removes the files when this throws, so
 * a refused request leaves neither a post nor orphan files.
 */
export async function createPost(
  deps: PostsDeps,
  caller: Caller,
  fields: CreatePostFields,
  files: IngestedMedia[],
  checked?: CreatePlan,
): Promise<Post> {
  const { accounts, targets, schedule, followUps, shortBase } =
    checked ?? (await planCreate(deps, caller, fields));

  // Files listed in platformMedia belong to those accounts or platforms; the others are shared.
  const owners = new Map<number, string[]>();
  for (const [key, indexes] of Object.entries(fields.platformMedia ?? {})) {
    for (const index of indexes) {
      if (index >= files.length) {
        throw new AppError(
          'VALIDATION_FAILED',
          `platformMedia refers to file ${index + 1}, but only ${files.length} file${files.length === 1 ? ' was' : 's were'} uploaded.`,
        );
      }
      owners.set(index, [...(owners.get(index) ?? []), key]);
    }
  }
  const mediaFor = (target: TargetRule) =>
    files.filter((_, index) => mediaGoesTo(owners.get(index) ?? null, target)).map(factsOf);

  checkContentKeys(fields.content, targets);
  const errors = [
    ...contentErrors(fields.content, targets, mediaFor),
    ...validatePostTargets(
      targets.map((t) => ({
        ...t,
        text: sentText(fields.content, t, fields.linkTracking, shortBase),
        media: mediaFor(t),
      })),
    ),
  ];
  if (errors.length > 0) throwValidation(errors);
  const tiktok = await settleTikTokSettings(
    deps.tiktokCreator,
    caller.organizationId,
    accounts.map((a) => {
      const target = targets.find((t) => t.integrationId === a.integrationId)!;
      return {
        integrationId: a.integrationId,
        networkName: a.platformName,
        label: target.platformName,
        media: mediaFor(target),
      };
    }),
    fields.tiktok,
    schedule.status === 'draft',
  );
  const mastodon = settleMastodonSettings(
    accounts.map((a) => ({ integrationId: a.integrationId, networkName: a.platformName })),
    fields.mastodon,
  );

  const youtube = await settleYouTubeSettings(
    accounts.map((a) => {
      const target = targets.find((t) => t.integrationId === a.integrationId)!;
      return {
        integrationId: a.integrationId,
        networkName: a.platformName,
        label: target.platformName,
        media: mediaFor(target),
      };
    }),
    fields.youtube,
    schedule.status === 'draft',
    {
      read: deps.youtubeDay,
      goesOutAt: schedule.scheduledAt ?? deps.now(),
      uploadsAheadFrom: deps.now(),
    },
  );
  const pinterest = settlePinterestSettings(
    accounts.map((a) => ({
      integrationId: a.integrationId,
      networkName: a.platformName,
      label: targets.find((t) => t.integrationId === a.integrationId)!.platformName,
    })),
    fields.pinterest,
    schedule.status === 'draft',
  );

  const googleBusiness = settleGbpSettings(
    accounts.map((a) => ({
      integrationId: a.integrationId,
      networkName: a.platformName,
      label: targets.find((t) => t.integrationId === a.integrationId)!.platformName,
    })),
    fields.googleBusiness,
    schedule.status === 'draft',
  );

  const altTexts = settleAltTexts(
    fields.altTexts,
    files.map((_, index) => ({
      key: String(index),
      number: index + 1,
      owners: owners.get(index) ?? null,
    })),
    accounts.map((a) => ({
      integrationId: a.integrationId,
      platformId: a.platformId,
      networkName: a.platformName,
    })),
  );

  const leftovers: string[] = [];
  const library = { uploadedBy: caller.userId, leftovers, addedBytes: 0 };
  const post = await deps.db.transaction(async (tx) => {
    await lockOrganization(tx, caller.organizationId);
    const plan = await requireEntitlement(tx, caller.organizationId, 'post');
    const today = await repo.countPostsCreatedSince(
      tx,
      caller.organizationId,
      startOfUtcDay(deps.now()),
    );
    requireCapacity(plan, 'postsPerDay', today);
    if (fields.action === 'queue') {
      const ids = accounts.map((a) => a.integrationId);
      schedule.scheduledAt = await takeQueueSlot(tx, caller.organizationId, ids, deps.now());
    }
    // docs/product.md#approvals: a member who may not approve submits instead of scheduling.
    const submits = schedule.status === 'scheduled' && (await mustSubmit(tx, caller));
    const row = await repo.insertPost(
      tx,
      {
        organizationId: caller.organizationId,
        createdByUserId: caller.userId,
        createdByApiKeyId: caller.apiKeyId ?? null,
        title: fields.title?.trim() ? fields.title.trim() : null,
        ...splitContent(fields.content),
        linkTracking: fields.linkTracking ?? null,
        shortLinks: fields.shortLinks ?? null,
        ...schedule,
        ...(submits ? { status: 'pending_approval' as const } : {}),
      },
      accounts.map((a) => ({
        platformId: a.platformId,
        integrationId: a.integrationId,
        accountName: a.name,
        accountUsername: a.username,
        accountExternalId: a.platformAccountId,
        settings:
          tiktok.get(a.integrationId) ??
          mastodon.get(a.integrationId) ??
          youtube.get(a.integrationId) ??
          googleBusiness.get(a.integrationId) ??
          pinterest.get(a.integrationId) ??
          null,
      })),
      // IngestedMedia holds exactly the media row's stored columns.
      files.map((file, position) => ({
        ...file,
        position,
        platformIds: owners.get(position) ?? null,
        altText: altTexts.get(String(position)) ?? null,
      })),
      library,
    );
    // Reusing what the library holds takes no room; only new content is weighed.
    if (library.addedBytes > 0) await requireLibraryRoom(tx, caller.organizationId, plan);
    await storeFollowUps(tx, caller.organizationId, row.id, followUps, () => false);
    if (row.status === 'scheduled') await deps.lifecycle.scheduled(tx, row);
    if (submits) await recordSubmission(tx, caller, row);
    if (fields.action === 'queue')
      await markQueued(tx, caller.organizationId, row.id, row.scheduledAt!);
    await announcePostChange(tx, 'post.created', row, deps.now());
    // Answered from the transaction: a read after the commit could fail and make a stored post
    // look refused (a retry would then create it twice).
    const [created] = await toPostDtos({ ...deps, db: tx }, caller.organizationId, [row]);
    return created!;
  });
  // Copies of files the media library already held: only its copy is kept.
  await removeUnusedFiles(deps, leftovers);
  return post;
}

/**
 * After a post's rows are committed: deletes those of `keys` no file row refers to any more. The
 * post is stored and its answer must stand, so a failure here only leaves unreferenced files.
 */
export async function removeUnusedFiles(
  deps: { db: Db; media: { remove(keys: string[]): Promise<void> } },
  keys: string[],
): Promise<void> {
  if (keys.length === 0) return;
  try {
    await deps.media.remove(await repo.unusedStorageKeys(deps.db, keys));
  } catch {
    // Unreferenced files cost storage only; nothing of the post is lost.
  }
}

export interface ListOptions extends repo.PostFilter {
  page?: number;
  pageSize?: number;
}

/** Paged when asked; otherwise the newest posts up to the cap (the calendar's ranges). */
export async function listPosts(
  deps: PostsDeps,
  organizationId: string,
  options: ListOptions,
  cap: number,
) {
  const paged = options.page !== undefined || options.pageSize !== undefined;
  const page = options.page ?? 1;
  const pageSize = paged ? (options.pageSize ?? 20) : cap;
  const { rows, totalCount } = await repo.listPosts(deps.db, organizationId, options, {
    limit: pageSize,
    offset: (page - 1) * pageSize,
  });
  const posts = rows.map((row) => listedPostDto(deps, row));
  return { posts, meta: { page, pageSize, totalCount } };
}

export async function getPost(deps: PostsDeps, organizationId: string, postId: string) {
  const row = await repo.findPost(deps.db, organizationId, postId);
  if (!row) throw new AppError('NOT_FOUND', 'This post does not exist in this organization.');
  const [post] = await toPostDtos(deps, organizationId, [row]);
  return post!;
}

export function refuseWhileBusy(post: repo.PostRow, doing: 'edited' | 'deleted') {
  if (post.status === 'publishing') {
    throw new AppError(
      'CONFLICT',
      `This post is being published right now and cannot be ${doing}. Try again in a moment.`,
    );
  }
}

/** New text and/or a new time; a published post is history and stays as it went out. */
export async function updatePost(
  deps: PostsDeps,
  organizationId: string,
  postId: string,
  body: UpdatePostRequest,
  caller?: Caller,
) {
  await deps.db.transaction(async (tx) => {
    const post = await repo.lockPost(tx, organizationId, postId);
    if (!post) throw new AppError('NOT_FOUND', 'This post does not exist in this organization.');
    await changePost(tx, deps, organizationId, post, body, caller);
  });
  return getPost(deps, organizationId, postId);
}

export interface ChangeOptions {
  /**
   * A waiting post given a new time stays waiting, whoever moves it: moving posts in bulk is not
   * approving them (an approver's edit of one waiting post is, see below).
   */
  keepWaiting?: boolean;
}

/**
 * The one code of "new text and/or a new time" for a post already locked in `tx`: the rules
 * (published and busy posts refused, the texts checked, the time in the future, approval), the
 * publish jobs moved or cancelled with the change, and the approval history. Used by the PUT
 * route, by bulk reschedule and by Add to queue. Answers the post as the change left it.
 */
export async function changePost(
  tx: Db,
  deps: Pick<PostsDeps, 'lifecycle' | 'now'>,
  organizationId: string,
  post: repo.PostRow,
  body: UpdatePostRequest,
  caller?: Caller,
  options: ChangeOptions = {},
): Promise<repo.PostRow> {
  const postId = post.id;
  if (post.status === 'published') {
    throw new AppError(
      'CONFLICT',
      'This post is already published, so it can no longer be edited.',
    );
  }
  refuseWhileBusy(post, 'edited');
  const changes: Partial<repo.PostRow> = {};
  if (body.content !== undefined) {
    const [rules, media] = await Promise.all([
      repo.targetPlatforms(tx, organizationId, postId),
      repo.mediaOwners(tx, organizationId, postId),
    ]);
    const content = body.content;
    const mediaFor = (target: TargetRule) =>
      media.filter((m) => mediaGoesTo(m.platformIds, target));
    const targets: TargetRule[] = labelTargets(
      rules.map((r) => ({ ...r, name: r.accountName, username: null })),
    ).map((r) => ({
      integrationId: r.integrationId,
      platformId: r.platformId,
      platformName: r.label,
      constraints: constraintsForAccount(constraintsOf(r.mediaConstraints), r.textLimit),
    }));
    checkContentKeys(content, targets);
    const errors = [
      ...contentErrors(content, targets, mediaFor),
      ...textErrors(content, targets, post.linkTracking),
    ];
    if (errors.length > 0) throwValidation(errors);
    Object.assign(changes, splitContent(body.content));
  }
  if (body.scheduledAt === null) {
    Object.assign(changes, { status: 'draft', scheduledAt: null });
  } else if (body.scheduledAt !== undefined) {
    Object.assign(changes, {
      status: 'scheduled',
      scheduledAt: futureTime(body.scheduledAt, deps.now()),
    });
  }
  // docs/product.md#approvals: a new time, or new text of a post on its way (scheduled or
  // waiting), from a member who may not approve goes (back) to the approvers. A post already
  // out to some account is not held back.
  const onItsWay =
    body.scheduledAt !== null &&
    (body.scheduledAt !== undefined ||
      post.status === 'scheduled' ||
      post.status === 'pending_approval');
  const staysWaiting = options.keepWaiting === true && post.status === 'pending_approval';
  const submits =
    onItsWay &&
    post.status !== 'partially_published' &&
    (staysWaiting ||
      (await mustSubmit(tx, {
        organizationId,
        userId: caller?.userId,
        canApprove: caller?.canApprove,
      })));
  if (submits) {
    Object.assign(changes, {
      status: 'pending_approval',
      scheduledAt: changes.scheduledAt ?? post.scheduledAt,
    });
  }
  const updated = await repo.updatePost(tx, organizationId, postId, changes);
  if (!updated) throw new AppError('NOT_FOUND', 'This post does not exist in this organization.');
  // A post on its way (scheduled, or waiting for approval) must be one its networks will take:
  // checked on the row as changed, so a refusal undoes the change with the transaction.
  if (updated.status === 'scheduled' || updated.status === 'pending_approval') {
    await refuseUnpublishable(tx, organizationId, postId);
  }
  if (submits) {
    await deps.lifecycle.unscheduled(tx, updated);
    if (post.status !== 'pending_approval') {
      await recordSubmission(tx, { organizationId, userId: caller?.userId ?? null }, updated);
    }
  } else if (body.scheduledAt === null) await deps.lifecycle.unscheduled(tx, updated);
  else if (body.scheduledAt !== undefined) await deps.lifecycle.scheduled(tx, updated);
  else if (body.content !== undefined && STATUSES_STILL_GOING_OUT.includes(updated.status))
    await deps.lifecycle.changed?.(tx, updated);
  // An approver who gives a waiting post its time approves it.
  if (!submits && post.status === 'pending_approval' && updated.status === 'scheduled') {
    await recordApprovalEvent(tx, {
      organizationId,
      postId,
      userId: caller?.userId ?? null,
      action: 'approved',
    });
  }
  // Scheduling may settle the post (partially published): the row as it ends.
  const final = (await repo.findPost(tx, organizationId, postId)) ?? updated;
  await announcePostChange(tx, 'post.updated', final, deps.now());
  return final;
}

/**
 * A post some of whose accounts still wait for its time: what was uploaded ahead for them
 * follows an edit of its text (partly out: what is not out yet still goes out as edited).
 */
const STATUSES_STILL_GOING_OUT: repo.PostRow['status'][] = ['scheduled', 'partially_published'];

/** Deletes the post; `notice`: what of it stays at a network (see Withdrawal). */
export async function deletePost(
  deps: PostsDeps,
  organizationId: string,
  postId: string,
): Promise<{ notice: string | null }> {
  const locked = async (tx: Db) => {
    const post = await repo.lockPost(tx, organizationId, postId);
    if (!post) throw new AppError('NOT_FOUND', 'This post does not exist in this organization.');
    refuseWhileBusy(post, 'deleted');
    return post;
  };
  const deleted = await withdrawThenDelete(deps, organizationId, [postId], locked, async (tx) => {
    const post = await locked(tx);
    await refuseWhileUploaded(tx, organizationId, [postId]);
    await deps.lifecycle.unscheduled(tx, post);
    await announcePostChange(tx, 'post.deleted', post, deps.now());
    return repo.deletePost(tx, organizationId, postId);
  });
  // Files go after the rows: a failure here leaves unreferenced files, never a post without them.
  // A duplicate of the post (docs/product.md#duplicate) may still use them.
  await removeUnusedFiles(deps, deleted.done);
  return { notice: deleted.notice };
}

export type BulkAction = 'delete' | 'draft';

/**
 * The same rules as one post at a time (updatePost, deletePost), for each post of a bulk action:
 * a post being published can be neither deleted nor moved; a published one is history and does
 * not go back to draft.
 */
function bulkRefused(action: BulkAction, rows: repo.PostRow[]): Refused[] {
  return [
    {
      rows: withStatus(rows, 'publishing'),
      says: (one) =>
        `${one ? 'is' : 'are'} being published right now and cannot be ${action === 'delete' ? 'deleted' : 'moved to draft'}`,
    },
    {
      // Partly out counts as out: what went out to one account cannot be taken back to a draft.
      rows: action === 'draft' ? withStatus(rows, 'published', 'partially_published') : [],
      says: (one) =>
        `${one ? 'is' : 'are'} already published (to at least one account) and cannot go back to draft`,
    },
  ];
}

/**
 * Deletes, or moves to draft, several posts of one organization: all of them in one transaction,
 * or none when one of them cannot take the action (409 naming them) or is not a post of this
 * organization (404). Their publish jobs are cancelled exactly as for one post.
 */
export async function bulkPosts(
  deps: PostsDeps,
  organizationId: string,
  action: BulkAction,
  postIds: string[],
): Promise<{ postIds: string[]; notice: string | null }> {
  const locked = async (tx: Db) => {
    const rows = await lockChosenPosts(tx, organizationId, postIds);
    const refusal = bulkRefusal(bulkRefused(action, rows));
    if (refusal) throw refusal;
    return rows;
  };
  const act = async (tx: Db) => {
    const rows = await locked(tx);
    if (action === 'delete') await refuseWhileUploaded(tx, organizationId, postIds);
    const removed: string[] = [];
    for (const row of rows) {
      if (action === 'delete') {
        await deps.lifecycle.unscheduled(tx, row);
        await announcePostChange(tx, 'post.deleted', row, deps.now());
        removed.push(...(await repo.deletePost(tx, organizationId, row.id)));
      } else {
        const updated = await repo.updatePost(tx, organizationId, row.id, {
          status: 'draft',
          scheduledAt: null,
        });
        await deps.lifecycle.unscheduled(tx, updated ?? row);
        await announcePostChange(tx, 'post.updated', updated ?? row, deps.now());
      }
    }
    return { done: rows.map((row) => row.id), keys: removed };
  };
  const {
    done: { done, keys },
    notice,
  } =
    action === 'delete'
      ? await withdrawThenDelete(deps, organizationId, postIds, locked, act)
      : { done: await deps.db.transaction(act), notice: null };
  // As for one post: files go after the rows.
  await removeUnusedFiles(deps, keys);
  return { postIds: done, notice };
}
