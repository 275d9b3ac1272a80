import { z } from 'zod';
import { mediaKindOf, type MediaFacts } from './media-rules.js';

/**
 * What a YouTube video needs besides its file (docs/networks.md#youtube-publishing): the post's
 * text is its description; these travel with each YouTube account of a post, as TikTok's do.
 */
export const YOUTUBE_PRIVACY_STATUSES = ['public', 'unlisted', 'private'] as const;
export type YouTubePrivacyStatus = (typeof YOUTUBE_PRIVACY_STATUSES)[number];

export const YOUTUBE_PRIVACY_LABELS: Record<YouTubePrivacyStatus, string> = {
  public: 'Public',
  unlisted: 'Unlisted',
  private: 'Private',
};

/** YouTube's assignable video categories (videoCategories.list, region US), by id. */
export const YOUTUBE_CATEGORIES: Readonly<Record<string, string>> = {
  '1': 'Film & Animation',
  '2': 'Autos & Vehicles',
  '10': 'Music',
  '15': 'Pets & Animals',
  '17': 'Sports',
  '19': 'Travel & Events',
  '20': 'Gaming',
  '22': 'People & Blogs',
  '23': 'Comedy',
  '24': 'Entertainment',
  '25': 'News & Politics',
  '26': 'Howto & Style',
  '27': 'Education',
  '28': 'Science & Technology',
  '29': 'Nonprofits & Activism',
};
export const YOUTUBE_DEFAULT_CATEGORY = '22';

/** snippet.title: at most 100 characters, no angle brackets (YouTube answers `invalidTitle`). */
export const YOUTUBE_TITLE_MAX = 100;
/** snippet.description: at most 5,000 UTF-8 bytes, no angle brackets (`invalidDescription`). */
export const YOUTUBE_DESCRIPTION_MAX_BYTES = 5000;
/** snippet.tags: at most 500 characters all together, commas between them counted. */
export const YOUTUBE_TAGS_MAX = 500;
/** A vertical or square video of at most 3 minutes is a Short; YouTube has no flag to say it. */
export const YOUTUBE_SHORT_MAX_SECONDS = 180;
/** thumbnails.set: JPEG or PNG of at most 2 MB. */
export const YOUTUBE_THUMBNAIL_MAX_BYTES = 2 * 1024 * 1024;
export const YOUTUBE_THUMBNAIL_TYPES = ['image/jpeg', 'image/png'] as const;

export const YouTubePostSettingsSchema = z.object({
  title: z.string().trim().max(200).default(''),
  tags: z.array(z.string().trim().min(1).max(100)).max(100).default([]),
  categoryId: z
    .string()
    .regex(/^\d{1,3}$/, 'The category is not valid.')
    .default('22'),
  privacyStatus: z.enum(YOUTUBE_PRIVACY_STATUSES).default('public'),
  /**
   * Whether the video is made for kids (COPPA): null until the user says it. YouTube requires
   * the answer and Herald never assumes it.
   */
  madeForKids: z.boolean().nullable().default(null),
  /** Subscribers are told of the upload (videos.insert `notifySubscribers`). */
  notifySubscribers: z.boolean().default(true),
  /**
   * Upload as soon as the post is scheduled and let YouTube publish the video at the post's time
   * (`status.publishAt`; YouTube keeps it private until then), so a long upload cannot make the
   * post late. Public videos only: YouTube's scheduled publishing makes a private video public.
   */
  scheduleOnYouTube: z.boolean().default(false),
});
export type YouTubePostSettings = z.infer<typeof YouTubePostSettingsSchema>;

/**
 * Whether a YouTube target with these settings is uploaded as soon as its post is scheduled for
 * a later time, for YouTube to publish it then: `scheduleOnYouTube` on a public video.
 */
export function youtubeUploadsAhead(settings: unknown): boolean {
  const parsed = YouTubePostSettingsSchema.safeParse(settings ?? {});
  return parsed.success && parsed.data.scheduleOnYouTube && parsed.data.privacyStatus === 'public';
}

/** Account (integration) id → its YouTube settings (the multipart field `youtube`, as JSON). */
export const YouTubeSettingsByAccountSchema = z.record(z.string(), YouTubePostSettingsSchema);

/** How many characters YouTube counts for these tags: their lengths and the commas between. */
export const youtubeTagsLength = (tags: readonly string[]) =>
  tags.reduce((sum, tag) => sum + [...tag].length + (tag.includes(' ') ? 2 : 0), 0) +
  Math.max(0, tags.length - 1);

