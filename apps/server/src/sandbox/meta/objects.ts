import { randomBytes, randomInt } from 'node:crypto';
import type { SandboxStore } from '../store.js';
import type { Authenticated } from './state.js';

/**
 * What publishing makes in the Graph emulator, kept in the sandbox store:
 * - kind `node`: every object by its Graph id (one read answers `GET /{id}`);
 * - kind `post`: a summary of each visible publication (`/_emu/posts`, recent-post lists);
 * - kind `comments:{root}`: the comments under one post, so a thread is one query.
 */
interface Owned {
  id: string;
  /** The Instagram user or the Page the object belongs to. */
  owner: string;
  createdAt: number;
}

export type IgMediaType = 'IMAGE' | 'VIDEO' | 'REELS' | 'CAROUSEL' | 'STORIES';

export interface IgContainer extends Owned {
  type: 'ig_container';
  mediaType: IgMediaType;
  isCarouselItem: boolean;
  /** A video (reel, carousel video, video story): fetched and processed after creation. */
  video: boolean;
  mediaUrl: string | null;
  caption: string;
  /** `alt_text` of an image container (docs/product.md#alt-text); null: none. */
  altText?: string | null;
  children: string[];
  /** When processing ends (emulator clock); a carousel waits for its slowest child. */
  readyAt: number;
  /** Processing ends in ERROR (the processing_fails knob, an unreachable video). */
  fails: boolean;
  /** The media it became: the container reads PUBLISHED from then on. */
  publishedAs: string | null;
}

export interface IgMedia extends Owned {
  type: 'ig_media';
  username: string;
  caption: string;
  mediaType: 'IMAGE' | 'VIDEO' | 'CAROUSEL_ALBUM';
  productType: 'FEED' | 'REELS' | 'STORY';
  shortcode: string;
  permalink: string;
  mediaCount: number;
  containerId: string;
  children: string[];
}

export interface FbPost extends Owned {
  type: 'fb_post';
  pageName: string;
  message: string;
  link: string | null;
  statusType: 'mobile_status_update' | 'shared_story' | 'added_photos';
  photoIds: string[];
  permalink: string;
}

export interface FbPhoto extends Owned {
  type: 'fb_photo';
  url: string;
  caption: string;
  published: boolean;
  /** `alt_text_custom` as sent (docs/product.md#alt-text); null: none. */
  altText?: string | null;
  /** The post it appears in (its own post, or the album post that attached it). */
  postId: string | null;
}

export interface FbVideo extends Owned {
  type: 'fb_video';
  pageName: string;
  /** The uploaded file's name (the Resumable Upload session's `file_name`). */
  fileName: string;
  title: string;
  description: string;
  published: boolean;
}

export interface GraphComment extends Owned {
  type: 'comment';
  network: 'instagram' | 'facebook';
  /** The post (media, Page post, photo, video) the thread is under. */
  root: string;
  /** The top-level comment a reply belongs to. */
  parentId: string | null;
  fromId: string;
  fromName: string;
  message: string;
  likeCount: number;
  hidden: boolean;
}

/** A Messenger or Instagram conversation between the account (`owner`) and one customer (messaging-core.ts). */
export interface GraphConversation extends Owned {
  type: 'conversation';
  platform: 'messenger' | 'instagram';
  /** The Page the conversation is reached through (the owner for Messenger). */
  pageId: string;
  customerId: string;
  customerName: string;
  updatedAt: number;
  /** The customer's last message (the 24 h window counts from it); null until they write. */
  lastInboundAt: number | null;
}

/** One message of a conversation; its id is Meta's `mid`. */
export interface GraphMessage extends Owned {
  type: 'message';
  platform: 'messenger' | 'instagram';
  conversationId: string;
  fromId: string;
  fromName: string;
  toId: string;
  toName: string;
  text: string;
  attachments: Array<{ type: string; url: string }>;
  /** Sent through the API (Herald), with the tag it used. */
  viaApi: boolean;
  tag: string | null;
  /** A private reply: the comment it answers. */
  commentId: string | null;
  deleted: boolean;
}

export type GraphObject =
  | IgContainer
  | IgMedia
  | FbPost
  | FbPhoto
  | FbVideo
  | GraphComment
  | GraphConversation
  | GraphMessage;

