import { z } from 'zod';
import { WebUrlSchema } from './web-url.js';
import { successEnvelope } from './envelope.js';

/**
 * TikTok's content-sharing guidelines (docs/networks.md#tiktok-conformance): before a post goes
 * to TikTok the user sees the creator's nickname, chooses who sees it among what creator_info
 * offers (no default), chooses comments/duet/stitch within what the creator allows, and says
 * whether it is commercial content. These settings travel with each TikTok account of a post.
 */
export const TIKTOK_PRIVACY_LEVELS = [
  'PUBLIC_TO_EVERYONE',
  'MUTUAL_FOLLOW_FRIENDS',
  'FOLLOWER_OF_CREATOR',
  'SELF_ONLY',
] as const;
export type TikTokPrivacyLevel = (typeof TIKTOK_PRIVACY_LEVELS)[number];

/** How TikTok's own app names each privacy level. */
export const TIKTOK_PRIVACY_LABELS: Record<TikTokPrivacyLevel, string> = {
  PUBLIC_TO_EVERYONE: 'Everyone',
  MUTUAL_FOLLOW_FRIENDS: 'Friends',
  FOLLOWER_OF_CREATOR: 'Followers',
  SELF_ONLY: 'Only me',
};

/**
 * `direct`: Herald posts it (Direct Post). `inbox`: Herald sends it to the creator's TikTok inbox
 * as a draft (`MEDIA_UPLOAD`), and the creator chooses privacy and the rest in the TikTok app.
 */
export const TIKTOK_POST_MODES = ['direct', 'inbox'] as const;

export const TikTokPostSettingsSchema = z.object({
  mode: z.enum(TIKTOK_POST_MODES).default('direct'),
  /** Null until the user chooses: TikTok forbids choosing it for them. */
  privacyLevel: z.enum(TIKTOK_PRIVACY_LEVELS).nullable().default(null),
  allowComments: z.boolean().default(false),
  allowDuet: z.boolean().default(false),
  allowStitch: z.boolean().default(false),
  /** "Disclose post content": the post promotes a brand, a product or a service. */
  commercial: z.boolean().default(false),
  /** "Your brand": the creator promotes themselves or their own business (brand_organic_toggle). */
  yourBrand: z.boolean().default(false),
  /** "Branded content": a paid partnership promoting a third party (brand_content_toggle). */
  brandedContent: z.boolean().default(false),
  /** Photo posts only; TikTok adds music only when the user asked for it. */
  autoAddMusic: z.boolean().default(false),
});
export type TikTokPostSettings = z.infer<typeof TikTokPostSettingsSchema>;

/** Account (integration) id → its TikTok settings (the multipart field `tiktok`, as JSON). */
export const TikTokSettingsByAccountSchema = z.record(z.string(), TikTokPostSettingsSchema);

/** What the composer shows for one TikTok account, read from creator_info when it is chosen. */
export const TikTokCreatorInfoSchema = z.object({
  nickname: z.string(),
  username: z.string().nullable(),
  avatarUrl: WebUrlSchema.nullable(),
  /** The levels the user may choose from (only SELF_ONLY while Herald's app is not audited). */
  privacyLevelOptions: z.array(z.enum(TIKTOK_PRIVACY_LEVELS)),
  commentDisabled: z.boolean(),
  duetDisabled: z.boolean(),
  stitchDisabled: z.boolean(),
  maxVideoPostDurationSec: z.number().nullable(),
  /** Herald's TikTok app is not audited yet (TIKTOK_UNAUDITED): posts can only be private. */
  unaudited: z.boolean(),
});
export type TikTokCreatorInfo = z.infer<typeof TikTokCreatorInfoSchema>;

export const TikTokCreatorInfoParamsSchema = z.object({
  orgId: z.uuid('The organization id is not valid.'),
  integrationId: z.uuid('The account id is not valid.'),
});
export const TikTokCreatorInfoResponseSchema = successEnvelope(
  z.object({ creator: TikTokCreatorInfoSchema }),
);

