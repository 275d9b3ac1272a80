import type { PlatformPost, Post } from '@herald/contract';
import { webNetworkOf } from '@/networks';
import { isPublished } from '../post-status';

export const INSTAGRAM_EMBED_FAILED = 'Failed to load Instagram post details.';
export const FACEBOOK_EMBED_FAILED = 'Failed to load Facebook post permalink.';
/** docs/product.md#constants: Instagram embed version 14. */
export const INSTAGRAM_EMBED_VERSION = 14;

/** How the published post is previewed on its page. */
export type EmbedChoice =
  /** The shortcode is read from the server first (`…/media/{platformId}`). */
  | { kind: 'instagram'; target: PlatformPost }
  /** The permalink is read from the server first (`…/media/{platformId}/facebook`). */
  | { kind: 'facebook'; target: PlatformPost }
  | { kind: 'x'; target: PlatformPost; src: string }
  | { kind: 'tiktok'; target: PlatformPost; src: string }
  /** Networks without an embed: a link to the post there. */
  | { kind: 'link'; target: PlatformPost; permalink: string };

/**
 * docs/product.md#embedded-preview, #publish-and-reply-rules: a preview shows only when the post has exactly one platform and one platform post,
 * the post is published, and that platform post has its id on the network.
 */
export function chooseEmbed(post: Post): EmbedChoice | null {
  if (post.platforms.length !== 1 || post.platformPosts.length !== 1) return null;
  if (!isPublished(post.status)) return null;
  const target = post.platformPosts[0];
  if (!target?.externalId) return null;
  const name = target.platformName || post.platforms[0]?.name || '';
  // Each network's way of showing a post is its WEB_NETWORKS entry's `embed`.
  switch (webNetworkOf(name)?.embed ?? 'link') {
    case 'instagram':
      return { kind: 'instagram', target };
    case 'facebook':
      return { kind: 'facebook', target };
    case 'x':
      return { kind: 'x', target, src: xEmbedUrl(target.externalId) };
    case 'tiktok':
      return { kind: 'tiktok', target, src: tiktokEmbedUrl(target.externalId) };
    case 'link':
      return target.permalink ? { kind: 'link', target, permalink: target.permalink } : null;
  }
}

/**
 * docs/product.md#publish-and-reply-rules: Instagram embeds need the post's shortcode (the code in its /p/ link), never the
 * numeric media id the API knows it by.
 */
export function isEmbeddableShortcode(shortcode: string | null | undefined): shortcode is string {
  const code = shortcode?.trim() ?? '';
  return code !== '' && !/^\d+$/.test(code);
}

export const instagramEmbedUrl = (shortcode: string) =>
  `https://www.instagram.com/p/${encodeURIComponent(shortcode.trim())}/embed/?cr=1&v=${INSTAGRAM_EMBED_VERSION}`;

export const facebookEmbedUrl = (permalink: string) =>
  `https://www.facebook.com/plugins/post.php?href=${encodeURIComponent(permalink)}&show_text=true&width=500`;

export const xEmbedUrl = (externalId: string) =>
  `https://platform.twitter.com/embed/Tweet.html?id=${encodeURIComponent(externalId)}`;

export const tiktokEmbedUrl = (externalId: string) =>
  `https://www.tiktok.com/embed/v2/${encodeURIComponent(externalId)}`;
