import type { Post, PostContent } from '@herald/contract';
import type { Db } from '../../db/client.js';
import type { MediaStore } from '../../media/media-store.js';
import * as repo from './posts.repository.js';

const iso = (date: Date | null | undefined) => (date ? date.toISOString() : null);

/** The stored text back in the spec's shape: a string, or a map with a `default` entry. */
export function contentOf(row: Pick<repo.PostRow, 'content' | 'contentByPlatform'>): PostContent {
  if (!row.contentByPlatform || Object.keys(row.contentByPlatform).length === 0) {
    return row.content;
  }
  return { ...row.contentByPlatform, default: row.content };
}

/** Posts as the API answers them, with their targets, signed media URLs and creator. */
export async function toPostDtos(
  deps: { db: Db; media: Pick<MediaStore, 'signedUrl'> },
  organizationId: string,
  rows: repo.PostRow[],
): Promise<Post[]> {
  const { targets, media, creators } = await repo.loadPostRelations(
    deps.db,
    organizationId,
    rows.map((row) => row.id),
  );
  return rows.map((row) => {
    const own = targets.filter((t) => t.target.postId === row.id);
    const files = media
      .filter((m) => m.postId === row.id)
      .map((m) => ({
        id: m.id,
        mediaUrl: deps.media.signedUrl(m.storageKey),
        thumbnailUrl: m.thumbnailKey ? deps.media.signedUrl(m.thumbnailKey) : null,
        mimeType: m.mimeType,
        fileName: m.fileName,
        kind: m.kind,
        size: m.size,
        width: m.width,
        height: m.height,
        durationSec: m.durationSec,
        platformIds: m.platformIds,
      }));
    return {
      id: row.id,
      organizationId: row.organizationId,
      title: row.title,
      status: row.status,
      content: contentOf(row),
      platforms: own.map((t) => ({ id: t.target.platformId, name: t.platformName })),
      platformPosts: own.map(({ target, platformName }) => ({
        id: target.id,
        platformId: target.platformId,
        platformName,
        status: target.status,
        externalId: target.externalId,
        permalink: target.permalink,
        error: target.error,
        publishedAt: iso(target.publishedAt),
      })),
      media: files,
      scheduledAt: iso(row.scheduledAt),
      publishedAt: iso(row.publishedAt),
      createdAt: row.createdAt.toISOString(),
      updatedAt: row.updatedAt.toISOString(),
      creator: creators.get(row.id) ?? null,
    };
  });
}