/** The consent sentence TikTok requires next to the post button (content-sharing guidelines). */
export function tiktokConsentSentence(
  settings: Pick<TikTokPostSettings, 'commercial' | 'brandedContent'>,
) {
  return settings.commercial && settings.brandedContent
    ? "By posting, you agree to TikTok's Branded Content Policy and Music Usage Confirmation."
    : "By posting, you agree to TikTok's Music Usage Confirmation.";
}

export interface TikTokPostFacts {
  /** The post carries a video (duet, stitch and the duration limit apply). */
  hasVideo: boolean;
  /** The longest video of the post, in seconds, when known. */
  videoSeconds?: number | null;
}

/** The field of the TikTok settings a problem is about, so the composer shows it beside that field. */
export type TikTokSettingsField = 'video' | 'privacy' | 'disclosure' | 'interactions';
export interface TikTokSettingsIssue {
  field: TikTokSettingsField;
  message: string;
}

/**
 * Why these settings cannot go to TikTok for this creator, each with the field it is about
 * (empty when they can). `creator` is null when creator_info could not be read: only the rules
 * that hold for any creator apply then. Shared by the composer and the server.
 */
export function tiktokSettingsIssues(
  settings: TikTokPostSettings,
  creator: TikTokCreatorInfo | null,
  facts: TikTokPostFacts,
): TikTokSettingsIssue[] {
  const problems: TikTokSettingsIssue[] = [];
  const max = creator?.maxVideoPostDurationSec;
  if (facts.hasVideo && max && facts.videoSeconds && facts.videoSeconds > max)
    problems.push({
      field: 'video',
      message: `This TikTok account can post videos of up to ${max} seconds; this one lasts ${Math.round(facts.videoSeconds)}.`,
    });
  // In the inbox the creator chooses everything in the TikTok app.
  if (settings.mode === 'inbox') return problems;
  if (!settings.privacyLevel) {
    problems.push({
      field: 'privacy',
      message: 'Choose who can see the TikTok post (TikTok does not let Herald choose for you).',
    });
  } else if (creator && !creator.privacyLevelOptions.includes(settings.privacyLevel)) {
    problems.push({
      field: 'privacy',
      message: `TikTok does not offer "${TIKTOK_PRIVACY_LABELS[settings.privacyLevel]}" to this account right now; choose one of ${creator.privacyLevelOptions.map((p) => `"${TIKTOK_PRIVACY_LABELS[p]}"`).join(', ')}.`,
    });
  }
  if (settings.commercial && !settings.yourBrand && !settings.brandedContent)
    problems.push({
      field: 'disclosure',
      message:
        'You said the TikTok post promotes a brand, a product or a service: choose "Your brand", "Branded content" or both.',
    });
  if (settings.commercial && settings.brandedContent && settings.privacyLevel === 'SELF_ONLY')
    problems.push({
      field: 'privacy',
      message:
        'Branded content cannot be private on TikTok: choose who can see it other than "Only me".',
    });
  if (creator?.commentDisabled && settings.allowComments)
    problems.push({
      field: 'interactions',
      message: 'This TikTok account has comments turned off, so they cannot be allowed.',
    });
  if (facts.hasVideo && creator?.duetDisabled && settings.allowDuet)
    problems.push({
      field: 'interactions',
      message: 'This TikTok account has duets turned off, so they cannot be allowed.',
    });
  if (facts.hasVideo && creator?.stitchDisabled && settings.allowStitch)
    problems.push({
      field: 'interactions',
      message: 'This TikTok account has stitches turned off, so they cannot be allowed.',
    });
  return problems;
}

/** `tiktokSettingsIssues` as sentences. */
export function tiktokSettingsProblems(
  settings: TikTokPostSettings,
  creator: TikTokCreatorInfo | null,
  facts: TikTokPostFacts,
): string[] {
  return tiktokSettingsIssues(settings, creator, facts).map((issue) => issue.message);
}
