import { contentForAccount, mediaGoesTo, type Post, type TargetStatus } from '@herald/contract';
import { toZonedLocal } from '@/lib/time-zone';
import type { ComposePlatform } from './compose-platforms';
import type { ComposeState } from './compose-state';
import { storedMediaItem, type MediaItem } from './media-files';

/** Target states the server keeps as they are on an edit (out, going out, or needing a check). */
const LOCKED: readonly TargetStatus[] = [
  'PREPARING',
  'READY',
  'PUBLISHING',
  'PUBLISHED',
  'UNCERTAIN',
];

/** The post being edited, and the accounts of it that can no longer change. */
export interface EditContext {
  post: Post;
  /** Account (integration) ids the post already went out to, is going out to, or needs a check on. */
  lockedIds: string[];
}

/** Accounts of the post whose publication is out (or going out, or waiting for a check). */
export function lockedAccountIds(post: Post): string[] {
  return post.platformPosts.flatMap((target) =>
    target.integrationId && LOCKED.includes(target.status) ? [target.integrationId] : [],
  );
}

/** What a locked account's tile says: "Already published", "Publishing now" or "Needs a check". */
export function lockedLabels(post: Post): Record<string, string> {
  return Object.fromEntries(
    post.platformPosts.flatMap((target) => {
      if (!target.integrationId || !LOCKED.includes(target.status)) return [];
      const label =
        target.status === 'PUBLISHED'
          ? 'Already published'
          : target.status === 'UNCERTAIN'
            ? 'Needs a check'
            : 'Publishing now';
      return [[target.integrationId, label]];
    }),
  );
}

/**
 * The composer's form filled from a stored post: its accounts ticked, its texts (shared, or per
 * account where it has them), its files (shared, or in each account's list) and its time. Files
 * and texts only a locked account has stay out of the form: the server keeps them for it.
 */
export function stateFromPost(
  post: Post,
  platforms: readonly ComposePlatform[],
  lockedIds: readonly string[],
  zone: string,
): ComposeState {
  const onPost = new Set(post.accounts.flatMap((account) => (account.id ? [account.id] : [])));
  const editable = platforms.filter((p) => onPost.has(p.id) && !lockedIds.includes(p.id));
  const target = (p: ComposePlatform) => ({ integrationId: p.id, platformId: p.platformId });

  const content = post.content;
  const shared = typeof content === 'string' ? content : (content.default ?? '');
  const isCustom =
    typeof content !== 'string' &&
    editable.some((p) => content[p.id] !== undefined || content[p.platformId] !== undefined);

  const sharedMedia: MediaItem[] = [];
  const platformMedia: Record<string, MediaItem[]> = {};
  for (const media of post.media) {
    const item = storedMediaItem(media);
    if (media.platformIds === null) {
      sharedMedia.push(item);
      continue;
    }
    for (const p of editable) {
      if (mediaGoesTo(media.platformIds, target(p))) (platformMedia[p.id] ??= []).push(item);
    }
  }

  const at = post.status !== 'draft' && post.scheduledAt ? Date.parse(post.scheduledAt) : NaN;
  return {
    platformIds: [...editable.map((p) => p.id), ...lockedIds.filter((id) => onPost.has(id))],
    mode: isCustom ? 'custom' : 'shared',
    sharedText: shared,
    customTexts: isCustom
      ? Object.fromEntries(editable.map((p) => [p.id, contentForAccount(content, target(p))]))
      : {},
    sharedMedia,
    platformMedia,
    title: post.title ?? '',
    action: Number.isNaN(at) ? 'draft' : 'schedule',
    scheduleAt: Number.isNaN(at) ? '' : toZonedLocal(at, zone),
    mastodon: Object.fromEntries(
      post.platformPosts.flatMap((p) =>
        p.mastodon && p.integrationId ? [[p.integrationId, p.mastodon]] : [],
      ),
    ),
    googleBusiness: Object.fromEntries(
      post.platformPosts.flatMap((p) =>
        p.googleBusiness && p.integrationId ? [[p.integrationId, p.googleBusiness]] : [],
      ),
    ),
  };
}
