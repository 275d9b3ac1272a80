import {
  DEFAULT_MEDIA_STORAGE_MB,
  formatFileSize,
  MAX_FILES_PER_POST,
  TOO_MANY_FILES_MESSAGE,
  type PlanFeatures,
} from '@herald/contract';
import type { Db } from '../../db/client.js';
import { AppError } from '../../lib/app-error.js';
import type { IngestedMedia } from '../../media/media-store.js';
import * as repo from './posts.repository.js';

/** Files taken from the media library, by their index among a post's new files. */
export type LibraryFiles = Map<number, IngestedMedia>;

/**
 * The library items `libraryMedia` names (docs/media-library.md), as files ready to attach: their
 * stored copies are used as they are, nothing is uploaded again. Refused when one is not an item
 * of this organization.
 */
export async function libraryFiles(
  db: Db,
  organizationId: string,
  libraryMedia: Record<string, string> | undefined,
): Promise<LibraryFiles> {
  const entries = Object.entries(libraryMedia ?? {});
  if (entries.length === 0) return new Map();
  if (entries.length > MAX_FILES_PER_POST)
    throw new AppError('VALIDATION_FAILED', TOO_MANY_FILES_MESSAGE);
  const rows = await repo.libraryItemsByIds(db, organizationId, [
    ...new Set(entries.map(([, id]) => id)),
  ]);
  const byId = new Map(rows.map((row) => [row.id, row]));
  const files: LibraryFiles = new Map();
  for (const [index, id] of entries) {
    const item = byId.get(id);
    if (!item) throw new AppError('VALIDATION_FAILED', repo.LIBRARY_ITEM_GONE_MESSAGE);
    files.set(Number(index), {
      storageKey: item.storageKey,
      thumbnailKey: item.thumbnailKey,
      fileName: item.fileName,
      mimeType: item.mimeType,
      kind: item.kind,
      size: item.size,
      width: item.width,
      height: item.height,
      durationSec: item.durationSec,
      sha256: item.sha256,
      libraryItemId: item.id,
    });
  }
  return files;
}

/**
 * The post's new files in order: each library file at its index, the uploaded ones filling the
 * other places in the order they came.
 */
export function withLibraryFiles(uploads: IngestedMedia[], library: LibraryFiles): IngestedMedia[] {
  if (library.size === 0) return uploads;
  const total = uploads.length + library.size;
  if (total > MAX_FILES_PER_POST) throw new AppError('VALIDATION_FAILED', TOO_MANY_FILES_MESSAGE);
  for (const index of library.keys()) {
    if (index >= total) {
      throw new AppError(
        'VALIDATION_FAILED',
        `libraryMedia places a file at position ${index + 1}, but the post has ${total} new file${total === 1 ? '' : 's'}.`,
      );
    }
  }
  const files: IngestedMedia[] = [];
  let next = 0;
  for (let index = 0; index < total; index += 1) {
    files.push(library.get(index) ?? uploads[next++]!);
  }
  return files;
}

/** Bytes the plan lets each organization's media library hold. */
export function storageLimitBytes(features: Pick<PlanFeatures, 'mediaStorageMb'>): number {
  return (features.mediaStorageMb ?? DEFAULT_MEDIA_STORAGE_MB) * 1024 * 1024;
}

/** Refuses a change that leaves the library holding more than the plan allows. */
export async function requireLibraryRoom(
  db: Db,
  organizationId: string,
  plan: { name: string; features: Pick<PlanFeatures, 'mediaStorageMb'> },
) {
  const limit = storageLimitBytes(plan.features);
  const used = await repo.libraryBytes(db, organizationId);
  if (used > limit) {
    // A plan limit, refused as the others are (entitlements.ts).
    throw new AppError(
      'FORBIDDEN',
      `Your ${plan.name} plan stores up to ${formatFileSize(limit)} of media, and this upload would take the library to ${formatFileSize(used)}. Delete unused files from the media library or upgrade your plan.`,
    );
  }
}
