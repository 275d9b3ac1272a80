import {
  checkText,
  contentForPlatform,
  contentRequiredMessage,
  MediaConstraintsSchema,
  validatePostTargets,
  type CreatePostFields,
  type MediaConstraints,
  type MediaFacts,
  type Post,
  type PostContent,
  type PostValidationError,
  type UpdatePostRequest,
} from '@herald/contract';
import type { Db } from '../../db/client.js';
import { AppError } from '../../lib/app-error.js';
import type { IngestedMedia, MediaStore } from '../../media/media-store.js';
import { requireCapacity, requireEntitlement } from '../billing/entitlements.js';
import { toPostDtos } from './post-dto.js';
import * as repo from './posts.repository.js';

/**
 * What the publishing engine needs to hear about, inside the same transaction as the post
 * write (no post without its jobs, no job without its post).
 */
export interface PostLifecycle {
  /** The post is due at `post.scheduledAt` (now, for "publish now"). */
  scheduled(tx: Db, post: repo.PostRow): Promise<void>;
  /** The post no longer goes out (back to draft, or deleted). */
  unscheduled(tx: Db, post: repo.PostRow): Promise<void>;
}

export interface PostsDeps {
  db: Db;
  media: MediaStore;
  lifecycle: PostLifecycle;
  now: () => Date;
}

export interface Caller {
  organizationId: string;
  userId: string;
}

const startOfUtcDay = (date: Date) =>
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

function constraintsOf(raw: unknown): MediaConstraints | null {
  const parsed = MediaConstraintsSchema.safeParse(raw);
  return parsed.success ? parsed.data : null;
}

function factsOf(file: IngestedMedia): MediaFacts {
  return {
    fileName: file.fileName,
    mimeType: file.mimeType,
    size: file.size,
    width: file.width,
    height: file.height,
    durationSec: file.durationSec,
  };
}

/** Turns rule failures into the 400 of docs/product.md#messages: media problems as platformValidationErrors. */
function throwValidation(errors: PostValidationError[]): never {
  const media = errors.filter((e) => e.field === 'media');
  if (media.length > 0) {
    const names = [...new Set(media.map((e) => e.platformName))];
    throw new AppError('VALIDATION_FAILED', `Media validation failed for ${names.join(', ')}.`, {
      platformValidationErrors: media.map(({ platformName, message }) => ({
        platformName,
        message,
      })),
    });
  }
  throw new AppError('VALIDATION_FAILED', errors.map((e) => e.message).join(' '));
}

/** Content as stored: the shared text, plus per-platform texts when customized. */
function splitContent(content: PostContent): {
  content: string;
  contentByPlatform: Record<string, string> | null;
} {
  if (typeof content === 'string') return { content, contentByPlatform: null };
  const { default: shared = '', ...perPlatform } = content;
  return { content: shared, contentByPlatform: perPlatform };
}

interface TargetRule {
  platformId: string;
  platformName: string;
  constraints: MediaConstraints | null;
}

/** Every content rule of docs/product.md#posts-validation for one version of a post's text. */
function contentErrors(
  content: PostContent,
  targets: TargetRule[],
  mediaFor: (platformId: string) => readonly unknown[],
): PostValidationError[] {
  const errors: PostValidationError[] = [];
  if (typeof content !== 'string') {
    const known = new Set(['default', ...targets.map((t) => t.platformId)]);
    const stray = Object.keys(content).filter((key) => !known.has(key));
    if (stray.length > 0) {
      throw new AppError(
        'VALIDATION_FAILED',
        `content has texts for platforms this post does not go to: ${stray.join(', ')}.`,
      );
    }
  }
  for (const target of targets) {
    const text = contentForPlatform(content, target.platformId);
    const at = { platformId: target.platformId, platformName: target.platformName };
    if (typeof content !== 'string' && text.trim() === '') {
      errors.push({ ...at, field: 'content', message: contentRequiredMessage(target.platformId) });
    } else if (text.trim() === '' && mediaFor(target.platformId).length === 0) {
      errors.push({
        ...at,
        field: 'content',
        message: `Write some text or add media for ${target.platformName}.`,
      });
    }
  }
  return errors;
}

