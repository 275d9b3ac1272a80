import { z } from 'zod';
import { WebUrlSchema, webUrlInput } from './web-url.js';
import { isTimeZone } from './auth.js';
import { parseDay } from './reschedule.js';
import { isoDateTime } from './text.js';
import { PageMetaSchema, successEnvelope } from './envelope.js';
import { MAX_FILES_PER_POST, MEDIA_KINDS, TOO_MANY_FILES_MESSAGE } from './media-rules.js';
import { MastodonPostSettingsSchema, MastodonSettingsByAccountSchema } from './mastodon.js';
import { TikTokPostSettingsSchema, TikTokSettingsByAccountSchema } from './tiktok.js';
import { YouTubePostSettingsSchema, YouTubeSettingsByAccountSchema } from './youtube.js';
import { GbpPostSettingsSchema, GbpSettingsByAccountSchema } from './google-business.js';
import { PinterestPostSettingsSchema, PinterestSettingsByAccountSchema } from './pinterest.js';
import { FollowUpSchema, FollowUpsByAccountSchema } from './follow-ups.js';
import { ALT_TEXT_MAX, AltTextsSchema, LinkTrackingSchema } from './composer-extras.js';
import { PostSourceSchema } from './feeds.js';

/**
 * Post statuses (docs/product.md#post-statuses); `publishing` while the engine works on it,
 * `partially_published` when some networks have it and others are still waiting or failed.
 * Lowercase on the wire.
 */
export const POST_STATUSES = [
  'draft',
  /** Submitted by a member without post:approve; waits for an approver (docs/product.md#approvals). */
  'pending_approval',
  'scheduled',
  'publishing',
  'partially_published',
  'published',
  'failed',
] as const;
export type PostStatus = (typeof POST_STATUSES)[number];

/** State of one post on one network (the publishing engine's target). */
export const TARGET_STATUSES = [
  'QUEUED',
  'PREPARING',
  'READY',
  'PUBLISHING',
  /**
   * Uploaded ahead of its time to a network that publishes it itself at `dueAt` (YouTube's
   * `status.publishAt`): it holds the network's id and follows its post until then
   * (docs/product.md#publish-states).
   */
  'UPLOADED',
  'PUBLISHED',
  'FAILED',
  'UNCERTAIN',
] as const;
export type TargetStatus = (typeof TARGET_STATUSES)[number];

/** docs/product.md#constants: the library shows 8 posts per page. */
export const LIBRARY_PAGE_SIZE = 8;
/** The list without paging parameters returns at most this many (newest first). */
export const POSTS_LIST_CAP = 500;

/**
 * Text: one string for every account, or a map with a `default` entry and entries keyed by
 * connected account (integration) id or by platform id (an account's own entry wins over its
 * network's, which wins over `default`).
 */
const PostContentSchema = z.union([z.string(), z.record(z.string(), z.string())]);
export type PostContent = z.infer<typeof PostContentSchema>;

const PostMediaSchema = z.object({
  id: z.string(),
  /** Short-lived signed URL (the networks fetch it too). */
  mediaUrl: z.string(),
  thumbnailUrl: z.string().nullable(),
  mimeType: z.string(),
  fileName: z.string(),
  kind: z.enum(MEDIA_KINDS),
  size: z.number().int(),
  width: z.number().int().nullable(),
  height: z.number().int().nullable(),
  durationSec: z.number().nullable(),
  /** The platforms or accounts (integration ids) this file is for; null when shared by all. */
  platformIds: z.array(z.string()).nullable(),
  /** The image's description for people who cannot see it; null when none was written. */
  altText: z.string().nullable().optional(),
});
export type PostMedia = z.infer<typeof PostMediaSchema>;

