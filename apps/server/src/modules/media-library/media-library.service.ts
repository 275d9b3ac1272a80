import {
  centredCropArea,
  CROP_RATIOS,
  DEFAULT_MEDIA_STORAGE_MB,
  formatFileSize,
  type CropMediaRequest,
  type ListMediaQuery,
  type MediaLibraryItem,
  type MediaStorage,
  type UpdateMediaRequest,
} from '@herald/contract';
import type { Db } from '../../db/client.js';
import { AppError } from '../../lib/app-error.js';
import type { MediaStore } from '../../media/media-store.js';
import { findEntitlement } from '../billing/billing.service.js';
import { lockOrganization } from '../organizations/organization-lock.js';
import * as repo from './media-library.repository.js';

export interface MediaLibraryDeps {
  db: Db;
  media: MediaStore;
  now: () => Date;
}

const NOT_FOUND_MESSAGE = 'This file is not in the media library of this organization.';

function itemDto(deps: MediaLibraryDeps, row: repo.ListedItem): MediaLibraryItem {
  const { item } = row;
  return {
    id: item.id,
    kind: item.kind,
    mimeType: item.mimeType,
    fileName: item.fileName,
    size: item.size,
    width: item.width,
    height: item.height,
    durationSec: item.durationSec,
    altText: item.altText,
    tags: item.tags,
    uploadedBy: item.uploadedByUserId
      ? {
          id: item.uploadedByUserId,
          name: row.uploaderName ?? row.uploaderEmail ?? 'A former member',
        }
      : null,
    usedInPosts: Number(row.usedInPosts),
    derivedFromId: item.derivedFromId,
    cropRatio: item.cropRatio,
    url: deps.media.signedUrl(item.storageKey),
    thumbnailUrl: item.thumbnailKey ? deps.media.signedUrl(item.thumbnailKey) : null,
    createdAt: item.createdAt.toISOString(),
  };
}

/** What the library holds against what the organization's plan lets it hold. */
export async function storageOf(db: Db, organizationId: string, now: Date): Promise<MediaStorage> {
  const [usedBytes, { plan }] = await Promise.all([
    repo.libraryBytes(db, organizationId),
    findEntitlement(db, organizationId, now),
  ]);
  const mb = plan?.features.mediaStorageMb ?? DEFAULT_MEDIA_STORAGE_MB;
  return { usedBytes, limitBytes: mb * 1024 * 1024 };
}

export async function listLibrary(
  deps: MediaLibraryDeps,
  organizationId: string,
  query: ListMediaQuery,
) {
  const page = query.page ?? 1;
  const pageSize = query.pageSize ?? 24;
  const [{ rows, totalCount }, storage] = await Promise.all([
    repo.listItems(
      deps.db,
      organizationId,
      {
        q: query.q || undefined,
        type: query.type,
        unused: query.unused,
        tag: query.tag || undefined,
      },
      { limit: pageSize, offset: (page - 1) * pageSize },
    ),
    storageOf(deps.db, organizationId, deps.now()),
  ]);
  return {
    items: rows.map((row) => itemDto(deps, row)),
    storage,
    meta: { page, pageSize, totalCount },
  };
}

async function listedItem(deps: MediaLibraryDeps, organizationId: string, id: string) {
  const row = await repo.findListedItem(deps.db, organizationId, id);
  if (!row) throw new AppError('NOT_FOUND', NOT_FOUND_MESSAGE);
  return itemDto(deps, row);
}

export const getItem = listedItem;

/** Sets the alt text (offered again whenever the item is reused) and adds or removes tags. */
export async function updateItem(
  deps: MediaLibraryDeps,
  organizationId: string,
  id: string,
  body: UpdateMediaRequest,
) {
  await deps.db.transaction(async (tx) => {
    const item = await repo.lockItem(tx, organizationId, id);
    if (!item) throw new AppError('NOT_FOUND', NOT_FOUND_MESSAGE);
    const removed = new Set((body.removeTags ?? []).map((t) => t.toLowerCase()));
    const tags = item.tags.filter((t) => !removed.has(t.toLowerCase()));
    for (const tag of body.addTags ?? []) {
      if (!tags.some((t) => t.toLowerCase() === tag.toLowerCase())) tags.push(tag);
    }
    if (tags.length > 20) {
      throw new AppError('VALIDATION_FAILED', 'A file can have at most 20 tags.');
    }
    await repo.updateItem(tx, organizationId, id, {
      tags,
      ...(body.altText !== undefined ? { altText: body.altText || null } : {}),
    });
  });
  return listedItem(deps, organizationId, id);
}

/**
 * Deletes an item no post uses, and its stored files. A used one is refused: the posts that use
 * it would lose their file.
 */
