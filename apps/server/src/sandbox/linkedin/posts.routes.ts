import type { FastifyInstance, FastifyRequest } from 'fastify';
import { sleep } from '../kit/call-knobs.js';
import type { KeyedLock } from '../kit/keyed-lock.js';
import type { EmuKit } from '../kit/emu-kit.js';
import { canReadAs, canWriteAs, type Caller } from './access.js';
import { linkedInErrors } from './errors.js';
import { renderLittleText } from './little-text.js';
import { imageStatus, videoStatus } from './media.routes.js';
import { liNumericId, type LiContent, type LinkedInPosts, type LiPost } from './posts-state.js';
import { linkedInRoute } from './rest.js';
import type { LinkedInState } from './state.js';

/**
 * The Posts API (docs/networks.md#linkedin-publishing, #linkedin-idempotency, #linkedin-sandbox): `POST /rest/posts` checks the author, the commentary, the
 * media (AVAILABLE, one video or 2–20 images) and duplicates, and answers 201 with the post URN
 * in `x-restli-id`; `GET /rest/posts?q=author` lists an author's posts for reconciliation.
 */
export const LINKEDIN_POSTS = {
  maxCommentary: 3_000,
  minMultiImage: 2,
  maxMultiImage: 20,
  /** Posts a member may publish per 24 h (third parties quote about 150; publish_cap replaces it). */
  postsPerDay: 150,
  duplicateWindowMs: 24 * 60 * 60 * 1000,
  /** How long finalize_timeout hangs when switched on without a number of ms. */
  finalizeHangMs: 30_000,
} as const;

export interface LinkedInPostsDeps {
  kit: EmuKit;
  state: LinkedInState;
  posts: LinkedInPosts;
  withLock: KeyedLock;
}

type Body = Record<string, unknown>;

