import { createHash, randomBytes } from 'node:crypto';
import type { SandboxStore } from '../store.js';

/**
 * What the LinkedIn emulator remembers about publishing (docs/networks.md#linkedin-publishing, #linkedin-comments), in the sandbox store:
 * uploaded images and videos, posts (also copied under their author, for `q=author`), and
 * comments (also copied under what they answer, for listing).
 */
export interface LiImage {
  urn: string;
  owner: string;
  secret: string;
  createdAt: number;
  uploadedBytes: number | null;
  fails: boolean;
}

export interface LiVideoPart {
  firstByte: number;
  lastByte: number;
  etag: string | null;
}

export interface LiVideo {
  urn: string;
  owner: string;
  secret: string;
  fileSizeBytes: number;
  uploadToken: string;
  parts: LiVideoPart[];
  createdAt: number;
  finalizedAt: number | null;
  processingMs: number;
  fails: boolean;
  /** The first bytes of part 0, base64: where the video's duration is written (`moov` first). */
  head?: string;
}

export type LiContent =
  | { kind: 'none' }
  | { kind: 'media'; id: string; altTexts?: Array<string | null> }
  | { kind: 'multiImage'; ids: string[]; altTexts?: Array<string | null> };

export interface LiPost {
  urn: string;
  author: string;
  /** The member whose token made it. */
  sub: string;
  /** In LinkedIn's little text format, as sent. */
  commentary: string;
  visibility: string;
  content: LiContent;
  createdAt: number;
}

export interface LiComment {
  id: string;
  urn: string;
  postUrn: string;
  /** The top-level comment this one answers (LinkedIn nests one level only). */
  parentUrn: string | null;
  actor: string;
  text: string;
  createdAt: number;
  modifiedAt: number;
  likes: number;
  replies: number;
}

let sequence = 0;
/** A LinkedIn-like numeric id: 19 digits, rising with time. */
export function liNumericId(nowMs: number) {
  sequence = (sequence + 1) % 100_000;
  return `7${String(Math.floor(nowMs)).padStart(13, '0')}${String(sequence).padStart(5, '0')}`;
}

/** A digital media asset id (`D4E22AQ…`), as image and video URNs carry. */
export const assetId = () =>
  `D4E22AQ${randomBytes(12).toString('base64url').replace(/[-_]/g, 'x')}`;

/** `urn:li:comment:(<post urn>,<id>)`. */
export const commentUrn = (postUrn: string, id: string) => `urn:li:comment:(${postUrn},${id})`;

export function parseCommentUrn(urn: string) {
  const m = /^urn:li:comment:\((urn:li:[a-zA-Z]+:[^,]+),(\d+)\)$/.exec(urn);
  return m ? { postUrn: m[1]!, id: m[2]! } : null;
}

const duplicateKey = (author: string, commentary: string) =>
  createHash('sha256').update(`${author}\n${commentary.trim()}`).digest('hex');

export function createLinkedInPosts(store: SandboxStore) {
  const byAuthor = (author: string) => `posts_of:${author}`;
  const under = (urn: string) => `comments_of:${urn}`;

  return {
    getImage: (urn: string) => store.get<LiImage>('image', urn),
    putImage: (image: LiImage) => store.put('image', image.urn, image),
    getVideo: (urn: string) => store.get<LiVideo>('video', urn),
    putVideo: (video: LiVideo) => store.put('video', video.urn, video),

    getPost: (urn: string) => store.get<LiPost>('post', urn),
    async savePost(post: LiPost) {
      await store.put('post', post.urn, post);
      await store.put(byAuthor(post.author), post.urn, post);
      if (post.commentary.trim())
        await store.put('post_duplicate', duplicateKey(post.author, post.commentary), {
          urn: post.urn,
          createdAt: post.createdAt,
        });
    },
    /** The author's posts, newest first. */
    async postsBy(author: string): Promise<LiPost[]> {
      return (await store.list<LiPost>(byAuthor(author)))
        .map((r) => r.data)
        .sort((a, b) => b.createdAt - a.createdAt || (a.urn < b.urn ? 1 : -1));
    },
    allPosts: async () => (await store.list<LiPost>('post')).map((r) => r.data),
    duplicateOf: (author: string, commentary: string) =>
      store.get<{ urn: string; createdAt: number }>(
        'post_duplicate',
        duplicateKey(author, commentary),
      ),

    /** Times of the member's posts in the last 24 h, for the daily cap. */
    async postTimes(sub: string) {
      return (await store.get<{ times: number[] }>('post_window', sub))?.times ?? [];
    },
    savePostTimes: (sub: string, times: number[]) => store.put('post_window', sub, { times }),

    getComment: (id: string) => store.get<LiComment>('comment', id),
    /** Writes the comment and its copy under the post or the comment it answers. */
    async saveComment(comment: LiComment) {
      await store.put('comment', comment.id, comment);
      await store.put(under(comment.parentUrn ?? comment.postUrn), comment.id, comment);
    },
    async deleteComment(comment: LiComment) {
      await store.delete('comment', comment.id);
      await store.delete(under(comment.parentUrn ?? comment.postUrn), comment.id);
    },
    /** First-level comments of a post, or the replies of a comment, oldest first. */
    async commentsUnder(urn: string): Promise<LiComment[]> {
      return (await store.list<LiComment>(under(urn)))
        .map((r) => r.data)
        .sort((a, b) => a.createdAt - b.createdAt || (a.id < b.id ? -1 : 1));
    },
  };
}

export type LinkedInPosts = ReturnType<typeof createLinkedInPosts>;