export async function deleteItem(deps: MediaLibraryDeps, organizationId: string, id: string) {
  const keys = await deps.db.transaction(async (tx) => {
    const item = await repo.lockItem(tx, organizationId, id);
    if (!item) throw new AppError('NOT_FOUND', NOT_FOUND_MESSAGE);
    const posts = await repo.postsUsing(tx, organizationId, id);
    if (posts > 0) {
      throw new AppError(
        'CONFLICT',
        `${item.fileName} is used in ${posts} post${posts === 1 ? '' : 's'}. Remove it from ${posts === 1 ? 'that post' : 'those posts'} (or delete ${posts === 1 ? 'it' : 'them'}) before deleting it from the library.`,
      );
    }
    await repo.forgetOriginal(tx, organizationId, id);
    await repo.deleteItem(tx, organizationId, id);
    return item.thumbnailKey ? [item.storageKey, item.thumbnailKey] : [item.storageKey];
  });
  // A post stored before the library may still hold the same keys.
  const stillUsed = await repo.keysStillUsed(deps.db, keys);
  await deps.media.remove(keys.filter((key) => !stillUsed.has(key)));
}

function baseName(fileName: string) {
  const dot = fileName.lastIndexOf('.');
  return dot > 0 ? fileName.slice(0, dot) : fileName;
}

const EXTENSIONS: Record<string, string> = {
  'image/png': 'png',
  'image/webp': 'webp',
};

/**
 * Crops an image of the library to one of the composer's ratios (docs/media-library.md): a new
 * library item linked to its original, which is kept. The same crop made twice is one item.
 */
export async function cropItem(
  deps: MediaLibraryDeps,
  caller: { organizationId: string; userId: string },
  id: string,
  body: CropMediaRequest,
): Promise<{ item: MediaLibraryItem; created: boolean }> {
  const { organizationId } = caller;
  const row = await repo.findListedItem(deps.db, organizationId, id);
  if (!row) throw new AppError('NOT_FOUND', NOT_FOUND_MESSAGE);
  const original = row.item;
  if (original.kind !== 'image' || !original.width || !original.height) {
    throw new AppError(
      'VALIDATION_FAILED',
      `${original.fileName} is a video; Herald crops images only. Crop the video before uploading it.`,
    );
  }
  const ratio = CROP_RATIOS[body.ratio];
  const area = body.area ?? centredCropArea(original.width, original.height, ratio);
  if (area.left + area.width > original.width || area.top + area.height > original.height) {
    throw new AppError(
      'VALIDATION_FAILED',
      `The crop area goes past the edge of ${original.fileName} (${original.width}×${original.height} pixels).`,
    );
  }
  // A hand-drawn area may be a pixel off its ratio after rounding, never more.
  if (Math.abs(area.width - area.height * ratio) > Math.max(2, ratio)) {
    throw new AppError(
      'VALIDATION_FAILED',
      `A ${area.width}×${area.height} area is not ${body.ratio}. Draw the area again with the ${body.ratio} frame.`,
    );
  }
  const extension = EXTENSIONS[original.mimeType] ?? 'jpg';
  const cropped = await deps.media.cropImage(
    original.storageKey,
    {
      organizationId,
      fileName: `${baseName(original.fileName)}-${body.ratio.replace(':', 'x')}.${extension}`,
    },
    area,
    body.maxSide,
  );
  const keys = cropped.thumbnailKey
    ? [cropped.storageKey, cropped.thumbnailKey]
    : [cropped.storageKey];
  try {
    const { item, created } = await deps.db.transaction(async (tx) => {
      await lockOrganization(tx, organizationId);
      const added = await repo.insertItem(tx, {
        organizationId,
        storageKey: cropped.storageKey,
        thumbnailKey: cropped.thumbnailKey,
        fileName: cropped.fileName,
        mimeType: cropped.mimeType,
        kind: cropped.kind,
        size: cropped.size,
        width: cropped.width,
        height: cropped.height,
        durationSec: null,
        sha256: cropped.sha256,
        altText: original.altText,
        tags: original.tags,
        uploadedByUserId: caller.userId,
        derivedFromId: original.id,
        cropRatio: body.ratio,
      });
      if (added.created) await requireRoom(tx, organizationId, deps.now());
      return added;
    });
    // The same crop made before: its item is the answer, this copy is not needed.
    if (!created) await deps.media.remove(keys);
    return { item: await listedItem(deps, organizationId, item.id), created };
  } catch (error) {
    await deps.media.remove(keys);
    throw error;
  }
}

async function requireRoom(db: Db, organizationId: string, now: Date) {
  const { usedBytes, limitBytes } = await storageOf(db, organizationId, now);
  if (usedBytes > limitBytes) {
    throw new AppError(
      'FORBIDDEN',
      `Your plan stores up to ${formatFileSize(limitBytes)} of media, and this crop would take the library to ${formatFileSize(usedBytes)}. Delete unused files from the media library or upgrade your plan.`,
    );
  }
}