/** LinkedIn answers hashtags of the commentary as `{hashtag|\#|tag}` templates. */
const withHashtagTemplates = (commentary: string) =>
  commentary.replace(/(^|[^\\])#([\p{L}\p{N}_]+)/gu, '$1{hashtag|\\#|$2}');

/** The post as the Posts API answers it. */
export function postBody(post: LiPost) {
  const alt = (i: number) => {
    const text = post.content.kind !== 'none' ? post.content.altTexts?.[i] : null;
    return text ? { altText: text } : {};
  };
  const content =
    post.content.kind === 'media'
      ? { media: { id: post.content.id, ...alt(0) } }
      : post.content.kind === 'multiImage'
        ? { multiImage: { images: post.content.ids.map((id, i) => ({ id, ...alt(i) })) } }
        : undefined;
  return {
    id: post.urn,
    author: post.author,
    commentary: withHashtagTemplates(post.commentary),
    visibility: post.visibility,
    distribution: {
      feedDistribution: 'MAIN_FEED',
      targetEntities: [],
      thirdPartyDistributionChannels: [],
    },
    ...(content ? { content } : {}),
    lifecycleState: 'PUBLISHED',
    isReshareDisabledByAuthor: false,
    createdAt: post.createdAt,
    publishedAt: post.createdAt,
    lastModifiedAt: post.createdAt,
  };
}

export function registerLinkedInPostRoutes(scope: FastifyInstance, deps: LinkedInPostsDeps) {
  const { kit, state, posts, withLock } = deps;
  const authenticate = async (request: FastifyRequest): Promise<Caller> =>
    state.authenticate(request.headers.authorization);

  /** The content of a new post, its media checked: the author's, AVAILABLE, a valid mix. */
  async function contentOf(author: string, raw: unknown, now: number): Promise<LiContent> {
    if (raw === undefined || raw === null) return { kind: 'none' };
    const content = raw as {
      media?: { id?: unknown; altText?: unknown };
      multiImage?: { images?: unknown };
    };
    // docs/product.md#alt-text: `altText` on each image, at most 4,086 characters.
    const altTextOf = (item: { altText?: unknown } | undefined, path: string) => {
      const text = item?.altText;
      if (text === undefined || text === null) return null;
      if (typeof text !== 'string' || text.length > 4086)
        throw linkedInErrors.invalid(path, 'altText must be text of at most 4086 characters');
      return text;
    };
    let ids: string[];
    let result: LiContent;
    if (content.media) {
      if (typeof content.media.id !== 'string')
        throw linkedInErrors.invalid('/content/media/id', 'field is required');
      ids = [content.media.id];
      result = {
        kind: 'media',
        id: content.media.id,
        altTexts: [altTextOf(content.media, '/content/media/altText')],
      };
    } else if (content.multiImage) {
      const images = Array.isArray(content.multiImage.images) ? content.multiImage.images : [];
      ids = images.map((i: { id?: unknown }) => String(i?.id ?? ''));
      if (ids.length < LINKEDIN_POSTS.minMultiImage || ids.length > LINKEDIN_POSTS.maxMultiImage)
        throw linkedInErrors.invalid(
          '/content/multiImage/images',
          `must hold ${LINKEDIN_POSTS.minMultiImage} to ${LINKEDIN_POSTS.maxMultiImage} images`,
        );
      if (ids.some((id) => !id.startsWith('urn:li:image:')))
        throw linkedInErrors.invalid('/content/multiImage/images', 'only images can be combined');
      result = {
        kind: 'multiImage',
        ids,
        altTexts: images.map((image: { altText?: unknown }, i: number) =>
          altTextOf(image, `/content/multiImage/images/${i}/altText`),
        ),
      };
    } else {
      throw linkedInErrors.invalid('/content', 'the sandbox supports media and multiImage content');
    }
    for (const [i, id] of ids.entries()) {
      const path =
        result.kind === 'media' ? '/content/media/id' : `/content/multiImage/images/${i}/id`;
      const asset = id.startsWith('urn:li:video:')
        ? await posts.getVideo(id)
        : id.startsWith('urn:li:image:')
          ? await posts.getImage(id)
          : null;
      if (!asset || asset.owner !== author)
        throw linkedInErrors.invalid(path, `${id} does not exist or belongs to another owner`);
      const status = 'fileSizeBytes' in asset ? videoStatus(asset, now) : imageStatus(asset);
      if (status !== 'AVAILABLE')
        throw linkedInErrors.invalid(path, `${id} is ${status}, not AVAILABLE`);
    }
    return result;
  }

  /** Refuses the post past the member's daily cap; otherwise counts it. */
  async function countPost(caller: Caller, now: number) {
    const day = 24 * 60 * 60 * 1000;
    const cap = caller.scenario.isOn('publish_cap')
      ? caller.scenario.number('publish_cap')
      : LINKEDIN_POSTS.postsPerDay;
    const times = (await posts.postTimes(caller.member.sub)).filter((t) => t > now - day);
    if (times.length >= cap) throw linkedInErrors.throttled();
    if (cap <= 10_000) await posts.savePostTimes(caller.member.sub, [...times, now]);
  }

  scope.post(
    '/rest/posts',
    linkedInRoute(true, async (request, reply) => {
      const caller = await authenticate(request);
      const body = (request.body ?? {}) as Body;
      const author = typeof body.author === 'string' ? body.author : '';
      if (!author) throw linkedInErrors.invalid('/author', 'field is required but not found');
      if (!canWriteAs(caller, author))
        throw linkedInErrors.denied('partnerApiPostsExternal.CREATE');
      for (const field of ['visibility', 'distribution', 'lifecycleState'])
        if (body[field] === undefined)
          throw linkedInErrors.invalid(
            `/${field}`,
            'field is required but not found and has no default value',
          );
      if (body.lifecycleState !== 'PUBLISHED')
        throw linkedInErrors.invalid(
          '/lifecycleState',
          'the sandbox publishes PUBLISHED posts only',
        );
      const commentary = typeof body.commentary === 'string' ? body.commentary : '';
      const length = [...renderLittleText(commentary)].length;
      if (length > LINKEDIN_POSTS.maxCommentary)
        throw linkedInErrors.invalid(
          '/commentary',
          `length ${length} exceeds the maximum of ${LINKEDIN_POSTS.maxCommentary} characters`,
        );
      const now = await kit.now();
      const content = await contentOf(author, body.content, now);
      if (!commentary.trim() && content.kind === 'none')
        throw linkedInErrors.invalid('/commentary', 'a post needs commentary or content');

      const post = await withLock(`member:${caller.member.sub}`, async () => {
        if (commentary.trim()) {
          const earlier = await posts.duplicateOf(author, commentary);
          if (earlier && now - earlier.createdAt < LINKEDIN_POSTS.duplicateWindowMs)
            throw linkedInErrors.duplicate(earlier.urn);
        }
        await countPost(caller, now);
        const kind =
          content.kind === 'media' && content.id.startsWith('urn:li:video:') ? 'ugcPost' : 'share';
        const created: LiPost = {
          urn: `urn:li:${kind}:${liNumericId(now)}`,
          author,
          sub: caller.member.sub,
          commentary,
          visibility: String(body.visibility),
          content,
          createdAt: now,
        };
        await posts.savePost(created);
        return created;
      });

      const hang = caller.scenario.isOn('finalize_timeout')
        ? await caller.scenario.takeValue('finalize_timeout')
        : null;
      if (hang !== null) {
        // The post exists; the answer never arrives (docs/networks.md#scenario-knobs).
        await sleep(hang > 1 ? hang : LINKEDIN_POSTS.finalizeHangMs);
        reply.hijack();
        reply.raw.destroy();
        return reply;
      }
      return reply.status(201).header('x-restli-id', post.urn).send();
    }),
  );

  scope.get(
    '/rest/posts',
    linkedInRoute(true, async (request) => {
      const caller = await authenticate(request);
      const q = request.query as Record<string, string | undefined>;
      if (q.q !== 'author' || !q.author)
        throw linkedInErrors.badRequest('Unsupported finder; use q=author&author=<urn>.');
      if (!canReadAs(caller, q.author))
        throw linkedInErrors.denied('partnerApiPostsExternal.FINDER-author');
      const all = await posts.postsBy(q.author);
      const start = Math.max(Number(q.start) || 0, 0);
      const count = Math.min(Math.max(Number(q.count) || 10, 1), 100);
      return {
        elements: all.slice(start, start + count).map(postBody),
        paging: { start, count, total: all.length, links: [] },
      };
    }),
  );

  scope.get(
    '/rest/posts/:urn',
    linkedInRoute(true, async (request) => {
      const caller = await authenticate(request);
      const post = await posts.getPost((request.params as { urn: string }).urn);
      if (!post) throw linkedInErrors.notFound('Post');
      if (!canReadAs(caller, post.author))
        throw linkedInErrors.denied('partnerApiPostsExternal.GET');
      return postBody(post);
    }),
  );
}
