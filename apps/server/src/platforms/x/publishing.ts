import { PlatformError } from '../errors.js';
import { refuseByRules } from '../publish-guard.js';
import type {
  AdapterSettings,
  PublishingAdapter,
  PublishMedia,
  PublishResult,
  PublishState,
  StoredAccount,
} from '../types.js';
import { createXApi, type XUrls } from './api.js';
import { createXComments } from './comments.js';
import { X_FINALIZE_TIMEOUT_MS, X_MEDIA_CHUNK_BYTES, X_RECONCILE_LOOKBACK } from './limits.js';
import { createXPublishApi, type XMediaAnswer, type XPublishApi } from './publish-api.js';
import { visibleCall } from './visible-call.js';

/** Settings tests and tools may change; production uses the defaults from limits.ts. */
export interface XPublishOptions {
  finalizeTimeoutMs: number;
  chunkBytes: number;
}

/** One uploaded file, as kept in the publish state between phases. */
interface XUploaded {
  id: string;
  mediaKey: string;
  /** Videos and GIFs are processed after finalize; images are ready at once. */
  ready: boolean;
}

const categoryOf = (m: PublishMedia) =>
  m.kind === 'video' ? 'tweet_video' : m.mimeType === 'image/gif' ? 'tweet_gif' : 'tweet_image';

/** The file's bytes in chunks of exactly `size` (the last one shorter). */
export async function* chunksOf(stream: NodeJS.ReadableStream, size: number) {
  let pending: Buffer[] = [];
  let length = 0;
  for await (const piece of stream as AsyncIterable<Buffer | string>) {
    let buf = typeof piece === 'string' ? Buffer.from(piece) : piece;
    while (length + buf.length >= size) {
      const take = size - length;
      pending.push(buf.subarray(0, take));
      yield Buffer.concat(pending);
      pending = [];
      length = 0;
      buf = buf.subarray(take);
    }
    if (buf.length) {
      pending.push(buf);
      length += buf.length;
    }
  }
  if (length) yield Buffer.concat(pending);
}

function uploadedOf(state: PublishState): XUploaded[] {
  const media = state.media;
  if (!Array.isArray(media)) return [];
  return media.filter(
    (m): m is XUploaded =>
      typeof m === 'object' && m !== null && typeof (m as XUploaded).id === 'string',
  );
}

function processingFailure(answer: XMediaAnswer) {
  const error = answer.processing_info?.error;
  return new PlatformError(
    'bad_request',
    `X could not process the file: ${error?.message ?? error?.name ?? 'processing failed'}.`,
    { code: error?.name ?? error?.code },
  );
}

/** Normalized text for comparing what we sent with what X shows (entities, t.co links). */
const comparable = (text: string) =>
  text
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&')
    .replace(/https?:\/\/\S+/g, 'URL')
    .replace(/\s+/g, ' ')
    .trim();

/**
 * X's publishing half (docs/networks.md#x-publishing, #x-comments, #x-idempotency): chunked media upload, status polls,
 * `POST /2/tweets`, reconciliation from the user's recent posts, and replies.
 */