const PlatformPostSchema = z.object({
  id: z.string(),
  platformId: z.string(),
  platformName: z.string(),
  status: z.enum(TARGET_STATUSES),
  externalId: z.string().nullable(),
  permalink: WebUrlSchema.nullable(),
  error: z.string().nullable(),
  publishedAt: z.string().nullable(),
  /**
   * When a QUEUED target is due ("Queued for {time}"), or when the network publishes an UPLOADED
   * one; null when it waits for nobody's time.
   */
  dueAt: z.string().nullable(),
  /** The connected account it goes out from; null once that account was disconnected. */
  integrationId: z.string().nullable(),
  /** The account's name and handle as chosen (kept after a disconnect), and its avatar. */
  accountName: z.string().nullable(),
  accountUsername: z.string().nullable(),
  accountPictureUrl: WebUrlSchema.nullable(),
  /** A TikTok account's settings for this post (privacy, interactions, disclosure, inbox draft). */
  tiktok: TikTokPostSettingsSchema.nullable().optional(),
  /** A Mastodon account's settings for this post (content warning, visibility, language). */
  mastodon: MastodonPostSettingsSchema.nullable().optional(),
  /** A YouTube account's settings for this post (title, tags, category, privacy, made for kids). */
  youtube: YouTubePostSettingsSchema.nullable().optional(),
  /** A Google Business Profile location's settings (post type, event, offer, button). */
  googleBusiness: GbpPostSettingsSchema.nullable().optional(),
  /** A Pinterest account's settings for this pin (board, title, link). */
  pinterest: PinterestPostSettingsSchema.nullable().optional(),
  /** The thread's further parts (part 2 onward) and the first comment, in publishing order. */
  followUps: z.array(FollowUpSchema).optional(),
});
export type PlatformPost = z.infer<typeof PlatformPostSchema>;

/** One account a post goes to (docs/product.md#post-entity). */
const PostAccountSchema = z.object({
  /** The integration id; null once the account was disconnected. */
  id: z.string().nullable(),
  platformId: z.string(),
  platformName: z.string(),
  name: z.string().nullable(),
  username: z.string().nullable(),
  pictureUrl: WebUrlSchema.nullable(),
  /** False when the account was disconnected since: the post cannot go out from it. */
  connected: z.boolean(),
});
export type PostAccount = z.infer<typeof PostAccountSchema>;

export const PostSchema = z.object({
  id: z.string(),
  organizationId: z.string(),
  title: z.string().nullable(),
  status: z.enum(POST_STATUSES),
  content: PostContentSchema,
  /** The networks it goes to, once each (kept for compatibility; `accounts` says which accounts). */
  platforms: z.array(z.object({ id: z.string(), name: z.string() })),
  accounts: z.array(PostAccountSchema),
  platformPosts: z.array(PlatformPostSchema),
  media: z.array(PostMediaSchema),
  scheduledAt: z.string().nullable(),
  publishedAt: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
  creator: z.object({ id: z.string(), displayName: z.string().nullable() }).nullable(),
  /** The UTM parameters added to its links when published; null: links go out as written. */
  linkTracking: LinkTrackingSchema.nullable().optional(),
  /**
   * Whether its links go out as Herald's short links, which count clicks
   * (docs/analytics.md#short-links); null: as the organization's setting says.
   */
  shortLinks: z.boolean().nullable().optional(),
  /** Where it came from when Herald made it (docs/feeds.md: a feed's new item); null: by hand. */
  source: PostSourceSchema.nullable().optional(),
});
export type Post = z.infer<typeof PostSchema>;

export const PostParamsSchema = z.object({
  orgId: z.uuid('The organization id is not valid.'),
  postId: z.uuid('The post id is not valid.'),
});

/** `status=published` or several separated by commas (`status=published,partially_published`). */
const StatusFilterSchema = z.preprocess(
  (value) =>
    typeof value === 'string' && value.includes(',')
      ? value.split(',').map((part) => part.trim())
      : value,
  z.union([z.enum(POST_STATUSES), z.array(z.enum(POST_STATUSES)).min(1)]),
);

export const ListPostsQuerySchema = z.object({
  orgId: z.string().optional(),
  status: StatusFilterSchema.optional(),
  q: z.string().trim().max(200).optional(),
  from: isoDateTime('from').optional(),
  to: isoDateTime('to').optional(),
  /** Posts that go to this network (a platform id). */
  platformId: z.uuid('platformId must be the id of a network (a UUID).').optional(),
  /** Posts that go to this connected account (an integration id). */
  integrationId: z.uuid('integrationId must be the id of a connected account (a UUID).').optional(),
  /** `true`: only posts without a scheduled time (the calendar's Unscheduled tray). */
  unscheduled: z.stringbool({ error: 'unscheduled must be true or false.' }).optional(),
  page: z.coerce.number().int().min(1).optional(),
  pageSize: z.coerce.number().int().min(1).max(100).optional(),
});
export type ListPostsQuery = z.infer<typeof ListPostsQuerySchema>;