function resolveSchedule(
  fields: Pick<CreatePostFields, 'action' | 'scheduledAt'>,
  now: Date,
): { status: repo.PostRow['status']; scheduledAt: Date | null } {
  const action = fields.action ?? (fields.scheduledAt ? 'schedule' : 'draft');
  if (action === 'draft') return { status: 'draft', scheduledAt: null };
  if (action === 'publish') return { status: 'scheduled', scheduledAt: now };
  if (!fields.scheduledAt) {
    throw new AppError('VALIDATION_FAILED', 'Pick a date and time to schedule the post for.');
  }
  return { status: 'scheduled', scheduledAt: futureTime(fields.scheduledAt, now) };
}

function futureTime(iso: string, now: Date): Date {
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) {
    throw new AppError('VALIDATION_FAILED', 'scheduledAt must be a date and time.');
  }
  if (at.getTime() <= now.getTime()) {
    throw new AppError(
      'VALIDATION_FAILED',
      'The scheduled time has already passed. Pick a time in the future.',
    );
  }
  return at;
}

/** What a create request names, checked before any file of it is read. */
export interface CreatePlan {
  platformIds: string[];
  byId: Map<string, Awaited<ReturnType<typeof repo.connectedPlatforms>>[number]>;
  targets: TargetRule[];
  schedule: { status: repo.PostRow['status']; scheduledAt: Date | null };
}

/**
 * Every check of a create request that does not need its files: the platforms, the texts and the
 * time (the subscription and the day's allowance are `checkPostAllowance`). The upload route runs
 * both on the text fields before it reads the first file part, so a request that will be refused
 * stores no byte.
 */
export async function planCreate(
  deps: Pick<PostsDeps, 'db' | 'now'>,
  caller: Caller,
  fields: CreatePostFields,
): Promise<CreatePlan> {
  const platformIds = [...new Set(fields.platformIds)];
  const connected = await repo.connectedPlatforms(deps.db, caller.organizationId, platformIds);
  const byId = new Map(connected.map((row) => [row.platformId, row]));
  const missing = platformIds.filter((id) => !byId.get(id)?.isActive);
  if (missing.length > 0) {
    throw new AppError(
      'VALIDATION_FAILED',
      `These platforms are not connected to this organization: ${missing.join(', ')}. Connect them in Settings first.`,
    );
  }
  for (const platformId of Object.keys(fields.platformMedia ?? {})) {
    if (!byId.has(platformId)) {
      throw new AppError(
        'VALIDATION_FAILED',
        `platformMedia names a platform this post does not go to: ${platformId}.`,
      );
    }
  }
  const targets: TargetRule[] = platformIds.map((platformId) => {
    const row = byId.get(platformId)!;
    return {
      platformId,
      platformName: row.platformName,
      constraints: constraintsOf(row.mediaConstraints),
    };
  });
  // Media may still come, so only the rules that hold whatever the files are apply here.
  const errors = contentErrors(fields.content, targets, () => [null]);
  for (const target of targets) {
    const text = contentForPlatform(fields.content, target.platformId);
    const message = checkText(text, target.constraints, target.platformName);
    if (message) {
      const at = { platformId: target.platformId, platformName: target.platformName };
      errors.push({ ...at, field: 'content', message });
    }
  }
  if (errors.length > 0) throwValidation(errors);
  return { platformIds, byId, targets, schedule: resolveSchedule(fields, deps.now()) };
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
  const { platformIds, byId, targets, schedule } =
    checked ?? (await planCreate(deps, caller, fields));

  // Files listed in platformMedia belong to those platforms; the others are shared.
  const owners = new Map<number, string[]>();
  for (const [platformId, indexes] of Object.entries(fields.platformMedia ?? {})) {
    for (const index of indexes) {
      if (index >= files.length) {
        throw new AppError(
          'VALIDATION_FAILED',
          `platformMedia refers to file ${index + 1}, but only ${files.length} file${files.length === 1 ? ' was' : 's were'} uploaded.`,
        );
      }
      owners.set(index, [...(owners.get(index) ?? []), platformId]);
    }
  }
  const mediaFor = (platformId: string) =>
    files
      .filter((_, index) => !owners.has(index) || owners.get(index)!.includes(platformId))
      .map(factsOf);

  const errors = [
    ...contentErrors(fields.content, targets, mediaFor),
    ...validatePostTargets(
      targets.map((t) => ({
        ...t,
        text: contentForPlatform(fields.content, t.platformId),
        media: mediaFor(t.platformId),
      })),
    ),
  ];
  if (errors.length > 0) throwValidation(errors);

  const post = await deps.db.transaction(async (tx) => {
    await repo.lockOrganization(tx, caller.organizationId);
    const plan = await requireEntitlement(tx, caller.organizationId, 'post');
    const today = await repo.countPostsCreatedSince(
      tx,
      caller.organizationId,
      startOfUtcDay(deps.now()),
    );
    requireCapacity(plan, 'postsPerDay', today);
    const row = await repo.insertPost(
      tx,
      {
        organizationId: caller.organizationId,
        createdByUserId: caller.userId,
        title: fields.title?.trim() ? fields.title.trim() : null,
        ...splitContent(fields.content),
        ...schedule,
      },
      platformIds.map((platformId) => ({
        platformId,
        integrationId: byId.get(platformId)!.integrationId,
      })),
      files.map((file, position) => ({
        position,
        storageKey: file.storageKey,
        thumbnailKey: file.thumbnailKey,
        fileName: file.fileName,
        mimeType: file.mimeType,
        kind: file.kind,
        size: file.size,
        width: file.width,
        height: file.height,
        durationSec: file.durationSec,
        sha256: file.sha256,
        platformIds: owners.get(position) ?? null,
      })),
    );
    if (row.status === 'scheduled') await deps.lifecycle.scheduled(tx, row);
    // Answered from the transaction: a read after the commit could fail and make a stored post
    // look refused (a retry would then create it twice).
    const [created] = await toPostDtos({ ...deps, db: tx }, caller.organizationId, [row]);
    return created!;
  });
  return post;
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
  const posts = await toPostDtos(deps, organizationId, rows);
  return { posts, meta: { page, pageSize, totalCount } };
}

