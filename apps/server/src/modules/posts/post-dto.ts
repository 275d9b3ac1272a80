import { reachesAccount } from '../team/account-access.js';
import {
  GbpPostSettingsSchema,
  type GbpPostSettings,
  MastodonPostSettingsSchema,
  PinterestPostSettingsSchema,
  type PinterestPostSettings,
  TikTokPostSettingsSchema,
  type MastodonPostSettings,
  YouTubePostSettingsSchema,
  type YouTubePostSettings,
  webUrlOrNull,
  type Post,
  type PostContent,
  type TikTokPostSettings,
} from '@herald/contract';
import type { Db } from '../../db/client.js';
import type { MediaStore } from '../../media/media-store.js';
import * as repo from './posts.repository.js';
import { followUpDto, followUpsByTarget, type FollowUpRow } from '../publishing/follow-ups.js';

const iso = (date: Date | null | undefined) => (date ? date.toISOString() : null);

/**
 * The stored text back in the contract's shape (`PostContent`): a string, or a map with a
 * `default` entry.
 */
export function contentOf(row: Pick<repo.PostRow, 'content' | 'contentByPlatform'>): PostContent {
  if (!row.contentByPlatform || Object.keys(row.contentByPlatform).length === 0) {
    return row.content;
  }
  return { ...row.contentByPlatform, default: row.content };
}

function youtubeSettingsOf(stored: Record<string, unknown> | null): YouTubePostSettings | null {
  if (!stored) return null;
  const parsed = YouTubePostSettingsSchema.safeParse(stored);
  return parsed.success ? parsed.data : null;
}

function gbpSettingsOf(stored: Record<string, unknown> | null): GbpPostSettings | null {
  if (!stored) return null;
  const parsed = GbpPostSettingsSchema.safeParse(stored);
  return parsed.success ? parsed.data : null;
}

function pinterestSettingsOf(stored: Record<string, unknown> | null): PinterestPostSettings | null {
  if (!stored) return null;
  const parsed = PinterestPostSettingsSchema.safeParse(stored);
  return parsed.success ? parsed.data : null;
}

function tiktokSettingsOf(stored: Record<string, unknown> | null): TikTokPostSettings | null {
  if (!stored) return null;
  const parsed = TikTokPostSettingsSchema.safeParse(stored);
  return parsed.success ? parsed.data : null;
}

function mastodonSettingsOf(stored: Record<string, unknown> | null): MastodonPostSettings | null {
  if (!stored) return null;
  const parsed = MastodonPostSettingsSchema.safeParse(stored);
  return parsed.success ? parsed.data : null;
}

/** Posts as the API answers them, with their targets, signed media URLs and creator. */
export async function toPostDtos(
  deps: { db: Db; media: Pick<MediaStore, 'signedUrl'> },
  organizationId: string,
  rows: repo.PostRow[],
): Promise<Post[]> {
  const relations = await repo.loadPostRelations(
    deps.db,
    organizationId,
    rows.map((row) => row.id),
  );
  const followUps = await followUpsByTarget(
    deps.db,
    organizationId,
    [...relations.values()].flatMap((r) => r.targets.map((t) => t.id)),
  );
  return rows.map((row) =>
    toPostDto(
      deps,
      row,
      relations.get(row.id) ?? { creator: null, targets: [], media: [] },
      followUps,
    ),
  );
}

/** A post as a member limited to some accounts sees it: the targets of those accounts only. */
export function withReachableTargets(post: Post, member: { accountIds: string[] | null }): Post {
  if (member.accountIds === null) return post;
  const platformPosts = post.platformPosts.filter((t) => reachesAccount(member, t.integrationId));
  const networks = new Set(platformPosts.map((t) => t.platformId));
  return {
    ...post,
    accounts: post.accounts.filter((a) => reachesAccount(member, a.id)),
    platformPosts,
    platforms: post.platforms.filter((p) => networks.has(p.id)),
  };
}

/** A listed post (its relations read with it, repo.listPosts) as the API answers it. */
export const listedPostDto = (
  deps: { media: Pick<MediaStore, 'signedUrl'> },
  { post, ...relations }: repo.ListedPost,
): Post => toPostDto(deps, post, relations);

/** JSON's timestamps (microseconds, an offset) as the API writes dates: milliseconds, UTC. */
const isoOf = (value: string | null) => (value ? new Date(value).toISOString() : null);

function toPostDto(
  deps: { media: Pick<MediaStore, 'signedUrl'> },
  row: repo.PostRow,
  { creator, targets, media }: repo.PostRelations,
  followUps?: Map<string, FollowUpRow[]>,
): Post {
  return {
    id: row.id,
    organizationId: row.organizationId,
    title: row.title,
    status: row.status,
    content: contentOf(row),
    platforms: [...new Map(targets.map((t) => [t.platformId, t.platformName]))].map(
      ([id, name]) => ({ id, name }),
    ),
    accounts: targets.map((t) => ({
      id: t.integrationId,
      platformId: t.platformId,
      platformName: t.platformName,
      name: t.liveName ?? t.accountName,
      username: t.liveUsername ?? t.accountUsername,
      pictureUrl: webUrlOrNull(t.pictureUrl),
      connected: t.accountStatus === 'CONNECTED',
    })),
    platformPosts: targets.map((t) => ({
      id: t.id,
      platformId: t.platformId,
      platformName: t.platformName,
      status: t.status,
      externalId: t.externalId,
      permalink: webUrlOrNull(t.permalink),
      error: t.error,
      publishedAt: isoOf(t.publishedAt),
      dueAt: t.status === 'QUEUED' || t.status === 'UPLOADED' ? isoOf(t.dueAt) : null,
      integrationId: t.integrationId,
      accountName: t.liveName ?? t.accountName,
      accountUsername: t.liveUsername ?? t.accountUsername,
      accountPictureUrl: webUrlOrNull(t.pictureUrl),
      tiktok: t.platformName === 'TikTok' ? tiktokSettingsOf(t.settings) : null,
      mastodon: t.platformName === 'Mastodon' ? mastodonSettingsOf(t.settings) : null,
      youtube: t.platformName === 'YouTube' ? youtubeSettingsOf(t.settings) : null,
      googleBusiness:
        t.platformName === 'Google Business Profile' ? gbpSettingsOf(t.settings) : null,
      pinterest: t.platformName === 'Pinterest' ? pinterestSettingsOf(t.settings) : null,
      ...(followUps ? { followUps: (followUps.get(t.id) ?? []).map(followUpDto) } : {}),
    })),
    media: media.map((m) => ({
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
      altText: m.altText ?? null,
    })),
    scheduledAt: iso(row.scheduledAt),
    publishedAt: iso(row.publishedAt),
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    creator,
    linkTracking: row.linkTracking ?? null,
    shortLinks: row.shortLinks ?? null,
    source: row.source ?? null,
  };
}
