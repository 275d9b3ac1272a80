import { z } from 'zod';
import { isoDateTime } from './text.js';
import { PageMetaSchema, successEnvelope } from './envelope.js';
import { MEDIA_KINDS } from './media-rules.js';

/** Post statuses (docs/product.md#post-statuses); `publishing` while the engine works on it. Lowercase on the wire. */
export const POST_STATUSES = ['draft', 'scheduled', 'publishing', 'published', 'failed'] as const;
export type PostStatus = (typeof POST_STATUSES)[number];

/** State of one post on one network (the publishing engine's target). */
export const TARGET_STATUSES = [
  'QUEUED',
  'PREPARING',
  'READY',
  'PUBLISHING',
  'PUBLISHED',
  'FAILED',
  'UNCERTAIN',
] as const;
export type TargetStatus = (typeof TARGET_STATUSES)[number];

/** docs/product.md#constants: the library shows 8 posts per page. */
export const LIBRARY_PAGE_SIZE = 8;
/** The list without paging parameters returns at most this many (newest first). */
export const POSTS_LIST_CAP = 500;

/** Text: one string for every network, or a map keyed by platform id with a `default` entry. */
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
  /** The platforms this file is for; null when shared by all. */
  platformIds: z.array(z.string()).nullable(),
});
export type PostMedia = z.infer<typeof PostMediaSchema>;

const PlatformPostSchema = z.object({
  id: z.string(),
  platformId: z.string(),
  platformName: z.string(),
  status: z.enum(TARGET_STATUSES),
  externalId: z.string().nullable(),
  permalink: z.string().nullable(),
  error: z.string().nullable(),
  publishedAt: z.string().nullable(),
});
export type PlatformPost = z.infer<typeof PlatformPostSchema>;

const PostSchema = z.object({
  id: z.string(),
  organizationId: z.string(),
  title: z.string().nullable(),
  status: z.enum(POST_STATUSES),
  content: PostContentSchema,
  platforms: z.array(z.object({ id: z.string(), name: z.string() })),
  platformPosts: z.array(PlatformPostSchema),
  media: z.array(PostMediaSchema),
  scheduledAt: z.string().nullable(),
  publishedAt: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
  creator: z.object({ id: z.string(), displayName: z.string().nullable() }).nullable(),
});
export type Post = z.infer<typeof PostSchema>;

export const PostParamsSchema = z.object({
  orgId: z.uuid('The organization id is not valid.'),
  postId: z.uuid('The post id is not valid.'),
});

export const ListPostsQuerySchema = z.object({
  orgId: z.string().optional(),
  status: z.enum(POST_STATUSES).optional(),
  q: z.string().trim().max(200).optional(),
  from: isoDateTime('from').optional(),
  to: isoDateTime('to').optional(),
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

/** What to do with a new post: keep it as a draft, schedule it, or publish it now. */
export const CREATE_POST_ACTIONS = ['draft', 'schedule', 'publish'] as const;
export type CreatePostAction = (typeof CREATE_POST_ACTIONS)[number];

/**
 * The text fields of the multipart create payload (docs/product.md#post-entity), already parsed from strings.
 * `platformIds` and `platformMedia` arrive as JSON; `content` as text or a JSON object of strings.
 */
export const CreatePostFieldsSchema = z.object({
  platformIds: z
    .array(z.uuid('Each platform id must be the id of a platform (a UUID).'))
    .min(1, 'Select at least one platform.')
    .max(10, 'A post can go to at most 10 platforms.'),
  content: PostContentSchema,
  scheduledAt: isoDateTime('scheduledAt').optional(),
  action: z.enum(CREATE_POST_ACTIONS).optional(),
  title: z.string().trim().max(200).optional(),
  /** Platform id → indexes of its files among the uploaded files. */
  platformMedia: z.record(z.string(), z.array(z.number().int().min(0))).optional(),
});
export type CreatePostFields = z.infer<typeof CreatePostFieldsSchema>;

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

/** PATCH /organizations/{orgId}/post/{postId}/publish: the networks to publish to now. */
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
  permalink: z.url('The link must be a full URL.').optional(),
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
const CommentSchema: z.ZodType<Comment> = z.lazy(() =>
  z.object({
    id: z.string(),
    message: z.string(),
    likes: z.number().int(),
    created_time: z.string(),
    from: z.object({
      id: z.string(),
      name: z.string(),
      picture: z.object({ data: z.object({ url: z.string().nullable() }) }),
    }),
    isOwn: z.boolean(),
    replies: z.array(CommentSchema),
  }),
);

export const PostPlatformParamsSchema = PostParamsSchema.extend({
  platformId: z.uuid('The platform id is not valid.'),
});
export const CommentsQuerySchema = z.object({
  cursor: z.string().max(500).optional(),
  limit: z.coerce.number().int().min(1).max(100).default(25),
});
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
});
export const EditCommentRequestSchema = z.object({
  message: z.string().trim().min(1, 'A comment cannot be empty.').max(10_000),
  postId: z.uuid().optional(),
});
export const ReplyResponseSchema = successEnvelope(z.object({ data: CommentSchema }));

/** docs/product.md#api-calls: `data.data.shortcode` for the Instagram embed; permalink for the others. */
export const PostEmbedResponseSchema = successEnvelope(
  z.object({
    data: z.object({
      platformName: z.string(),
      externalId: z.string(),
      shortcode: z.string().nullable(),
      permalink: z.string().nullable(),
      username: z.string().nullable(),
    }),
  }),
);
export const FacebookPermalinkResponseSchema = successEnvelope(z.object({ permalink: z.string() }));
