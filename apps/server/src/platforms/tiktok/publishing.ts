import { PlatformError } from '../errors.js';
import type {
  PublishingAdapter,
  PublishRequest,
  PublishResult,
  PublishState,
  StoredAccount,
} from '../types.js';
import {
  TIKTOK_RECONCILE_SETTLED_MS,
  type TikTokTiming,
  type TikTokVideoSource,
} from './limits.js';
import type { TikTokPublishApi, TikTokPublishStatus, TikTokVideo } from './publish-api.js';
import {
  asUnknownOutcome,
  checkDuration,
  failedPublish,
  photoTitle,
  postKindOf,
  type TikTokPostKind,
} from './publish-rules.js';
import { chosenSettings, creatorView } from './post-settings.js';
import { createTikTokUploader } from './upload.js';

/** What prepare learnt from creator_info, persisted for finalize. */
interface TikTokState {
  kind: TikTokPostKind;
  source: TikTokVideoSource;
  /** `inbox`: sent to the creator's TikTok inbox as a draft (MEDIA_UPLOAD), finished in the app. */
  mode?: 'direct' | 'inbox';
  /** Null for an inbox draft: the creator chooses it in the TikTok app. */
  privacyLevel: string | null;
  username: string | null;
  disableComment: boolean;
  disableDuet: boolean;
  disableStitch: boolean;
  /** Commercial content disclosure: "Your brand" and "Branded content". */
  brandOrganic?: boolean;
  brandContent?: boolean;
  autoAddMusic?: boolean;
  preparedAt: string;
}

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function readState(state: PublishState): TikTokState {
  const s = state as Partial<TikTokState>;
  if (!s.kind || (!s.privacyLevel && s.mode !== 'inbox') || !s.preparedAt)
    throw new PlatformError('bad_request', 'The TikTok post was not prepared; prepare it again.');
  return s as TikTokState;
}

/**
 * TikTok Content Posting (docs/networks.md#tiktok-publishing, #tiktok-idempotency). TikTok publishes by itself once an init
 * has its media, so: prepare reads creator_info and validates (invisible), check has nothing to
 * wait for, finalize is the init (+ the chunked upload for FILE_UPLOAD) and then follows the
 * status for a while to learn the post id. Comments are not in this API (docs/networks.md#tiktok-comments).
 */