export const PostsResponseSchema = successEnvelope(z.object({ posts: z.array(PostSchema) })).extend(
  { meta: PageMetaSchema },
);
export const PostResponseSchema = successEnvelope(z.object({ post: PostSchema }));

/** PUT /organizations/{orgId}/posts/{postId}: new text, and optionally a new time. */
export const UpdatePostRequestSchema = z
  .object({
    content: PostContentSchema.optional(),
    /** ISO time to reschedule to; null returns the post to draft. */
    scheduledAt: isoDateTime('scheduledAt').nullable().optional(),
  })
  .refine((body) => body.content !== undefined || body.scheduledAt !== undefined, {
    message: 'Send the new content or a new scheduledAt.',
  });
export type UpdatePostRequest = z.infer<typeof UpdatePostRequestSchema>;

/** docs/product.md#content-library: the most posts one bulk action takes. */
export const BULK_POSTS_MAX = 100;

/** The posts a bulk action acts on: 1 to BULK_POSTS_MAX ids, in the order they are listed. */
export const BulkPostIdsSchema = z
  .array(z.uuid('Each post id must be the id of a post (a UUID).'))
  .min(1, 'Choose at least one post.')
  .max(BULK_POSTS_MAX, `Choose at most ${BULK_POSTS_MAX} posts at a time.`);

/**
 * POST /organizations/{orgId}/posts/bulk/{action} (docs/product.md#bulk-actions): the posts to
 * act on. All or nothing: when one of them cannot take the action (it is being published, or it
 * is already out and cannot go back to draft), the whole request is refused and names those
 * posts. Delete, draft, queue and duplicate take this body as it is.
 */
export const BulkPostsRequestSchema = z.object({ postIds: BulkPostIdsSchema });
export type BulkPostsRequest = z.infer<typeof BulkPostsRequestSchema>;
/**
 * The posts the action was applied to (each id once). `notice`: what the deletion could not take
 * back, as a sentence (a video uploaded ahead from an account disconnected since stays at the
 * network and goes public at its time).
 */
export const BulkPostsResponseSchema = successEnvelope(
  z.object({
    postIds: z.array(z.string()),
    count: z.number().int(),
    notice: z.string().optional(),
  }),
);
/**
 * `DELETE /organizations/{orgId}/posts/{postId}`: null, or a `notice` when something of the post
 * stays at a network (as for a bulk delete).
 */
export const DeletePostResponseSchema = successEnvelope(
  z.object({ notice: z.string() }).nullable(),
);

/** The furthest a bulk reschedule shifts posts, in days either way. */
export const BULK_SHIFT_MAX_DAYS = 365;

/**
 * `POST …/posts/bulk/reschedule`: either `date` ("YYYY-MM-DD": every post moves to that day,
 * keeping its own time of day) or `shiftDays` (every post moves by that many days, back when
 * negative, keeping its time of day). Days are read in `timeZone` when given (the zone the
 * member's screen shows), else the member's own zone, else the organization's.
 */
export const BulkRescheduleRequestSchema = z
  .object({
    postIds: BulkPostIdsSchema,
    date: z
      .string()
      .refine((value) => parseDay(value) !== null, 'date must be a day, like 2030-01-31.')
      .optional(),
    shiftDays: z
      .number({ error: 'shiftDays must be a whole number of days.' })
      .int('shiftDays must be a whole number of days.')
      .min(-BULK_SHIFT_MAX_DAYS, `Shift by at most ${BULK_SHIFT_MAX_DAYS} days.`)
      .max(BULK_SHIFT_MAX_DAYS, `Shift by at most ${BULK_SHIFT_MAX_DAYS} days.`)
      .refine((days) => days !== 0, 'Shift by at least one day.')
      .optional(),
    timeZone: z
      .string()
      .refine(isTimeZone, 'timeZone must be an IANA time zone name, such as Europe/Paris.')
      .optional(),
  })
  .refine((body) => (body.date === undefined) !== (body.shiftDays === undefined), {
    message: 'Send either date (move to a day) or shiftDays (move by days), not both.',
  });