export function createXPublishing(
  settings: AdapterSettings<XUrls>,
  options: Partial<XPublishOptions> = {},
): PublishingAdapter {
  const api: XPublishApi = createXPublishApi(settings);
  const accounts = createXApi(settings);
  const finalizeTimeoutMs = options.finalizeTimeoutMs ?? X_FINALIZE_TIMEOUT_MS;
  const chunkBytes = options.chunkBytes ?? X_MEDIA_CHUNK_BYTES;
  const token = (account: StoredAccount) => account.tokens.accessToken;

  /** Who the account is on X (for permalinks and own replies): stored, else `users/me`. */
  const known = new Map<string, { username: string; name: string; pictureUrl: string | null }>();
  async function profileOf(account: StoredAccount) {
    const { username, name } = account.extra as { username?: unknown; name?: unknown };
    if (typeof username === 'string' && username)
      return { username, name: typeof name === 'string' ? name : username, pictureUrl: null };
    const cached = known.get(account.externalId);
    if (cached) return cached;
    const me = await accounts.getMe(token(account));
    const profile = {
      username: me.username,
      name: me.name,
      pictureUrl: me.profile_image_url ?? null,
    };
    known.set(account.externalId, profile);
    return profile;
  }

  async function permalinkOf(account: StoredAccount, id: string) {
    // The post is out whatever happens here: a failed lookup only costs the pretty URL.
    const profile = await profileOf(account).catch(() => null);
    return profile
      ? `https://x.com/${profile.username}/status/${id}`
      : `https://x.com/i/web/status/${id}`;
  }

  async function upload(account: StoredAccount, media: PublishMedia): Promise<XUploaded> {
    const started = await api.initializeUpload(token(account), {
      mediaType: media.mimeType,
      totalBytes: media.size,
      category: categoryOf(media),
    });
    let index = 0;
    for await (const chunk of chunksOf(await media.open(), chunkBytes))
      await api.appendChunk(token(account), started.id, index++, chunk);
    const done = await api.finalizeUpload(token(account), started.id);
    if (done.processing_info?.state === 'failed') throw processingFailure(done);
    if (media.altText && media.kind === 'image')
      await api.setAltText(token(account), started.id, media.altText);
    const state = done.processing_info?.state;
    return {
      id: started.id,
      mediaKey: done.media_key ?? started.media_key ?? '',
      ready: state === undefined || state === 'succeeded',
    };
  }

  const comments = createXComments({ api, profileOf, finalizeTimeoutMs });
  const result = async (account: StoredAccount, id: string): Promise<PublishResult> => ({
    externalId: id,
    permalink: await permalinkOf(account, id),
  });

  return {
    async prepare(account, request) {
      // Up to 4 images, or one GIF, or one video, alone; one cashtag (the shared rule set).
      refuseByRules('X', request);
      const media: XUploaded[] = [];
      // One file at a time: the upload rate limit is per user, and order is the post's order.
      for (const file of request.media) media.push(await upload(account, file));
      return { media };
    },

    // Nothing to upload: prepare and check only shape the state.
    preparesLocally: (request) => request.media.length === 0,

    async check(account, state) {
      const media = uploadedOf(state);
      let waitMs = 0;
      const checked: XUploaded[] = [];
      for (const m of media) {
        if (m.ready) {
          checked.push(m);
          continue;
        }
        const status = await api.mediaStatus(token(account), m.id);
        const info = status.processing_info;
        if (info?.state === 'failed') throw processingFailure(status);
        const ready = !info || info.state === 'succeeded';
        if (!ready) waitMs = Math.max(waitMs, (info.check_after_secs ?? 1) * 1000);
        checked.push({ ...m, ready });
      }
      return waitMs
        ? { status: 'pending', retryAfterMs: waitMs, state: { media: checked } }
        : { status: 'ready', state: { media: checked } };
    },

    async finalize(account, request, state) {
      const media = uploadedOf(state);
      if (media.length !== request.media.length)
        throw new PlatformError(
          'bad_request',
          'The files of this post were not uploaded to X yet; prepare it again.',
        );
      const created = await visibleCall('the post', finalizeTimeoutMs, (signal) =>
        api.createTweet(
          token(account),
          {
            ...(request.text ? { text: request.text } : {}),
            ...(media.length ? { media: { media_ids: media.map((m) => m.id) } } : {}),
          },
          signal,
        ),
      );
      if (!created?.id)
        throw new PlatformError(
          'unknown_outcome',
          'X accepted the post without giving its id, so Herald cannot tell where it is.',
        );
      return result(account, created.id);
    },

    async reconcile(account, request, state) {
      const page = await api.userTweets(token(account), account.externalId, X_RECONCILE_LOOKBACK);
      const keys = uploadedOf(state).map((m) => m.mediaKey);
      const want = comparable(request.text);
      // Media ids belong to one post only: they identify it even if X rewrote the text.
      const match = (page.data ?? []).find((t) => {
        const attached = t.attachments?.media_keys ?? [];
        if (keys.length) return keys.every((k) => attached.includes(k));
        return attached.length === 0 && comparable(t.text) === want;
      });
      return match ? result(account, match.id) : null;
    },

    ...comments,

    // A thread part replies to the part before; the first comment is a reply to the post itself.
    async followUp(account, input) {
      // Each part and the first comment is a post of its own on X: its rules apply to each.
      refuseByRules('X', { text: input.text, media: [] });
      const made = await comments.reply!(
        account,
        { externalId: input.postId, commentId: input.replyTo },
        input.text,
      );
      return result(account, made.id);
    },
  };
}
