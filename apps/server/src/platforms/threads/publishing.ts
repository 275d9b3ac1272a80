import { PlatformError } from '../errors.js';
import { refuseByRules } from '../publish-guard.js';
import type {
  CheckResult,
  PublishingAdapter,
  PublishMedia,
  PublishRequest,
  PublishResult,
  PublishState,
  StoredAccount,
} from '../types.js';
import { createThreadsComments } from './comments.js';
import {
  THREADS_POST_CAP,
  THREADS_QUOTA_RETRY_SECONDS,
  THREADS_RECONCILE_LOOKBACK,
  type ThreadsTiming,
} from './limits.js';
import type { ThreadsContainerStatus, ThreadsMediaNode, ThreadsPublishApi } from './publish-api.js';
import { asUnknownOutcome, containerFailure, graphTimeMs, textProblem } from './publish-rules.js';

type PostType = 'TEXT' | 'IMAGE' | 'VIDEO' | 'CAROUSEL';

/** What prepare made at Threads, persisted between the phases. */
interface ThreadsState {
  type: PostType;
  /** The container threads_publish takes (for a carousel: the parent, made once items are ready). */
  containerId?: string;
  /** A carousel's item containers, in order. */
  childIds?: string[];
  /** A carousel's text, for its parent container. */
  text?: string;
  preparedAt: string;
}

const MEDIA_TYPE_OF: Record<PostType, string> = {
  TEXT: 'TEXT_POST',
  IMAGE: 'IMAGE',
  VIDEO: 'VIDEO',
  CAROUSEL: 'CAROUSEL_ALBUM',
};

function readState(state: PublishState): ThreadsState {
  const s = state as Partial<ThreadsState>;
  if (!s.type || !s.preparedAt)
    throw new PlatformError('bad_request', 'The Threads post was not prepared; prepare it again.');
  return s as ThreadsState;
}

/** The post type a request makes on Threads, or the reason Threads cannot take it (docs/networks.md#threads-publishing, #threads-limits). */
function postTypeOf(request: PublishRequest): PostType {
  const problem = textProblem(request.text);
  if (problem) throw new PlatformError('bad_request', problem);
  // Something to publish, up to 20 carousel items, at most 5 links (the shared rule set).
  refuseByRules('Threads', request);
  const { media } = request;
  if (media.length === 0) return 'TEXT';
  if (media.length === 1) return media[0]!.kind === 'video' ? 'VIDEO' : 'IMAGE';
  return 'CAROUSEL';
}

const urlParam = (m: PublishMedia) =>
  m.kind === 'video'
    ? { media_type: 'VIDEO', video_url: m.url }
    : {
        media_type: 'IMAGE',
        image_url: m.url,
        // docs/product.md#alt-text: an image container's `alt_text`.
        ...(m.altText ? { alt_text: m.altText } : {}),
      };

/**
 * Threads publishing (docs/networks.md#threads-publishing, #threads-idempotency): prepare makes the containers (media pulled
 * from Herald's signed URLs), check follows their processing (and assembles a carousel once its
 * items are ready), finalize is `threads_publish` and reads the permalink; reconcile reads the
 * container status and the account's recent posts.
 */