export type BulkRescheduleRequest = z.infer<typeof BulkRescheduleRequestSchema>;

/** A post as a bulk action left it: its status and time. */
export const BulkChangedPostSchema = z.object({
  id: z.string(),
  status: z.enum(POST_STATUSES),
  scheduledAt: z.string().nullable(),
});
export type BulkChangedPost = z.infer<typeof BulkChangedPostSchema>;

/**
 * Reschedule, queue, approve and reject: the posts changed (each id once, in the order asked),
 * each with its status and time after the change (a member whose posts need approval sees them
 * `pending_approval`).
 */
export const BulkScheduleResponseSchema = successEnvelope(
  z.object({
    postIds: z.array(z.string()),
    count: z.number().int(),
    posts: z.array(BulkChangedPostSchema),
  }),
);
export type BulkScheduleResult = z.infer<typeof BulkScheduleResponseSchema>['data'];

/** `POST …/posts/bulk/duplicate`: the posts copied and their new drafts, in the same order. */
export const BulkDuplicateResponseSchema = successEnvelope(
  z.object({
    postIds: z.array(z.string()),
    count: z.number().int(),
    copyIds: z.array(z.string()),
  }),
);

/** What to do with a new post: keep it as a draft, schedule it, or publish it now. */
export const CREATE_POST_ACTIONS = ['draft', 'schedule', 'publish'] as const;
export type CreatePostAction = (typeof CREATE_POST_ACTIONS)[number];
/**
 * `action: 'queue'` ("Add to queue", docs/queue-and-import.md): scheduled at the next slot free
 * for every chosen account; `scheduledAt` is ignored.
 */
export const CREATE_POST_ACTIONS_WITH_QUEUE = [...CREATE_POST_ACTIONS, 'queue'] as const;

/**
 * The text fields of the multipart create payload (docs/product.md#post-entity), already parsed from strings.
 * `integrationIds`, `platformIds` and `platformMedia` arrive as JSON; `content` as text or a JSON object of strings.
 * The post goes to the accounts named by `integrationIds`; a platform id alone stands for that
 * network's account only while the organization has exactly one connected there.
 */
const PostFieldsObject = z.object({
  integrationIds: z
    .array(z.uuid('Each account id must be the id of a connected account (a UUID).'))
    .max(10, 'A post can go to at most 10 accounts.')
    .optional(),
  platformIds: z
    .array(z.uuid('Each platform id must be the id of a platform (a UUID).'))
    .max(10, 'A post can go to at most 10 platforms.')
    .optional(),
  content: PostContentSchema,
  scheduledAt: isoDateTime('scheduledAt').optional(),
  action: z.enum(CREATE_POST_ACTIONS_WITH_QUEUE).optional(),
  title: z.string().trim().max(200).optional(),
  /** Account (integration) id or platform id → indexes of its files among the uploaded files. */
  platformMedia: z.record(z.string(), z.array(z.number().int().min(0))).optional(),
  /** TikTok account (integration) id → its settings (docs/networks.md#tiktok-conformance). */
  tiktok: TikTokSettingsByAccountSchema.optional(),
  /** YouTube account (integration) id → its settings (docs/networks.md#youtube-publishing). */
  youtube: YouTubeSettingsByAccountSchema.optional(),
  /** Pinterest account (integration) id → its settings (docs/networks.md#pinterest-publishing). */
  pinterest: PinterestSettingsByAccountSchema.optional(),
  /**
   * Google Business Profile location (integration) id → its post type, event, offer and button
   * (docs/networks.md#google-business-profile-publishing).
   */
  googleBusiness: GbpSettingsByAccountSchema.optional(),
  /**
   * Mastodon account (integration) id → its content warning, visibility and language
   * (docs/networks.md#mastodon-post-settings).
   */
  mastodon: MastodonSettingsByAccountSchema.optional(),
  /**
   * Account (integration) id → its thread parts after the first (X, Threads) and its first
   * comment (X, Instagram, Facebook, LinkedIn): docs/product.md#threads-and-first-comments.
   */
  followUps: FollowUpsByAccountSchema.optional(),
  /** A new file's index (as text) or a kept file's id → its alt text (docs/product.md#alt-text). */
  altTexts: AltTextsSchema.optional(),
  /**
   * New files taken from the media library instead of uploaded (docs/media-library.md): a new
   * file's index (as text) → a library item's id. The uploaded files fill the other indexes in
   * their order; platformMedia and altTexts count both alike.
   */
  libraryMedia: z
    .record(
      z.string().regex(/^\d+$/, 'libraryMedia is keyed by the index of a new file, like "0".'),
      z.uuid('libraryMedia names library items by their id (a UUID).'),
    )
    .optional(),
  /** UTM parameters for the post's links (docs/product.md#link-tracking); null: none. */
  linkTracking: LinkTrackingSchema.nullable().optional(),
  /**
   * Links as Herald's short links that count clicks (docs/analytics.md#short-links); null or
   * left out on create: as the organization's setting says.
   */
  shortLinks: z.boolean({ error: 'shortLinks must be true, false or null.' }).nullable().optional(),
});
const namesAnAccount = {
  check: (f: { integrationIds?: string[]; platformIds?: string[] }) =>
    (f.integrationIds?.length ?? 0) + (f.platformIds?.length ?? 0) > 0,
  params: { message: 'Select at least one account to post to.', path: ['integrationIds'] },
};
export const CreatePostFieldsSchema = PostFieldsObject.refine(
  namesAnAccount.check,
  namesAnAccount.params,
);
export type CreatePostFields = z.infer<typeof CreatePostFieldsSchema>;

