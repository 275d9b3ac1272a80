import { createHash } from 'node:crypto';
import { checkMediaCount, checkMediaFile, checkText } from '@herald/contract';
import { asUnconfirmed, mediaBytes, PlatformError } from '../errors.js';
import type {
  NetworkComment,
  PublishingAdapter,
  PublishRequest,
  PublishResult,
  StoredAccount,
} from '../types.js';
import { instanceOf, type MastodonApi, type MastodonStatus } from './api.js';
import { constraintsOfServer, MASTODON_MEDIA_TIMING, storedLimitsOf } from './limits.js';

const VISIBILITIES = new Set(['public', 'unlisted', 'private', 'direct']);

/** The choices a person made for a Mastodon post (content warning, visibility, language). */
function statusOptions(settings: Record<string, unknown> | null | undefined) {
  const s = settings ?? {};
  const spoiler = typeof s.spoilerText === 'string' ? s.spoilerText.trim() : '';
  const visibility = typeof s.visibility === 'string' && VISIBILITIES.has(s.visibility);
  const language = typeof s.language === 'string' && /^[a-z]{2,3}$/i.test(s.language);
  return {
    ...(spoiler ? { spoiler_text: spoiler, sensitive: true } : {}),
    ...(visibility ? { visibility: s.visibility } : {}),
    ...(language ? { language: (s.language as string).toLowerCase() } : {}),
  };
}

const token = (account: StoredAccount) => account.tokens.accessToken;

/** Refuses, before any call, what the account's own server announced it would refuse. */
function refuseByServer(account: StoredAccount, request: PublishRequest) {
  const limits = storedLimitsOf(account.extra.limits);
  const constraints = constraintsOfServer(limits);
  const instance = instanceOf(account);
  // The server counts the content warning in the status's characters.
  const spoiler = statusOptions(request.settings).spoiler_text ?? '';
  const problems = [
    checkText(`${spoiler}${request.text}`, constraints, `Mastodon (${instance})`),
    ...checkMediaCount(request.media, constraints, `Mastodon (${instance})`),
    ...request.media.flatMap((m) => checkMediaFile(m, constraints)),
  ].filter((p): p is string => Boolean(p));
  if (!request.text.trim() && request.media.length === 0)
    problems.push('A Mastodon post needs text or at least one file.');
  if (problems.length) throw new PlatformError('bad_request', problems.join(' '));
}

/** How many of the account's newest statuses reconcile reads (one page of the API's most). */
export const MASTODON_RECONCILE_WINDOW = 40;
/** How far the server's clock may be from Herald's when reconcile compares times. */
const CLOCK_DRIFT_MS = 10 * 60_000;

const sameText = (a: string, b: string) =>
  a.replace(/\s+/g, ' ').trim() === b.replace(/\s+/g, ' ').trim();

/**
 * Whether a status of the account is the one this attempt asked for: the same text, content
 * warning and number of files, no reply, made after the attempt was prepared.
 */
function isTheAttempt(
  status: MastodonStatus,
  request: PublishRequest,
  state: { mediaIds: string[]; attemptedAfter: number | null },
) {
  const options = statusOptions(request.settings);
  return (
    !status.in_reply_to_id &&
    sameText(plainText(status.content), request.text) &&
    (status.spoiler_text ?? '') === (options.spoiler_text ?? '') &&
    (status.media_attachments?.length ?? 0) === state.mediaIds.length &&
    (state.attemptedAfter === null || Date.parse(status.created_at) >= state.attemptedAfter)
  );
}

const resultOf = (status: MastodonStatus): PublishResult => ({
  externalId: status.id,
  permalink: status.url ?? status.uri ?? null,
});

/** Plain text of a status's HTML, for comments. */
export function plainText(html: string): string {
  return html
    .replace(/<br\s*\/?>/gi, '\n')
    .replace(/<\/p>\s*<p>/gi, '\n\n')
    .replace(/<[^>]+>/g, '')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&')
    .trim();
}

/** A status as a comment; its own replies are filled in by the caller. */
function toComment(status: MastodonStatus, accountId: string): NetworkComment {
  return {
    id: status.id,
    message: plainText(status.content),
    likes: status.favourites_count ?? 0,
    createdTime: status.created_at,
    from: {
      id: status.account.id,
      name: status.account.display_name || status.account.acct,
      pictureUrl: status.account.avatar ?? null,
    },
    isOwn: status.account.id === accountId,
    replies: [],
  };
}

/**
 * Mastodon publishing (docs/networks.md#mastodon-publishing, #mastodon-idempotency): prepare
 * uploads the files with their descriptions (`POST /api/v2/media`), check waits for those the
 * server is still processing (202, then `GET /api/v1/media/:id` until it has a URL), finalize
 * posts the status with an `Idempotency-Key` header: the same key within the hour the server
 * keeps it answers the status already made, so a retried finalize does not post twice. After a
 * lost answer reconcile looks for the status among the account's newest ones instead, as the
 * key may be forgotten by then; when they cannot tell, the outcome stays unknown.
 */