export async function getPost(deps: PostsDeps, organizationId: string, postId: string) {
  const row = await repo.findPost(deps.db, organizationId, postId);
  if (!row) throw new AppError('NOT_FOUND', 'This post does not exist in this organization.');
  const [post] = await toPostDtos(deps, organizationId, [row]);
  return post!;
}

function refuseWhileBusy(post: repo.PostRow, doing: 'edited' | 'deleted') {
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
) {
  await deps.db.transaction(async (tx) => {
    const post = await repo.lockPost(tx, organizationId, postId);
    if (!post) throw new AppError('NOT_FOUND', 'This post does not exist in this organization.');
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
      const mediaFor = (platformId: string) =>
        media.filter((m) => !m.platformIds || m.platformIds.includes(platformId));
      const targets = rules.map((r) => ({
        platformId: r.platformId,
        platformName: r.platformName,
        constraints: constraintsOf(r.mediaConstraints),
      }));
      const errors = contentErrors(content, targets, mediaFor);
      for (const target of targets) {
        const message = checkText(
          contentForPlatform(content, target.platformId),
          target.constraints,
          target.platformName,
        );
        if (message) {
          const at = { platformId: target.platformId, platformName: target.platformName };
          errors.push({ ...at, field: 'content', message });
        }
      }
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
    const updated = await repo.updatePost(tx, organizationId, postId, changes);
    if (!updated) throw new AppError('NOT_FOUND', 'This post does not exist in this organization.');
    if (body.scheduledAt === null) await deps.lifecycle.unscheduled(tx, updated);
    else if (body.scheduledAt !== undefined) await deps.lifecycle.scheduled(tx, updated);
  });
  return getPost(deps, organizationId, postId);
}

export async function deletePost(deps: PostsDeps, organizationId: string, postId: string) {
  const keys = await deps.db.transaction(async (tx) => {
    const post = await repo.lockPost(tx, organizationId, postId);
    if (!post) throw new AppError('NOT_FOUND', 'This post does not exist in this organization.');
    refuseWhileBusy(post, 'deleted');
    await deps.lifecycle.unscheduled(tx, post);
    return repo.deletePost(tx, organizationId, postId);
  });
  // Files go after the rows: a failure here leaves unreferenced files, never a post without them.
  await deps.media.remove(keys);
}