/**
 * The text fields of the multipart edit payload (PUT /organizations/{orgId}/post/{postId}): the
 * post as it should be from now on, in the create payload's words (absent title or time: none).
 * `keepMediaIds` lists the post's stored files that stay, in their new order (the others are
 * removed); new files follow them. `platformMedia` gives a file to some accounts only: a number
 * is the index of a new file among the uploaded ones, a string the id of a kept file; a file no
 * key lists goes to every account. What already went out to an account (or is going out, or
 * needs a check) stays as it is for that account.
 */
const EditPostFieldsObject = PostFieldsObject.extend({
  keepMediaIds: z
    .array(z.uuid('Each id in keepMediaIds must be the id of a file of this post (a UUID).'))
    .max(MAX_FILES_PER_POST)
    .optional(),
  platformMedia: z
    .record(
      z.string(),
      z.array(
        z.union([
          z.number().int().min(0),
          z.uuid('platformMedia lists new files by index and kept files by id.'),
        ]),
      ),
    )
    .optional(),
});
export const EditPostFieldsSchema = EditPostFieldsObject.refine(
  namesAnAccount.check,
  namesAnAccount.params,
);
export type EditPostFields = z.infer<typeof EditPostFieldsSchema>;

/**
 * A file given by its address in a JSON post (docs/api.md): Herald downloads it through its
 * guarded fetch, checks it as it checks an upload, and stores it with the post.
 */
export const MediaByUrlSchema = z.object({
  url: z
    .string()
    .trim()
    .min(1, 'Each media entry needs the url of its file.')
    .max(2048, 'A media url can be at most 2048 characters.'),
  /** The image's description for people who cannot see it. */
  altText: z
    .string()
    .max(ALT_TEXT_MAX, `Alt text can be at most ${ALT_TEXT_MAX} characters.`)
    .optional(),
});
export type MediaByUrl = z.infer<typeof MediaByUrlSchema>;

const mediaByUrl = z
  .array(MediaByUrlSchema)
  .max(MAX_FILES_PER_POST, TOO_MANY_FILES_MESSAGE)
  .optional()
  .describe(
    'The files, in order, each fetched from its url; platformMedia and altTexts count them from 0.',
  );

/**
 * POST /organizations/{orgId}/post as application/json: the multipart fields as JSON values, and
 * `media` by url instead of uploaded files. All or nothing: a file that cannot be fetched or is
 * refused refuses the post.
 */
export const CreatePostJsonSchema = PostFieldsObject.extend({ media: mediaByUrl }).refine(
  namesAnAccount.check,
  namesAnAccount.params,
);
export type CreatePostJson = z.infer<typeof CreatePostJsonSchema>;

/**
 * PUT /organizations/{orgId}/post/{postId} as application/json: the edit fields as JSON values;
 * `keepMediaIds` keeps stored files of the post and `media` adds new ones by url, after them.
 */