/** A visible publication, as `/_emu/posts` lists it. */
export interface PostSummary {
  id: string;
  network: 'instagram' | 'facebook';
  account: string;
  accountName: string;
  kind: string;
  text: string;
  mediaCount: number;
  createdAt: number;
  permalink: string;
  /** Each image's alt text as the network recorded it (docs/product.md#alt-text). */
  altTexts?: Array<string | null>;
}

interface CommentEntry {
  parentId: string | null;
  createdAt: number;
}

/** Meta-style numeric ids: random, so two emulator processes never collide. */
export const newNumericId = (length = 17) =>
  `1${Array.from({ length: length - 1 }, () => randomInt(10)).join('')}`;

/** Instagram shortcodes are base64url-ish letters, never only digits. */
export const newShortcode = () => `C${randomBytes(8).toString('base64url').slice(0, 10)}`;

/** Graph's timestamp format: `2026-01-02T03:04:05+0000`. */
export const graphTime = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, '+0000');

/** Containers, and media not published within it, expire after 24 h (docs/networks.md#instagram-publishing). */
export const CONTAINER_LIFETIME_MS = 24 * 60 * 60 * 1000;

/** One lock per key inside this process: a container is never published twice at once. */
const locks = new Map<string, Promise<unknown>>();
export async function withLock<T>(key: string, work: () => Promise<T>): Promise<T> {
  const before = locks.get(key) ?? Promise.resolve();
  const run = before.then(work, work);
  const settled = run.catch(() => undefined);
  locks.set(key, settled);
  try {
    return await run;
  } finally {
    if (locks.get(key) === settled) locks.delete(key);
  }
}

/** The Instagram users and Pages a token may act for. */
export function ownersOf(auth: Authenticated): Set<string> {
  const pages = auth.page ? [auth.page] : auth.user.pages;
  const owners = new Set<string>();
  for (const page of pages) {
    owners.add(page.id);
    if (page.instagram) owners.add(page.instagram.id);
  }
  return owners;
}

export function createGraphObjects(store: SandboxStore) {
  return {
    get: (id: string) => store.get<GraphObject>('node', id),
    put: (object: GraphObject) => store.put('node', object.id, object),
    delete: (id: string) => store.delete('node', id),

    /** Records a visible publication for `/_emu/posts` and recent-post lists. */
    recordPost: (summary: PostSummary) => store.put('post', summary.id, summary),

    /** Visible publications, newest first; one account's when `account` is given. */
    async listPosts(filter: { account?: string; network?: string } = {}) {
      const rows = await store.list<PostSummary>('post');
      return rows
        .map((r) => r.data)
        .filter(
          (p) =>
            (!filter.account || p.account === filter.account) &&
            (!filter.network || p.network === filter.network),
        )
        .sort((a, b) => b.createdAt - a.createdAt || b.id.localeCompare(a.id));
    },

    async addComment(comment: GraphComment) {
      await store.put('node', comment.id, comment);
      await store.put(`comments:${comment.root}`, comment.id, {
        parentId: comment.parentId,
        createdAt: comment.createdAt,
      } satisfies CommentEntry);
    },

    /** Every comment under a post, oldest first. */
    async thread(root: string): Promise<GraphComment[]> {
      const entries = await store.list<CommentEntry>(`comments:${root}`);
      const comments: GraphComment[] = [];
      for (const entry of entries) {
        const node = await store.get<GraphObject>('node', entry.id);
        if (node?.type === 'comment') comments.push(node);
      }
      return comments.sort((a, b) => a.createdAt - b.createdAt || a.id.localeCompare(b.id));
    },

    async countComments(root: string) {
      return (await store.list(`comments:${root}`)).length;
    },

    /** Removes a comment and, for a top-level one, its replies. */
    async removeComment(comment: GraphComment) {
      const doomed = [comment.id];
      if (!comment.parentId) {
        const entries = await store.list<CommentEntry>(`comments:${comment.root}`);
        doomed.push(...entries.filter((e) => e.data.parentId === comment.id).map((e) => e.id));
      }
      for (const id of doomed) {
        await store.delete(`comments:${comment.root}`, id);
        await store.delete('node', id);
      }
    },
  };
}

export type GraphObjects = ReturnType<typeof createGraphObjects>;