/** Whether YouTube will make this video a Short: vertical or square, at most three minutes. */
export function isYouTubeShort(video: Pick<MediaFacts, 'width' | 'height' | 'durationSec'>) {
  if (!video.width || !video.height || !video.durationSec) return false;
  return video.height >= video.width && video.durationSec <= YOUTUBE_SHORT_MAX_SECONDS;
}

export type YouTubeSettingsField =
  'title' | 'tags' | 'category' | 'madeForKids' | 'thumbnail' | 'scheduleOnYouTube';
export interface YouTubeSettingsIssue {
  field: YouTubeSettingsField;
  message: string;
}

/**
 * Why these settings cannot go to YouTube with these files (empty when they can), each with the
 * field it is about. Shared by the composer and the server.
 */
export function youtubeSettingsIssues(
  settings: YouTubePostSettings,
  media: readonly MediaFacts[],
  /** When the post goes out (null: at once) and the time now; absent: the time is not judged. */
  when?: { scheduledAt: Date | null; now: Date },
): YouTubeSettingsIssue[] {
  const issues: YouTubeSettingsIssue[] = [];
  const title = settings.title.trim();
  if (!title) issues.push({ field: 'title', message: 'Give the YouTube video a title.' });
  else if ([...title].length > YOUTUBE_TITLE_MAX)
    issues.push({
      field: 'title',
      message: `The YouTube title is ${[...title].length} characters long; YouTube takes at most ${YOUTUBE_TITLE_MAX}.`,
    });
  if (/[<>]/.test(title))
    issues.push({ field: 'title', message: 'YouTube titles cannot contain < or >.' });
  if (settings.tags.some((t) => /[<>]/.test(t)))
    issues.push({ field: 'tags', message: 'YouTube tags cannot contain < or >.' });
  const tagsLength = youtubeTagsLength(settings.tags);
  if (tagsLength > YOUTUBE_TAGS_MAX)
    issues.push({
      field: 'tags',
      message: `The YouTube tags add up to ${tagsLength} characters; YouTube takes at most ${YOUTUBE_TAGS_MAX}.`,
    });
  if (!YOUTUBE_CATEGORIES[settings.categoryId])
    issues.push({ field: 'category', message: 'Choose one of YouTube’s video categories.' });
  if (settings.madeForKids === null)
    issues.push({
      field: 'madeForKids',
      message:
        'Say whether the YouTube video is made for kids (YouTube requires the answer; Herald does not guess it).',
    });
  if (settings.scheduleOnYouTube) {
    // status.publishAt is only taken with privacyStatus private, and YouTube makes the video
    // public at that time: Herald asks for it only for a video meant to be public.
    // A post that goes out at once is uploaded as chosen: the choice does not apply to it.
    if (settings.privacyStatus !== 'public' && when?.scheduledAt !== null)
      issues.push({
        field: 'scheduleOnYouTube',
        message: `YouTube publishes a video at its scheduled time only to make it public; this one is ${YOUTUBE_PRIVACY_LABELS[settings.privacyStatus].toLowerCase()}. Choose Public, or let Herald upload it at the scheduled time.`,
      });
    if (when?.scheduledAt && when.scheduledAt.getTime() <= when.now.getTime())
      issues.push({
        field: 'scheduleOnYouTube',
        message:
          'The scheduled time has passed: YouTube publishes a video only at a time still to come. Choose a later time.',
      });
  }
  const video = media.find((m) => mediaKindOf(m) === 'video');
  const thumbnail = media.find((m) => mediaKindOf(m) === 'image');
  if (thumbnail) {
    if (!(YOUTUBE_THUMBNAIL_TYPES as readonly string[]).includes(thumbnail.mimeType))
      issues.push({
        field: 'thumbnail',
        message: `${thumbnail.fileName}: YouTube thumbnails are JPEG or PNG images.`,
      });
    if (thumbnail.size > YOUTUBE_THUMBNAIL_MAX_BYTES)
      issues.push({
        field: 'thumbnail',
        message: `${thumbnail.fileName}: YouTube thumbnails weigh at most 2 MB.`,
      });
    if (video && isYouTubeShort(video))
      issues.push({
        field: 'thumbnail',
        message:
          'This video is a YouTube Short (vertical, at most 3 minutes): YouTube sets no custom thumbnail on a Short through its API. Remove the image.',
      });
  }
  return issues;
}