export const EditPostJsonSchema = EditPostFieldsObject.extend({ media: mediaByUrl }).refine(
  namesAnAccount.check,
  namesAnAccount.params,
);
export type EditPostJson = z.infer<typeof EditPostJsonSchema>;

/** How the multipart create form looks in the OpenAPI document (every field is text but the files). */
const multipartFields = {
  integrationIds: z.string().optional().describe('JSON array of connected account ids'),
  platformIds: z.string().optional().describe('JSON array of platform ids'),
  content: z.string().describe('Text, or a JSON object of texts keyed by account or platform id'),
  scheduledAt: z.string().optional().describe('ISO 8601 time'),
  action: z.enum(CREATE_POST_ACTIONS_WITH_QUEUE).optional(),
  title: z.string().optional(),
  platformMedia: z.string().optional().describe('JSON: account or platform id → file indexes'),
  altTexts: z.string().optional().describe('JSON: file index (or kept file id) → alt text'),
  libraryMedia: z
    .string()
    .optional()
    .describe('JSON: new file index → media library item id (reused without uploading)'),
  linkTracking: z.string().optional().describe('JSON: UTM parameters'),
  shortLinks: z
    .string()
    .optional()
    .describe('true, false or null: links as short links that count clicks'),
  tiktok: z.string().optional().describe('JSON: TikTok account id → its settings'),
  mastodon: z
    .string()
    .optional()
    .describe('JSON: Mastodon account id → content warning, visibility and language'),
  googleBusiness: z
    .string()
    .optional()
    .describe('JSON: Google Business Profile location id → post type, event, offer and button'),
  followUps: z.string().optional().describe('JSON: account id → thread parts and first comment'),
  media: z.array(z.file()).optional().describe('The files, after the text fields'),
};
export const CreatePostMultipartSchema = z.object(multipartFields);
export const EditPostMultipartSchema = z.object({
  ...multipartFields,
  keepMediaIds: z.string().optional().describe('JSON array of the stored file ids that stay'),
});

/** One refusal of a file or text for one platform (400 details.platformValidationErrors). */
export const PlatformValidationErrorSchema = z.object({
  platformName: z.string(),
  message: z.string(),
});
export type PlatformValidationError = z.infer<typeof PlatformValidationErrorSchema>;

/** The text a platform gets: its own entry, else `default`, else the plain string. */
export function contentForPlatform(content: PostContent, platformId: string): string {
  if (typeof content === 'string') return content;
  return content[platformId] ?? content.default ?? '';
}

/** The text one account gets: its own entry, else its network's, else `default`. */
export function contentForAccount(
  content: PostContent,
  target: { integrationId: string | null; platformId: string },
): string {
  if (typeof content === 'string') return content;
  const own = target.integrationId ? content[target.integrationId] : undefined;
  return own ?? contentForPlatform(content, target.platformId);
}

/** Whether a file meant for `owners` (null: everyone) goes to this account. */
export function mediaGoesTo(
  owners: readonly string[] | null,
  target: { integrationId: string | null; platformId: string },
): boolean {
  if (!owners) return true;
  return (
    owners.includes(target.platformId) ||
    (target.integrationId !== null && owners.includes(target.integrationId))
  );
}

/** The default text of a post (library cards, search). */
export function defaultContent(content: PostContent): string {
  if (typeof content === 'string') return content;
  return content.default ?? Object.values(content).find((text) => text.trim() !== '') ?? '';
}

/** docs/product.md#calendar and the calendar: a post's date is date, then scheduledAt, then createdAt. */
export function postDate(post: {
  date?: string | null;
  scheduledAt?: string | null;
  createdAt?: string | null;
}): Date | null {
  for (const value of [post.date, post.scheduledAt, post.createdAt]) {
    if (!value) continue;
    const date = new Date(value);
    if (!Number.isNaN(date.getTime())) return date;
  }
  return null;
}

/**
 * PATCH /organizations/{orgId}/post/{postId}/publish: what to publish now — network names (every
 * account of that network the post goes to) or account (integration) ids.
 */
export const PublishNowRequestSchema = z.object({
  platforms: z
    .array(z.string().trim().min(1))
    .min(1, 'Please select at least one platform to publish.')
    .max(10),
});

