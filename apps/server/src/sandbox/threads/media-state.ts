import { randomBytes } from 'node:crypto';
import { createKeyedLock } from '../kit/keyed-lock.js';
import type { SandboxStore } from '../store.js';

/**
 * What the Threads emulator remembers about publishing (docs/networks.md#threads-publishing, #threads-sandbox): containers,
 * published media (posts and replies), each account's feed, replies under each media, and the
 * 24 h publishing quotas. Feeds and reply lists are one row per entry (kinds scoped by owner), so
 * concurrent publishes never overwrite each other's entries.
 */
export type ContainerType = 'TEXT' | 'IMAGE' | 'VIDEO' | 'CAROUSEL';
export type ContainerStatus = 'IN_PROGRESS' | 'FINISHED' | 'PUBLISHED' | 'ERROR' | 'EXPIRED';

export interface ThreadsContainer {
  id: string;
  accountId: string;
  mediaType: ContainerType;
  text: string;
  mediaUrl: string | null;
  isCarouselItem: boolean;
  children: string[];
  replyToId: string | null;
  createdAt: number;
  /** When processing ends (emulator clock, ms). */
  readyAt: number;
  /** The status error_message once processing ends, when it fails. */
  errorMessage: string | null;
  publishedId: string | null;
  /** An image's `alt_text` as sent (docs/product.md#alt-text); null: none. */
  altText?: string | null;
}

export interface ThreadsMedia {
  id: string;
  /** The sandbox account that published it; null for replies from other people (`/_emu/comments`). */
  accountId: string | null;
  username: string;
  name: string;
  mediaType: 'TEXT_POST' | 'IMAGE' | 'VIDEO' | 'CAROUSEL_ALBUM';
  text: string;
  mediaCount: number;
  /** Each image's alt text, in order (docs/product.md#alt-text). */
  altTexts?: Array<string | null>;
  shortcode: string;
  createdAt: number;
  rootId: string;
  repliedToId: string | null;
  replyCount: number;
  hidden: boolean;
  deleted: boolean;
}

interface Quota {
  posts: number[];
  replies: number[];
}

const DAY_MS = 86_400_000;
/** Containers nobody publishes expire after 24 h (docs/networks.md#threads-idempotency, like Instagram's). */
export const CONTAINER_TTL_MS = DAY_MS;

export function containerStatus(c: ThreadsContainer, now: number): ContainerStatus {
  if (c.publishedId) return 'PUBLISHED';
  if (now < c.readyAt) return 'IN_PROGRESS';
  if (c.errorMessage) return 'ERROR';
  if (now - c.createdAt > CONTAINER_TTL_MS) return 'EXPIRED';
  return 'FINISHED';
}

const SHORTCODE_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-';
/** Threads shortcodes look like Instagram's: 11 URL-safe characters. */
export const newShortcode = () =>
  [...randomBytes(11)].map((b) => SHORTCODE_ALPHABET[b % SHORTCODE_ALPHABET.length]).join('');

export const permalinkOf = (m: Pick<ThreadsMedia, 'username' | 'shortcode'>) =>
  `https://www.threads.com/@${m.username}/post/${m.shortcode}`;

/** Graph timestamps: ISO 8601 with a `+0000` offset. */
export const graphTime = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, '+0000');

export class ThreadsMediaState {
  /** Serializes read-modify-write steps per key: an account's quota, a media's counts. */
  readonly lock = createKeyedLock();

  constructor(private readonly store: SandboxStore) {}

  getContainer = (id: string) => this.store.get<ThreadsContainer>('th_container', id);
  putContainer = (c: ThreadsContainer) => this.store.put('th_container', c.id, c);
  getMedia = (id: string) => this.store.get<ThreadsMedia>('th_media', id);
  putMedia = (m: ThreadsMedia) => this.store.put('th_media', m.id, m);

  async allMedia(): Promise<ThreadsMedia[]> {
    return (await this.store.list<ThreadsMedia>('th_media')).map((r) => r.data);
  }

  /** Records a new post or reply, with its feed or reply-list entry and its parent's count. */
  async addMedia(media: ThreadsMedia, parent: ThreadsMedia | null): Promise<void> {
    await this.putMedia(media);
    const entry = { createdAt: media.createdAt };
    if (parent) {
      await this.store.put(`th_replies:${parent.id}`, media.id, entry);
      await this.updateMedia(parent.id, (p) => ({ ...p, replyCount: p.replyCount + 1 }));
    } else if (media.accountId) {
      await this.store.put(`th_feed:${media.accountId}`, media.id, entry);
    }
  }

  /** Changes a stored media from its current version (counts move under concurrent replies). */
  updateMedia(id: string, change: (m: ThreadsMedia) => ThreadsMedia): Promise<void> {
    return this.lock(`media:${id}`, async () => {
      const current = await this.getMedia(id);
      if (current) await this.putMedia(change(current));
    });
  }

  /** Marks a media deleted and takes it out of its feed or reply list. */
  async deleteMedia(media: ThreadsMedia): Promise<void> {
    await this.updateMedia(media.id, (m) => ({ ...m, deleted: true }));
    if (media.repliedToId) {
      await this.store.delete(`th_replies:${media.repliedToId}`, media.id);
      await this.updateMedia(media.repliedToId, (p) => ({
        ...p,
        replyCount: Math.max(0, p.replyCount - 1),
      }));
    } else if (media.accountId) {
      await this.store.delete(`th_feed:${media.accountId}`, media.id);
    }
  }

  /** Ids of an account's posts, newest first. */
  feedIds = (accountId: string) => this.idsOf(`th_feed:${accountId}`);
  /** Ids of the direct replies to a media, oldest first. */
  async replyIds(mediaId: string): Promise<string[]> {
    return (await this.idsOf(`th_replies:${mediaId}`)).reverse();
  }

  private async idsOf(kind: string): Promise<string[]> {
    const rows = await this.store.list<{ createdAt: number }>(kind);
    return rows
      .sort((a, b) => b.data.createdAt - a.data.createdAt || (a.id < b.id ? 1 : -1))
      .map((r) => r.id);
  }

  /** Publish times within the last 24 h: posts and replies count separately (docs/networks.md#threads-limits). */
  async quota(accountId: string, now: number): Promise<Quota> {
    const q = (await this.store.get<Quota>('th_quota', accountId)) ?? { posts: [], replies: [] };
    const recent = (times: number[]) => times.filter((t) => now - t < DAY_MS);
    return { posts: recent(q.posts), replies: recent(q.replies) };
  }

  saveQuota = (accountId: string, quota: Quota) => this.store.put('th_quota', accountId, quota);
}