export function createMastodonPublishing(api: MastodonApi): PublishingAdapter {
  async function post(
    account: StoredAccount,
    key: string,
    body: Record<string, unknown>,
  ): Promise<MastodonStatus> {
    try {
      return await api.postStatus(instanceOf(account), token(account), key, body);
    } catch (err) {
      throw asUnconfirmed('Mastodon', err);
    }
  }

  const statusBody = (request: PublishRequest, mediaIds: string[]) => ({
    status: request.text,
    ...(mediaIds.length ? { media_ids: mediaIds } : {}),
    ...statusOptions(request.settings),
  });

  const stateOf = (state: Record<string, unknown>) => {
    const prepared = typeof state.preparedAt === 'string' ? Date.parse(state.preparedAt) : NaN;
    return {
      mediaIds: Array.isArray(state.mediaIds) ? (state.mediaIds as string[]) : [],
      processing: Array.isArray(state.processing) ? (state.processing as string[]) : [],
      preparedAt:
        typeof state.preparedAt === 'string' ? state.preparedAt : new Date().toISOString(),
      /**
       * No status of this attempt is older than this: it was posted after prepare, less the
       * drift between Herald's clock and the server's. Null when the state does not say.
       */
      attemptedAfter: Number.isNaN(prepared) ? null : prepared - CLOCK_DRIFT_MS,
    };
  };

  /** A follow-up's key: the same part of the same post always sends the same one. */
  const followUpKey = (kind: string, replyTo: string, text: string) =>
    `herald-${kind}-${replyTo}-${createHash('sha256').update(text).digest('hex').slice(0, 16)}`;

  async function getComments(account: StoredAccount, externalId: string) {
    const accountId = String(account.extra.accountId ?? '');
    const { descendants } = await api.context(instanceOf(account), token(account), externalId);
    const byId = new Map(descendants.map((s) => [s.id, toComment(s, accountId)]));
    const top: NetworkComment[] = [];
    for (const status of descendants) {
      const comment = byId.get(status.id)!;
      const parent = status.in_reply_to_id ? byId.get(status.in_reply_to_id) : undefined;
      if (parent) parent.replies.push(comment);
      else top.push(comment);
    }
    return top;
  }

  return {
    preparesLocally: (request) => request.media.length === 0,

    async prepare(account, request) {
      refuseByServer(account, request);
      const instance = instanceOf(account);
      const mediaIds: string[] = [];
      const processing: string[] = [];
      for (const media of request.media) {
        const body = new FormData();
        body.append(
          'file',
          new Blob([await mediaBytes(media)], { type: media.mimeType }),
          media.fileName,
        );
        if (media.altText) body.append('description', media.altText);
        const uploaded = await api.uploadMedia(instance, token(account), body);
        mediaIds.push(uploaded.id);
        if (!uploaded.url) processing.push(uploaded.id);
      }
      return { mediaIds, processing, preparedAt: new Date().toISOString() };
    },

    async check(account, raw) {
      const state = stateOf(raw);
      const still: string[] = [];
      for (const id of state.processing) {
        const media = await api.media(instanceOf(account), token(account), id);
        if (!media.url) still.push(id);
      }
      if (!still.length) return { status: 'ready', state: { processing: [] } };
      if (Date.now() - Date.parse(state.preparedAt) > MASTODON_MEDIA_TIMING.giveUpMs)
        throw new PlatformError(
          'bad_request',
          'Mastodon was still processing the files ten minutes after Herald sent them. Try again, or with smaller files.',
        );
      return {
        status: 'pending',
        retryAfterMs: MASTODON_MEDIA_TIMING.pollMs,
        state: { processing: still },
      };
    },

    async finalize(account, request, raw) {
      const state = stateOf(raw);
      return resultOf(
        await post(account, request.idempotencyKey, statusBody(request, state.mediaIds)),
      );
    },

    async reconcile(account, request, raw) {
      // The server keeps an Idempotency-Key for about an hour: past that, posting again with it
      // could post twice. So the account's own recent statuses say whether the lost call made it.
      const state = stateOf(raw);
      const recent = await api.accountStatuses(
        instanceOf(account),
        token(account),
        String(account.extra.accountId ?? ''),
        MASTODON_RECONCILE_WINDOW,
      );
      const found = recent.find((status) => isTheAttempt(status, request, state));
      if (found) return resultOf(found);
      // Fewer than a page: the account's whole history, so it was not made.
      if (recent.length < MASTODON_RECONCILE_WINDOW) return null;
      // The page reaches back past the attempt: it would be on it.
      const oldest = Math.min(...recent.map((s) => Date.parse(s.created_at)));
      if (state.attemptedAfter !== null && oldest < state.attemptedAfter) return null;
      throw new PlatformError(
        'unknown_outcome',
        'Mastodon did not confirm the post, and the account has posted too much since for Herald to find it among its recent posts.',
      );
    },

    async followUp(account, { kind, postId, replyTo, text }) {
      const parent = kind === 'part' ? replyTo : postId;
      return resultOf(
        await post(account, followUpKey(kind, parent, text), {
          status: text,
          in_reply_to_id: parent,
        }),
      );
    },

    async listComments(account, externalId) {
      return { comments: await getComments(account, externalId), nextCursor: null };
    },

    async reply(account, target, message) {
      const status = await post(account, followUpKey('reply', target.commentId, message), {
        status: message,
        in_reply_to_id: target.commentId,
      });
      return toComment(status, String(account.extra.accountId ?? ''));
    },
  };
}
