import {
  TIKTOK_PRIVACY_LEVELS,
  TikTokPostSettingsSchema,
  tiktokSettingsProblems,
  type TikTokCreatorInfo,
  type TikTokPostSettings,
  type TikTokPrivacyLevel,
} from '@herald/contract';
import { PlatformError } from '../errors.js';
import type { PublishRequest } from '../types.js';
import { TIKTOK_UNAUDITED } from './limits.js';
import type { TikTokCreator } from './publish-api.js';

/**
 * creator_info as the composer shows it (docs/networks.md#tiktok-conformance). While Herald's app
 * is not audited only SELF_ONLY is offered, since TikTok refuses any other level.
 */
export function creatorView(creator: TikTokCreator, unaudited: boolean): TikTokCreatorInfo {
  const known = (creator.privacy_level_options ?? []).filter((p): p is TikTokPrivacyLevel =>
    (TIKTOK_PRIVACY_LEVELS as readonly string[]).includes(p),
  );
  return {
    nickname: creator.creator_nickname ?? creator.creator_username ?? '',
    username: creator.creator_username ?? null,
    avatarUrl: creator.creator_avatar_url ?? null,
    privacyLevelOptions: unaudited
      ? known.filter((p) => p === TIKTOK_UNAUDITED.privacyLevel)
      : known,
    commentDisabled: creator.comment_disabled === true,
    duetDisabled: creator.duet_disabled === true,
    stitchDisabled: creator.stitch_disabled === true,
    maxVideoPostDurationSec: creator.max_video_post_duration_sec ?? null,
    unaudited,
  };
}

/**
 * The settings the user chose for this TikTok account, checked against what the creator allows
 * now: TikTok's guidelines forbid choosing the privacy level for them, so a post without a
 * choice is refused rather than posted with a default.
 */
export function chosenSettings(
  request: PublishRequest,
  creator: TikTokCreatorInfo,
  kind: 'video' | 'photo',
): TikTokPostSettings {
  const parsed = TikTokPostSettingsSchema.safeParse(request.settings ?? undefined);
  if (!request.settings || !parsed.success)
    throw new PlatformError(
      'bad_request',
      'Choose who can see this TikTok post first: edit the post and pick a privacy level in its TikTok section.',
    );
  const settings = parsed.data;
  if (creator.unaudited && settings.mode === 'direct' && settings.privacyLevel !== 'SELF_ONLY')
    throw new PlatformError(
      'bad_request',
      'Herald\'s TikTok app is not audited yet, so it can only post privately ("Only me"): edit the post and choose it.',
    );
  const video = kind === 'video' ? request.media[0] : undefined;
  const problems = tiktokSettingsProblems(settings, creator, {
    hasVideo: kind === 'video',
    videoSeconds: video?.durationSec ?? null,
  });
  if (problems.length > 0) throw new PlatformError('bad_request', problems.join(' '));
  return settings;
}