export function createThreadsPublishing(
  api: ThreadsPublishApi,
  timing: ThreadsTiming,
): PublishingAdapter {
  const text = (t: string) => (t.trim() ? t : undefined);
  const comments = createThreadsComments(api, timing);

  async function ensureQuota(user: string, token: string) {
    const limit = await api.publishingLimit(user, token);
    const total = limit.config?.quota_total ?? THREADS_POST_CAP.posts;
    if ((limit.quota_usage ?? 0) >= total)
      throw new PlatformError(
        'rate_limited',
        `Threads lets an account publish ${total} posts per 24 hours through its API, and this account has reached that. Herald will try again later.`,
        { code: 'threads_publishing_limit', retryAfterSeconds: THREADS_QUOTA_RETRY_SECONDS },
      );
  }

  /**
   * When to look at a container still processing again (docs/networks.md#threads-publishing):
   * 30 s after it was made, then once a minute, and not past 5 minutes.
   */
  function lookAgain(s: ThreadsState, what: string): CheckResult {
    const age = Date.now() - Date.parse(s.preparedAt);
    if (age >= timing.giveUpMs)
      throw new PlatformError(
        'bad_request',
        `${what} was still processing at Threads ${Math.round(timing.giveUpMs / 60_000)} minutes after Herald sent it, the longest Threads advises waiting. Try publishing again, or with a shorter or smaller video.`,
        { code: 'IN_PROGRESS' },
      );
    const next = age < timing.firstLookMs ? timing.firstLookMs - age : timing.pollMs;
    return { status: 'pending', retryAfterMs: Math.min(next, timing.giveUpMs - age) };
  }

  function statusResult(
    status: ThreadsContainerStatus,
    what: string,
    s: ThreadsState,
  ): CheckResult {
    if (status.status === 'FINISHED' || status.status === 'PUBLISHED') return { status: 'ready' };
    if (status.status === 'ERROR' || status.status === 'EXPIRED')
      throw new PlatformError('bad_request', containerFailure(status, what), {
        code: status.status,
      });
    // IN_PROGRESS, or a value Threads added since (docs/networks.md#open-questions, question 10): look again.
    return lookAgain(s, what);
  }

  /** Once every item is ready, makes the carousel's parent container. */
  async function assembleCarousel(account: StoredAccount, s: ThreadsState): Promise<CheckResult> {
    const token = account.tokens.accessToken;
    const ids = s.childIds ?? [];
    const statuses = await Promise.all(ids.map((id) => api.containerStatus(id, token)));
    const results = statuses.map((st, i) => statusResult(st, `Item ${i + 1} of the carousel`, s));
    const pending = results.find((r) => r.status === 'pending');
    if (pending) return pending;
    const containerId = await api.createContainer(account.externalId, token, {
      media_type: 'CAROUSEL',
      children: ids.join(','),
      text: text(s.text ?? ''),
    });
    const parent = statusResult(await api.containerStatus(containerId, token), 'The carousel', s);
    return { ...parent, state: { containerId } };
  }

  function resultOf(id: string, node: Pick<ThreadsMediaNode, 'permalink' | 'shortcode'> | null) {
    const result: PublishResult = { externalId: id, permalink: node?.permalink ?? null };
    if (node?.shortcode) result.extra = { shortcode: node.shortcode };
    return result;
  }

  return {
    async prepare(account, request) {
      const type = postTypeOf(request);
      const user = account.externalId;
      const token = account.tokens.accessToken;
      await ensureQuota(user, token);
      const preparedAt = new Date().toISOString();
      if (type === 'CAROUSEL') {
        const childIds: string[] = [];
        // One by one: the order of the containers is the order of the carousel.
        for (const m of request.media)
          childIds.push(
            await api.createContainer(user, token, { ...urlParam(m), is_carousel_item: 'true' }),
          );
        return { type, childIds, text: request.text, preparedAt };
      }
      const media = type === 'TEXT' ? { media_type: 'TEXT' } : urlParam(request.media[0]!);
      const containerId = await api.createContainer(user, token, {
        ...media,
        text: text(request.text),
      });
      return { type, containerId, preparedAt };
    },

    async check(account, state) {
      const s = readState(state);
      if (!s.containerId) return assembleCarousel(account, s);
      const status = await api.containerStatus(s.containerId, account.tokens.accessToken);
      return statusResult(status, s.type === 'CAROUSEL' ? 'The carousel' : 'The media', s);
    },

    async finalize(account, _request, state) {
      const s = readState(state);
      if (!s.containerId)
        throw new PlatformError(
          'transient',
          'The carousel is not assembled at Threads yet; Herald checks its items again first.',
        );
      const token = account.tokens.accessToken;
      const id = await api
        .publish(account.externalId, token, s.containerId)
        .catch((err: unknown) => {
          throw asUnknownOutcome(err);
        });
      // The post is out: a failure to read its permalink must not turn that into an error.
      const node = await api.getMedia(id, token, ['permalink', 'shortcode']).catch(() => null);
      return resultOf(id, node);
    },

    async reconcile(account, request, state) {
      const s = readState(state);
      if (!s.containerId) return null;
      const token = account.tokens.accessToken;
      const status = (await api.containerStatus(s.containerId, token)).status;
      // A container that is not PUBLISHED was not published: publishing it again is safe (docs/networks.md#threads-idempotency).
      if (status && ['FINISHED', 'IN_PROGRESS', 'ERROR', 'EXPIRED'].includes(status)) return null;
      const recent = await api.listThreads(
        account.externalId,
        token,
        ['id', 'text', 'media_type', 'permalink', 'shortcode', 'timestamp'],
        THREADS_RECONCILE_LOOKBACK,
      );
      const since = Date.parse(s.preparedAt) - 5 * 60_000;
      const match = (recent.data ?? [])
        .filter((n) => (n.text ?? '').trim() === request.text.trim())
        .filter((n) => !n.media_type || n.media_type === MEDIA_TYPE_OF[s.type])
        .filter((n) => (graphTimeMs(n.timestamp) ?? since) >= since)
        .sort((a, b) => (graphTimeMs(a.timestamp) ?? 0) - (graphTimeMs(b.timestamp) ?? 0))[0];
      if (match) return resultOf(match.id, match);
      throw new PlatformError(
        'unknown_outcome',
        status === 'PUBLISHED'
          ? 'Threads says the post was published, but it is not among the account’s recent posts yet. Check the account on Threads.'
          : 'Herald cannot tell whether Threads published the post. Check the account on Threads.',
        { code: status },
      );
    },

    ...comments,

    // Each part replies to the part before (a reply container, then threads_publish).
    async followUp(account, input) {
      if (input.kind !== 'part')
        throw new PlatformError(
          'bad_request',
          'Threads has no first comment; add a second part to the thread instead.',
        );
      // A part is a post of its own: at most 5 links (the shared rule set).
      refuseByRules('Threads', { text: input.text, media: [] });
      const made = await comments.reply!(
        account,
        { externalId: input.postId, commentId: input.replyTo },
        input.text,
      );
      const node = await api
        .getMedia(made.id, account.tokens.accessToken, ['permalink'])
        .catch(() => null);
      return { externalId: made.id, permalink: node?.permalink ?? null };
    },
  };
}