const PublishResultStatusSchema = z.enum(['success', 'failed', 'pending']);
/** docs/product.md#api-calls: overall status, one result per network name, and a sentence. */
export const PublishNowResponseSchema = z.object({
  status: z.enum(['success', 'partial_success', 'failed']),
  results: z.record(
    z.string(),
    z.object({ status: PublishResultStatusSchema, error: z.string().nullable() }),
  ),
  message: z.string(),
});
export type PublishNowResponse = z.infer<typeof PublishNowResponseSchema>;

export const TargetParamsSchema = PostParamsSchema.extend({
  targetId: z.uuid('The publication id is not valid.'),
});
/** After an UNCERTAIN publication: the user checked the network and says what happened. */
export const ResolveTargetRequestSchema = z.object({
  outcome: z.enum(['published', 'retry']),
  permalink: webUrlInput('The link must be a full web address (http or https).').optional(),
});
export type ResolveTargetRequest = z.infer<typeof ResolveTargetRequestSchema>;

/** docs/product.md#comment-entity, as the networks' comments are shown (nested replies). */
export interface Comment {
  id: string;
  message: string;
  likes: number;
  created_time: string;
  from: { id: string; name: string; picture: { data: { url: string | null } } };
  /** The connected account wrote it: Edit and Delete are offered. */
  isOwn: boolean;
  replies: Comment[];
}
const CommentSchema: z.ZodType<Comment> = z
  .lazy(() =>
    z.object({
      id: z.string(),
      message: z.string(),
      likes: z.number().int(),
      created_time: z.string(),
      from: z.object({
        id: z.string(),
        name: z.string(),
        picture: z.object({ data: z.object({ url: WebUrlSchema.nullable() }) }),
      }),
      isOwn: z.boolean(),
      replies: z.array(CommentSchema),
    }),
  )
  .meta({
    // A named component: the OpenAPI document refers to it from its own replies.
    id: 'Comment',
  });

export const PostPlatformParamsSchema = PostParamsSchema.extend({
  platformId: z.uuid('The platform id is not valid.'),
});
/**
 * Which of the post's accounts on the network a comment call is about, where it went out from
 * several (two X accounts): each has its own post there, with its own comments. Without it, the
 * first published one.
 */
const CommentAccountSchema = z
  .uuid('integrationId must be the id of a connected account (a UUID).')
  .optional();

export const CommentsQuerySchema = z.object({
  cursor: z.string().max(500).optional(),
  limit: z.coerce.number().int().min(1).max(100).default(25),
  integrationId: CommentAccountSchema,
});
/** DELETE …/comment/{commentId}?integrationId=: the account whose comment it is. */
export const CommentAccountQuerySchema = z.object({ integrationId: CommentAccountSchema });
export const CommentsResponseSchema = successEnvelope(
  z.object({ comments: z.array(CommentSchema) }),
).extend({ meta: z.object({ nextCursor: z.string().nullable() }) });

export const CommentParamsSchema = z.object({
  orgId: z.uuid('The organization id is not valid.'),
  platformId: z.uuid('The platform id is not valid.'),
  commentId: z.string().min(1).max(200),
});
/** docs/product.md#publish-and-reply-rules: 'Reply cannot be empty.' The post is named so networks that need it can thread. */
export const ReplyRequestSchema = z.object({
  message: z.string().trim().min(1, 'Reply cannot be empty.').max(10_000),
  postId: z.uuid().optional(),
  integrationId: CommentAccountSchema,
});
export const EditCommentRequestSchema = z.object({
  message: z.string().trim().min(1, 'A comment cannot be empty.').max(10_000),
  postId: z.uuid().optional(),
  integrationId: CommentAccountSchema,
});
export const ReplyResponseSchema = successEnvelope(z.object({ data: CommentSchema }));

/** docs/product.md#api-calls: `data.data.shortcode` for the Instagram embed; permalink for the others. */
export const PostEmbedResponseSchema = successEnvelope(
  z.object({
    data: z.object({
      platformName: z.string(),
      externalId: z.string(),
      shortcode: z.string().nullable(),
      permalink: WebUrlSchema.nullable(),
      username: z.string().nullable(),
    }),
  }),
);
export const FacebookPermalinkResponseSchema = successEnvelope(
  z.object({ permalink: WebUrlSchema }),
);
