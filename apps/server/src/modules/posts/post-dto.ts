import {
  TikTokPostSettingsSchema,
  type Post,
  type PostContent,
  type TikTokPostSettings,
} from '@herald/contract';
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

function tiktokSettingsOf(stored: Record<string, unknown> | null): TikTokPostSettings | null {
  if (!stored) return null;
  const parsed = TikTokPostSettingsSchema.safeParse(stored);
  return parsed.success ? parsed.data : null;
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
      platforms: [...new Map(own.map((t) => [t.target.platformId, t.platformName]))].map(
        ([id, name]) => ({ id, name }),
      ),
      accounts: own.map(({ target, platformName, account }) => ({
        id: target.integrationId,
        platformId: target.platformId,
        platformName,
        name: account?.name ?? target.accountName,
        username: account?.username ?? target.accountUsername,
        pictureUrl: account?.pictureUrl ?? null,
        connected: account?.status === 'CONNECTED',
      })),
      platformPosts: own.map(({ target, platformName, account }) => ({
        id: target.id,
        platformId: target.platformId,
        platformName,
        status: target.status,
        externalId: target.externalId,
        permalink: target.permalink,
        error: target.error,
        publishedAt: iso(target.publishedAt),
        dueAt: target.status === 'QUEUED' ? iso(target.dueAt) : null,
        integrationId: target.integrationId,
        accountName: account?.name ?? target.accountName,
        accountUsername: account?.username ?? target.accountUsername,
        accountPictureUrl: account?.pictureUrl ?? null,
        tiktok: platformName === 'TikTok' ? tiktokSettingsOf(target.settings) : null,
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
