import { reachableAccounts } from './post-accounts.js';
import {
  type TargetStatus,
  constraintsForAccount,
  MAX_FILES_PER_POST,
  mediaGoesTo,
  TOO_MANY_FILES_MESSAGE,
  validatePostTargets,
  type EditPostFields,
  type MediaFacts,
  type Post,
  type PostContent,
} from '@herald/contract';
import type { Db } from '../../db/client.js';
import { AppError } from '../../lib/app-error.js';
import type { IngestedMedia } from '../../media/media-store.js';
import { contentOf, toPostDtos } from './post-dto.js';
import {
  describeLocked,
  isLockedStatus,
  layoutMedia,
  pinLockedText,
  type EditTarget,
} from './post-edit-rules.js';
import {
  checkContentKeys,
  checkMediaKeys,
  chooseAccounts,
  constraintsOf,
  contentErrors,
  factsOf,
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
import { readCreatorsAhead, settleTikTokSettings } from './tiktok-settings.js';
import { settleYouTubeSettings } from './youtube-settings.js';
import { settleGbpSettings } from './gbp-settings.js';
import { settlePinterestSettings } from './pinterest-settings.js';
import { settleFollowUps, storeFollowUps } from './follow-up-fields.js';
import { mustSubmit, recordSubmission } from '../approvals/approval-rule.js';
import { recordApprovalEvent } from '../approvals/approval-events.js';
import { announcePostChange } from './post-webhooks.js';
import {
  refuseWhileBusy,
  removeUnusedFiles,
  type Caller,
  type PostsDeps,
} from './posts.service.js';
import { findEntitlement } from '../billing/billing.service.js';
import { requireLibraryRoom } from './library-media.js';

/** What an edit request changes, checked against the post as it is. */
export interface EditPlan {
  post: repo.PostRow;
  existing: repo.TargetForEdit[];
  /** Targets out, going out, or needing a check: they stay exactly as they are. */
  locked: EditTarget[];
  /** The accounts the rest of the post goes to from now on. */
  chosen: repo.ConnectedAccount[];
  editable: EditTarget[];
  /** locked, then editable: every target after the edit. */
  all: EditTarget[];
  /** Where its links' short links start, when it has them (counted by the length rules). */
  shortBase: string | null;
  content: PostContent;
  schedule: ReturnType<typeof resolveSchedule>;
}

/**
 * A video uploaded ahead from an account disconnected since: the network publishes it at its
 * time whatever the post becomes, so its target stays to say so (and follows the post again
 * once the account is reconnected).
 */
const keptUploaded = (target: repo.TargetForEdit['target']) =>
  target.status === 'UPLOADED' && !target.integrationId;

const notFound = () => new AppError('NOT_FOUND', 'This post does not exist in this organization.');

/**
 * Every check of an edit that needs no file: the post may be edited, the accounts (locked ones
 * kept, the others chosen as when creating), the texts and the time. Run on the text fields
 * before the upload is read, and again on the locked rows inside the edit's transaction.
 */
/** The link tracking the post will have after the edit (kept when the edit does not name it). */
const trackingAfter = (post: repo.PostRow, fields: EditPostFields) =>
  fields.linkTracking !== undefined ? fields.linkTracking : (post.linkTracking ?? null);

export async function planEdit(
  db: Db,
  now: Date,
  caller: Caller,
  postId: string,
  fields: EditPostFields,
  lock: boolean,
  shortLinkBase?: string,
): Promise<EditPlan> {
  const org = caller.organizationId;
  const post = lock ? await repo.lockPost(db, org, postId) : await repo.findPost(db, org, postId);
  if (!post) throw notFound();
  if (post.status === 'published') {
    throw new AppError(
      'CONFLICT',
      'This post is already published, so it can no longer be edited.',
    );
  }
  refuseWhileBusy(post, 'edited');
  const existing = await repo.targetsForEdit(db, org, postId, lock);
  const named = labelTargets(
    existing.map((row) => ({
      row,
      platformId: row.target.platformId,
      platformName: row.platformName,
      name: row.target.accountName,
      username: row.target.accountUsername,
    })),
  );
  const asTarget = (t: (typeof named)[number]): EditTarget => ({
    integrationId: t.row.target.integrationId,
    platformId: t.platformId,
    platformName: t.label,
    constraints: constraintsOf(t.row.mediaConstraints),
    status: t.row.target.status,
  });
  const locked = named.filter((t) => isLockedStatus(t.row.target.status)).map(asTarget);

  const integrationIds = new Set(fields.integrationIds ?? []);
  const platformIds = new Set(fields.platformIds ?? []);
  // An account disconnected since cannot be named again: its locked target stays by itself.
  const dropped = locked.filter(
    (t) =>
      t.integrationId && !integrationIds.has(t.integrationId) && !platformIds.has(t.platformId),
  );
  if (dropped.length > 0) {
    throw new AppError(
      'CONFLICT',
      `This post already went out (or is going out) to ${describeLocked(dropped)}, so ${dropped.length === 1 ? 'that account stays' : 'those accounts stay'} on it. Keep ${dropped.length === 1 ? 'it' : 'them'} selected and change the other accounts only.`,
    );
  }
  const lockedAccounts = new Set(locked.flatMap((t) => (t.integrationId ? [t.integrationId] : [])));
  const lockedNetworks = new Set(locked.map((t) => t.platformId));
  const connected = reachableAccounts(
    caller,
    await repo.connectedAccounts(db, org),
    fields.integrationIds,
  );
  const chosen = chooseAccounts(connected, {
    integrationIds: [...integrationIds].filter((id) => !lockedAccounts.has(id)),
    platformIds: [...platformIds].filter((id) => !lockedNetworks.has(id)),
  });
  // A video uploaded ahead leaves the post only by the post's going back to draft, where its
  // run deletes it at the network: an edit has no run to do it for a target it removes. One
  // whose account was disconnected stays on the post as it is (keptUploaded), saying that the
  // network still publishes it, and does not hold the edit back.
  const keptIds = new Set(chosen.map((a) => a.integrationId));
  const uploaded = named.filter(
    (t) =>
      t.row.target.status === 'UPLOADED' &&
      t.row.target.integrationId &&
      !keptIds.has(t.row.target.integrationId),
  );
  if (uploaded.length > 0) {
    throw new AppError(
      'CONFLICT',
      `${uploaded.map((t) => t.label).join(', ')} already has this post's video, uploaded ahead for its time. Move the post to draft first (Herald then deletes that video), then remove the account.`,
    );
  }
  if (locked.length + chosen.length > 10) {
    throw new AppError('VALIDATION_FAILED', 'A post can go to at most 10 accounts.');
  }

  if (fields.action === 'queue') {
    throw new AppError(
      'VALIDATION_FAILED',
      'Add to queue is for new posts. Pick a time to reschedule this one.',
    );
  }
  const schedule = resolveSchedule(fields, now);
  if (schedule.status === 'draft' && locked.length > 0) {
    throw new AppError(
      'CONFLICT',
      `This post already went out (or is going out) to ${describeLocked(locked)}, so it cannot go back to draft. Pick a time for the other accounts instead.`,
    );
  }

  // Named over every account after the edit, so two of one network read "Facebook (Page)".
  const statusOf = (integrationId: string) =>
    existing.find((row) => row.target.integrationId === integrationId)?.target.status ?? 'QUEUED';
  const editable: EditTarget[] = labelTargets([
    ...locked.map((t) => ({ ...t, name: null, username: null, isLocked: true })),
    ...chosen.map((a) => ({
      integrationId: a.integrationId,
      platformId: a.platformId,
      platformName: a.platformName,
      constraints: constraintsForAccount(constraintsOf(a.mediaConstraints), a.textLimit),
      status: statusOf(a.integrationId),
      name: a.name,
      username: a.username,
      isLocked: false,
    })),
  ])
    .filter((t) => !t.isLocked)
    .map((t) => ({
      integrationId: t.integrationId,
      platformId: t.platformId,
      platformName: t.label,
      constraints: t.constraints,
      status: t.status,
    }));
  const all = [...locked, ...editable];
  const shortBase = await shortBaseFor(
    db,
    org,
    fields.shortLinks !== undefined ? fields.shortLinks : post.shortLinks,
    shortLinkBase,
  );

  checkMediaKeys(Object.keys(fields.platformMedia ?? {}), all);
  checkContentKeys(fields.content, all);
  const content = pinLockedText(contentOf(post), fields.content, locked, all);
  // Media may still come: only the rules that hold whatever the files are apply here.
  const errors = [
    ...contentErrors(content, editable, () => [null]),
    ...textErrors(content, editable, trackingAfter(post, fields), shortBase),
  ];
  if (errors.length > 0) throwValidation(errors);
  return { post, existing, locked, chosen, editable, all, content, schedule, shortBase };
}

const storedFacts = (row: repo.MediaRow): MediaFacts => ({
  fileName: row.fileName,
  mimeType: row.mimeType,
  size: row.size,
  width: row.width,
  height: row.height,
  durationSec: row.durationSec,
});

/**
 * Edits a post (docs/product.md#post-details) from already-ingested new files, in one
 * transaction: its accounts, texts, files, title and time, with the same rules as creating. What
 * already went out to an account (or is going out, or needs a check) stays as it is there. Jobs
 * follow: removed targets' jobs are cancelled, the remaining targets are queued for the new time.
 * The caller removes the new files when this throws; files that left the post are removed after
 * the commit.
 */
export async function editPost(
  deps: PostsDeps,
  caller: Caller,
  postId: string,
  fields: EditPostFields,
  files: IngestedMedia[],
): Promise<Post> {
  const org = caller.organizationId;
  const tiktokCreator = await readCreatorsAhead(deps.tiktokCreator, org, fields.tiktok);
  const leftovers: string[] = [];
  const { post, removedKeys } = await deps.db.transaction(async (tx) => {
    const plan = await planEdit(tx, deps.now(), caller, postId, fields, true, deps.shortLinkBase);
    const stored = await repo.mediaOfPost(tx, org, postId);
    const layout = layoutMedia(fields, stored, files.length, plan.locked, plan.all);
    if (layout.files.length > MAX_FILES_PER_POST) {
      throw new AppError('VALIDATION_FAILED', TOO_MANY_FILES_MESSAGE);
    }
    const byId = new Map(stored.map((row) => [row.id, row]));
    const mediaFor = (target: TargetRule) =>
      layout.files
        .filter((file) => mediaGoesTo(file.owners, target))
        .map(({ ref }) =>
          ref.kind === 'stored' ? storedFacts(byId.get(ref.id)!) : factsOf(files[ref.index]!),
        );
    const errors = [
      ...contentErrors(plan.content, plan.editable, mediaFor),
      ...validatePostTargets(
        plan.editable.map((t) => ({
          ...t,
          text: sentText(plan.content, t, trackingAfter(plan.post, fields), plan.shortBase),
          media: mediaFor(t),
        })),
      ),
    ];
    if (errors.length > 0) throwValidation(errors);
    // Targets already out keep the settings they went out with; the others take the new ones.
    const tiktok = await settleTikTokSettings(
      tiktokCreator,
      org,
      plan.chosen.map((a) => {
        const target = plan.editable.find((t) => t.integrationId === a.integrationId)!;
        return {
          integrationId: a.integrationId,
          networkName: a.platformName,
          label: target.platformName,
          media: mediaFor(target),
        };
      }),
      fields.tiktok,
      plan.schedule.status === 'draft',
    );
    const mastodon = settleMastodonSettings(
      plan.chosen.map((a) => ({ integrationId: a.integrationId, networkName: a.platformName })),
      fields.mastodon,
    );
    const youtube = await settleYouTubeSettings(
      plan.chosen.map((a) => {
        const target = plan.editable.find((t) => t.integrationId === a.integrationId)!;
        return {
          integrationId: a.integrationId,
          networkName: a.platformName,
          label: target.platformName,
          media: mediaFor(target),
        };
      }),
      fields.youtube,
      plan.schedule.status === 'draft',
      {
        read: deps.youtubeDay,
        db: tx,
        goesOutAt: plan.schedule.scheduledAt ?? deps.now(),
        uploadsAheadFrom: deps.now(),
        exceptPostId: postId,
      },
    );

    const googleBusiness = settleGbpSettings(
      plan.chosen.map((a) => ({
        integrationId: a.integrationId,
        networkName: a.platformName,
        label: plan.editable.find((t) => t.integrationId === a.integrationId)!.platformName,
      })),
      fields.googleBusiness,
      plan.schedule.status === 'draft',
    );
    const pinterest = settlePinterestSettings(
      plan.chosen.map((a) => ({
        integrationId: a.integrationId,
        networkName: a.platformName,
        label: plan.editable.find((t) => t.integrationId === a.integrationId)!.platformName,
      })),
      fields.pinterest,
      plan.schedule.status === 'draft',
    );

    // Accounts already out keep their parts and first comment as they are (ADR 11).
    const followUps = settleFollowUps(
      plan.chosen.map((a) => {
        const target = plan.editable.find((t) => t.integrationId === a.integrationId)!;
        return {
          integrationId: a.integrationId,
          networkName: a.platformName,
          label: target.platformName,
          constraints: target.constraints,
        };
      }),
      fields.followUps,
      new Set(plan.locked.flatMap((t) => (t.integrationId ? [t.integrationId] : []))),
    );

    // Every waiting job goes first; the targets that stay are queued again below.
    await deps.lifecycle.unscheduled(tx, plan.post);
    const keptAccounts = new Set(plan.chosen.map((a) => a.integrationId));
    await repo.deleteTargets(
      tx,
      org,
      plan.existing
        .filter((row) => !isLockedStatus(row.target.status) && !keptUploaded(row.target))
        .filter((row) => !row.target.integrationId || !keptAccounts.has(row.target.integrationId))
        .map((row) => row.target.id),
    );
    const had = new Set(plan.existing.map((row) => row.target.integrationId));
    await repo.insertTargets(
      tx,
      plan.post,
      plan.chosen
        .filter((a) => !had.has(a.integrationId))
        .map((a) => ({
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
    );
    for (const row of plan.existing) {
      const id = row.target.integrationId;
      if (!id || isLockedStatus(row.target.status) || !keptAccounts.has(id)) continue;
      if (row.platformName === 'TikTok')
        await repo.updateTargetSettings(tx, org, row.target.id, tiktok.get(id) ?? null);
      if (row.platformName === 'Mastodon')
        await repo.updateTargetSettings(tx, org, row.target.id, mastodon.get(id) ?? null);
      if (row.platformName === 'YouTube')
        await repo.updateTargetSettings(tx, org, row.target.id, youtube.get(id) ?? null);
      if (row.platformName === 'Google Business Profile')
        await repo.updateTargetSettings(tx, org, row.target.id, googleBusiness.get(id) ?? null);
      if (row.platformName === 'Pinterest')
        await repo.updateTargetSettings(tx, org, row.target.id, pinterest.get(id) ?? null);
    }

    await storeFollowUps(tx, org, postId, followUps, (status) =>
      isLockedStatus(status as TargetStatus),
    );

    const keyOf = (ref: (typeof layout.files)[number]['ref']) =>
      ref.kind === 'stored' ? ref.id : String(ref.index);
    const altTexts = settleAltTexts(
      fields.altTexts,
      layout.files.map(({ ref, owners }, position) => ({
        key: keyOf(ref),
        number: position + 1,
        owners,
      })),
      plan.chosen.map((a) => ({
        integrationId: a.integrationId,
        platformId: a.platformId,
        networkName: a.platformName,
      })),
    );
    const removedKeys = await repo.deleteMedia(tx, org, layout.removedIds);
    const added: repo.NewPostMedia[] = [];
    for (const [position, { ref, owners }] of layout.files.entries()) {
      if (ref.kind === 'stored') {
        // Without altTexts, kept files keep the alt text they have.
        await repo.updateMediaPlace(tx, org, ref.id, {
          position,
          platformIds: owners,
          ...(fields.altTexts ? { altText: altTexts.get(ref.id) ?? null } : {}),
        });
        continue;
      }
      const file = files[ref.index]!;
      added.push({
        ...file,
        position,
        platformIds: owners,
        altText: altTexts.get(String(ref.index)) ?? null,
      });
    }
    const library = { uploadedBy: caller.userId, leftovers, addedBytes: 0 };
    await repo.insertMedia(tx, plan.post, added, library);
    if (library.addedBytes > 0) {
      const { plan: entitled } = await findEntitlement(tx, org, deps.now());
      if (entitled) await requireLibraryRoom(tx, org, entitled);
    }

    // docs/product.md#approvals: scheduling (again) by a member who may not approve submits the
    // post; a post already out to some account is not held back.
    const submits =
      plan.schedule.status === 'scheduled' &&
      plan.locked.length === 0 &&
      (await mustSubmit(tx, caller));
    const updated = await repo.updatePost(tx, org, postId, {
      title: fields.title?.trim() ? fields.title.trim() : null,
      ...splitContent(plan.content),
      ...(fields.linkTracking !== undefined ? { linkTracking: fields.linkTracking } : {}),
      ...(fields.shortLinks !== undefined ? { shortLinks: fields.shortLinks } : {}),
      ...plan.schedule,
      ...(submits ? { status: 'pending_approval' as const } : {}),
    });
    if (!updated) throw notFound();
    if (updated.status === 'scheduled') await deps.lifecycle.scheduled(tx, updated);
    const wasPending = plan.post.status === 'pending_approval';
    if (submits && !wasPending) await recordSubmission(tx, caller, updated);
    if (!submits && wasPending && updated.status === 'scheduled') {
      // An approver who gives a waiting post its time approves it.
      await recordApprovalEvent(tx, {
        organizationId: org,
        postId,
        userId: caller.userId,
        action: 'approved',
      });
    }
    // Scheduling may settle the post (partially published); answer with the row as it ends.
    const row = (await repo.findPost(tx, org, postId))!;
    await announcePostChange(tx, 'post.updated', row, deps.now());
    const [dto] = await toPostDtos({ ...deps, db: tx }, org, [row]);
    return { post: dto!, removedKeys };
  });
  // Files go after the rows, as when deleting a post: a failure leaves unreferenced files only.
  // So do new copies of files the media library already held.
  await removeUnusedFiles(deps, [...removedKeys, ...leftovers]);
  return post;
}
