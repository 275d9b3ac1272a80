import { z } from 'zod';
import { LinkTrackingSchema } from './composer-extras.js';
import { successEnvelope } from './envelope.js';
import { MastodonPostSettingsSchema } from './mastodon.js';
import { GbpPostSettingsSchema } from './google-business.js';
import { CREATE_POST_ACTIONS } from './posts.js';

/** The longest text a draft keeps for one field: more than any network takes. */
export const COMPOSER_DRAFT_TEXT_MAX = 100_000;
const text = (what: string) =>
  z
    .string()
    .max(COMPOSER_DRAFT_TEXT_MAX, `${what} can be at most ${COMPOSER_DRAFT_TEXT_MAX} characters.`);
const accountId = z.uuid('An account id of the draft is not valid.');

/**
 * What the composer keeps of unfinished work (docs/product.md#composer-autosave): the form's
 * accounts, texts, title, action and time, and its link tracking. Files are not uploaded before
 * the post is sent, so only those a post already stores are kept, by id.
 */
export const ComposerDraftBodySchema = z.object({
  platformIds: z.array(accountId).max(200),
  mode: z.enum(['shared', 'custom']),
  sharedText: text('The text'),
  customTexts: z.record(accountId, text('An account’s text')),
  title: z.string().max(500, 'The title can be at most 500 characters.'),
  action: z.enum(CREATE_POST_ACTIONS),
  /** The picker's wall-clock value (`YYYY-MM-DDTHH:mm`), or empty. */
  scheduleAt: z
    .string()
    .regex(/^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2})?$/, 'The publish time is not a date and time.'),
  linkTracking: LinkTrackingSchema.nullable().optional(),
  /** Each Mastodon account's content warning, visibility and language. */
  mastodon: z.record(accountId, MastodonPostSettingsSchema).optional(),
  /** Each Google Business Profile location's post type, event, offer and button. */
  googleBusiness: z.record(accountId, GbpPostSettingsSchema).optional(),
  /** Editing: the post's stored files still in the form (shared, and per account). */
  keptMedia: z
    .object({
      shared: z.array(z.uuid()).max(100),
      platform: z.record(accountId, z.array(z.uuid()).max(100)),
    })
    .optional(),
});
export type ComposerDraftBody = z.infer<typeof ComposerDraftBodySchema>;

/** `PUT …/composer-draft`: the draft of a new post (`postId` null) or of an edit of that post. */
export const SaveComposerDraftRequestSchema = z.object({
  postId: z.uuid('The post id is not valid.').nullable(),
  body: ComposerDraftBodySchema,
});
export type SaveComposerDraftRequest = z.infer<typeof SaveComposerDraftRequestSchema>;

/** `GET` and `DELETE …/composer-draft?postId=`: without `postId`, the new post's draft. */
export const ComposerDraftQuerySchema = z.object({
  postId: z.uuid('The post id is not valid.').optional(),
});

export const ComposerDraftSchema = z.object({
  postId: z.uuid().nullable(),
  body: ComposerDraftBodySchema,
  updatedAt: z.string(),
});
export type ComposerDraft = z.infer<typeof ComposerDraftSchema>;

export const ComposerDraftResponseSchema = successEnvelope(
  z.object({ draft: ComposerDraftSchema.nullable() }),
);

/** docs/product.md#hashtag-groups: a hashtag as saved, `#` included, letters, digits and `_`. */
const hashtag = z
  .string()
  .trim()
  .transform((tag) => (tag.startsWith('#') ? tag : `#${tag}`))
  .pipe(
    z
      .string()
      .regex(
        /^#[\p{L}\p{N}_]{1,100}$/u,
        'A hashtag is letters, digits or _ after the #, without spaces or punctuation.',
      ),
  );

/** `POST` and `PUT …/hashtag-groups`: a named set of hashtags the composer inserts at once. */
export const SaveHashtagGroupRequestSchema = z.object({
  name: z
    .string()
    .trim()
    .min(1, 'Name the hashtag group.')
    .max(60, 'A group name can be at most 60 characters.'),
  hashtags: z
    .array(hashtag)
    .min(1, 'Add at least one hashtag to the group.')
    .max(30, 'A group can hold at most 30 hashtags.'),
});
export type SaveHashtagGroupRequest = z.infer<typeof SaveHashtagGroupRequestSchema>;

export const HashtagGroupParamsSchema = z.object({
  orgId: z.uuid('The organization id is not valid.'),
  groupId: z.uuid('The hashtag group id is not valid.'),
});

export const HashtagGroupSchema = z.object({
  id: z.uuid(),
  name: z.string(),
  hashtags: z.array(z.string()),
  updatedAt: z.string(),
});
export type HashtagGroup = z.infer<typeof HashtagGroupSchema>;
export const HashtagGroupResponseSchema = successEnvelope(z.object({ group: HashtagGroupSchema }));
export const HashtagGroupsResponseSchema = successEnvelope(
  z.object({ groups: z.array(HashtagGroupSchema) }),
);