export function createTikTokPublishing(
  api: TikTokPublishApi,
  timing: TikTokTiming,
  app: { unaudited?: boolean } = {},
): PublishingAdapter {
  const { uploadVideo } = createTikTokUploader(api, timing);

  /** post_info as the user chose it (docs/networks.md#tiktok-conformance); music only when asked for. */
  function postInfo(s: TikTokState, request: PublishRequest) {
    const common = {
      privacy_level: s.privacyLevel,
      disable_comment: s.disableComment,
      brand_content_toggle: s.brandContent === true,
      brand_organic_toggle: s.brandOrganic === true,
    };
    if (s.kind === 'photo')
      return {
        ...common,
        title: photoTitle(request.text),
        description: request.text,
        ...(s.autoAddMusic ? { auto_add_music: true } : {}),
      };
    return {
      ...common,
      title: request.text,
      disable_duet: s.disableDuet,
      disable_stitch: s.disableStitch,
      video_cover_timestamp_ms: 1000,
    };
  }

  /**
   * A draft in the creator's TikTok inbox (`MEDIA_UPLOAD`): photos with their title and
   * description only, a video with no post_info at all; privacy and the rest are chosen in the app.
   */
  async function startInbox(token: string, s: TikTokState, request: PublishRequest) {
    if (s.kind === 'photo') {
      const init = await api
        .initPhotos(token, {
          media_type: 'PHOTO',
          post_mode: 'MEDIA_UPLOAD',
          post_info: { title: photoTitle(request.text), description: request.text },
          source_info: {
            source: 'PULL_FROM_URL',
            photo_cover_index: 0,
            photo_images: request.media.map((m) => m.url),
          },
        })
        .catch((err: unknown) => {
          throw asUnknownOutcome(err);
        });
      return init.publish_id;
    }
    const video = request.media[0]!;
    if (s.source === 'PULL_FROM_URL') {
      const init = await api
        .initInboxVideo(token, { source_info: { source: 'PULL_FROM_URL', video_url: video.url } })
        .catch((err: unknown) => {
          throw asUnknownOutcome(err);
        });
      return init.publish_id;
    }
    return uploadVideo(token, null, video);
  }

  /** The init and, for FILE_UPLOAD, the bytes; returns the publish_id. */
  async function start(token: string, s: TikTokState, request: PublishRequest): Promise<string> {
    if (s.mode === 'inbox') return startInbox(token, s, request);
    const info = postInfo(s, request);
    if (s.kind === 'photo') {
      const init = await api
        .initPhotos(token, {
          media_type: 'PHOTO',
          post_mode: 'DIRECT_POST',
          post_info: info,
          source_info: {
            source: 'PULL_FROM_URL',
            photo_cover_index: 0,
            photo_images: request.media.map((m) => m.url),
          },
        })
        .catch((err: unknown) => {
          throw asUnknownOutcome(err);
        });
      return init.publish_id;
    }
    const video = request.media[0]!;
    if (s.source === 'PULL_FROM_URL') {
      const init = await api
        .initVideo(token, {
          post_info: info,
          source_info: { source: 'PULL_FROM_URL', video_url: video.url },
        })
        .catch((err: unknown) => {
          throw asUnknownOutcome(err);
        });
      return init.publish_id;
    }
    return uploadVideo(token, info, video);
  }

  function resultOf(
    s: TikTokState,
    publishId: string,
    status: TikTokPublishStatus | null,
  ): PublishResult {
    const postId = status?.publicaly_available_post_id?.[0];
    const extra: Record<string, unknown> = { publishId, status: status?.status ?? 'UNKNOWN' };
    if (s.username) extra.tiktokUsername = s.username;
    if (s.mode === 'inbox') extra.sentToInbox = true;
    if (!postId) return { externalId: publishId, permalink: null, extra };
    return {
      externalId: postId,
      permalink: s.username ? `https://www.tiktok.com/@${s.username}/video/${postId}` : null,
      extra,
    };
  }

  /**
   * Follows the status until TikTok shows the public post id, within the time budget. Once the
   * init is made the post is TikTok's to publish: a failing status read ends the wait, not the post.
   */
  async function followStatus(token: string, s: TikTokState, publishId: string) {
    const deadline = Date.now() + timing.statusBudgetMs;
    let status: TikTokPublishStatus | null = null;
    for (
      let delay = timing.statusFirstDelayMs;
      ;
      delay = Math.min(delay * 2, timing.statusMaxDelayMs)
    ) {
      await wait(delay);
      try {
        status = await api.fetchStatus(token, publishId);
      } catch {
        return resultOf(s, publishId, status);
      }
      if (status.status === 'FAILED') throw failedPublish(status.fail_reason);
      // A draft never gets a public id: it is done once it is in the creator's inbox.
      if (status.status === 'SEND_TO_USER_INBOX') return resultOf(s, publishId, status);
      if (status.publicaly_available_post_id?.length) return resultOf(s, publishId, status);
      if (Date.now() + Math.min(delay * 2, timing.statusMaxDelayMs) > deadline)
        return resultOf(s, publishId, status);
    }
  }

  function matches(video: TikTokVideo, s: TikTokState, request: PublishRequest, since: number) {
    if ((video.create_time ?? 0) * 1000 < since) return false;
    const text = request.text.trim();
    const title = s.kind === 'photo' ? photoTitle(request.text) : text;
    return (video.video_description ?? '').trim() === text || (video.title ?? '').trim() === title;
  }

  return {
    async prepare(account, request) {
      const kind = postKindOf(request);
      const creator = await api.creatorInfo(account.tokens.accessToken);
      if (kind === 'video') checkDuration(request.media[0]!, creator);
      const chosen = chosenSettings(request, creatorView(creator, app.unaudited === true), kind);
      const inbox = chosen.mode === 'inbox';
      const commercial = chosen.commercial && !inbox;
      const state: TikTokState = {
        kind,
        source: kind === 'photo' ? 'PULL_FROM_URL' : timing.videoSource,
        mode: chosen.mode,
        privacyLevel: inbox ? null : chosen.privacyLevel,
        username: creator.creator_username ?? null,
        // TikTok's guidelines: what the creator switched off in the app stays off.
        disableComment: !chosen.allowComments || creator.comment_disabled === true,
        disableDuet: !chosen.allowDuet || creator.duet_disabled === true,
        disableStitch: !chosen.allowStitch || creator.stitch_disabled === true,
        brandOrganic: commercial && chosen.yourBrand,
        brandContent: commercial && chosen.brandedContent,
        autoAddMusic: kind === 'photo' && chosen.autoAddMusic,
        preparedAt: new Date().toISOString(),
      };
      return { ...state };
    },

    // Nothing exists at TikTok before finalize: there is nothing to wait for.
    async check() {
      return { status: 'ready' };
    },

    async finalize(account, request, state) {
      const s = readState(state);
      const token = account.tokens.accessToken;
      const publishId = await start(token, s, request);
      return followStatus(token, s, publishId);
    },

    async reconcile(account: StoredAccount, request, state) {
      const s = readState(state);
      const videos = await api.listVideos(
        account.tokens.accessToken,
        ['id', 'title', 'video_description', 'create_time', 'share_url'],
        20,
      );
      const preparedAt = Date.parse(s.preparedAt);
      const found = videos
        .filter((v) => matches(v, s, request, preparedAt - 5 * 60_000))
        .sort((a, b) => (a.create_time ?? 0) - (b.create_time ?? 0))[0];
      if (found) {
        const extra: Record<string, unknown> = s.username ? { tiktokUsername: s.username } : {};
        const permalink =
          found.share_url ??
          (s.username ? `https://www.tiktok.com/@${s.username}/video/${found.id}` : null);
        return { externalId: found.id, permalink, extra };
      }
      if (Date.now() - preparedAt > TIKTOK_RECONCILE_SETTLED_MS) return null;
      throw new PlatformError(
        'unknown_outcome',
        'TikTok does not list the post yet; it may still be processing. Herald looks again later.',
      );
    },
  };
}
