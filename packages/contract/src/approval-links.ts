import { z } from 'zod';
import { successEnvelope } from './envelope.js';
import { REJECTION_REASON_MAX } from './approvals.js';
import { OrganizationBrandingSchema } from './branding.js';
import { MEDIA_KINDS } from './media-rules.js';
import { InviteEmailSchema } from './team.js';
import { WebUrlSchema } from './web-url.js';

/*
 * Client approval links (docs/product.md#client-approval-links): an approver sends posts waiting
 * for approval to someone without an account. The link carries a random token (shown once, stored
 * hashed); its page shows each account's post as it will go out, and the client approves or asks
 * for changes once per post, through the same code as an approver in the app.
 */

/** How long a link works unless the sender says otherwise, and the longest it may. */
export const APPROVAL_LINK_DEFAULT_DAYS = 7;
export const APPROVAL_LINK_MAX_DAYS = 30;
/** The most posts one link carries. */
export const APPROVAL_LINK_POSTS_MAX = 50;
/** The longest name, note to the client, and comment of the client. */
export const APPROVER_NAME_MAX = 100;
export const APPROVAL_LINK_MESSAGE_MAX = 1000;
export const GUEST_COMMENT_MAX = REJECTION_REASON_MAX;

/** The web page a link opens: `{PUBLIC_URL}/approve/{token}`. */
export const approvalLinkPath = (token: string) => `/approve/${token}`;

/**
 * open: waiting for the client; decided: every post has the client's decision; revoked: withdrawn
 * by the team; expired: its time ran out first.
 */
export const APPROVAL_LINK_STATES = ['open', 'decided', 'revoked', 'expired'] as const;
export type ApprovalLinkState = (typeof APPROVAL_LINK_STATES)[number];

/** What a client may decide about a post. */
export const GUEST_DECISIONS = ['approve', 'request_changes'] as const;
export type GuestDecision = (typeof GUEST_DECISIONS)[number];

const optionalText = (max: number, tooLong: string) =>
  z
    .string()
    .trim()
    .max(max, tooLong)
    .optional()
    .transform((value) => (value ? value : undefined));

/** `POST /organizations/{orgId}/approval-links`. */
export const CreateApprovalLinkRequestSchema = z.object({
  postIds: z
    .array(z.uuid('Each post id must be the id of a post (a UUID).'))
    .min(1, 'Choose at least one post to send.')
    .max(APPROVAL_LINK_POSTS_MAX, `Send at most ${APPROVAL_LINK_POSTS_MAX} posts in one link.`)
    .refine((ids) => new Set(ids).size === ids.length, 'Each post can be in the link only once.'),
  approverName: optionalText(
    APPROVER_NAME_MAX,
    `Keep the name under ${APPROVER_NAME_MAX} characters.`,
  ),
  /** When given and Herald sends email (SMTP_URL), the link is emailed to this address. */
  approverEmail: z
    .union([z.literal(''), InviteEmailSchema])
    .optional()
    .transform((value) => (value ? value : undefined)),
  expiresInDays: z
    .number({ error: 'Say in how many days the link expires (1 to 30).' })
    .int('Say in how many whole days the link expires.')
    .min(1, 'A link works for at least 1 day.')
    .max(APPROVAL_LINK_MAX_DAYS, `A link works for at most ${APPROVAL_LINK_MAX_DAYS} days.`)
    .default(APPROVAL_LINK_DEFAULT_DAYS),
  /** A note the client reads above the posts (and in the email). */
  message: optionalText(
    APPROVAL_LINK_MESSAGE_MAX,
    `Keep the note under ${APPROVAL_LINK_MESSAGE_MAX} characters.`,
  ),
});
export type CreateApprovalLinkRequest = z.input<typeof CreateApprovalLinkRequestSchema>;

/** One post of a link and what the client decided about it (null: nothing yet). */
const ApprovalLinkPostSchema = z.object({
  /** Null once the post was deleted. */
  postId: z.string().nullable(),
  /** The post's title or the start of its text, as it was when the link was made. */
  label: z.string(),
  decision: z.enum(GUEST_DECISIONS).nullable(),
  comment: z.string().nullable(),
  decidedAt: z.string().nullable(),
});

export const ApprovalLinkSchema = z.object({
  id: z.string(),
  state: z.enum(APPROVAL_LINK_STATES),
  approverName: z.string().nullable(),
  approverEmail: z.string().nullable(),
  message: z.string().nullable(),
  createdAt: z.string(),
  expiresAt: z.string(),
  revokedAt: z.string().nullable(),
  /** Who sent it; null once their account was deleted. */
  createdBy: z.object({ id: z.string(), displayName: z.string().nullable() }).nullable(),
  posts: z.array(ApprovalLinkPostSchema),
});
export type ApprovalLink = z.infer<typeof ApprovalLinkSchema>;

/**
 * The new link. `url` carries the token and is shown this once: Herald keeps only its hash.
 * `emailSent` says whether it was emailed to `approverEmail`.
 */
export const CreateApprovalLinkResponseSchema = successEnvelope(
  z.object({ link: ApprovalLinkSchema, url: z.string(), emailSent: z.boolean() }),
);

/** `GET /organizations/{orgId}/approval-links?postId=`: newest first (at most 100). */
export const ApprovalLinksQuerySchema = z.object({
  postId: z.uuid('postId must be the id of a post (a UUID).').optional(),
});
export const APPROVAL_LINKS_LIST_CAP = 100;
export const ApprovalLinksResponseSchema = successEnvelope(
  z.object({ links: z.array(ApprovalLinkSchema) }),
);
export const ApprovalLinkResponseSchema = successEnvelope(z.object({ link: ApprovalLinkSchema }));

export const ApprovalLinkParamsSchema = z.object({
  orgId: z.uuid('The organization id is not valid.'),
  linkId: z.uuid('The link id is not valid.'),
});

/* ---------------------------------------------------------------------------------------------
 * The client's side: `/api/guest/approvals/{token}` (no session; the token is the permission).
 * ------------------------------------------------------------------------------------------- */

/** Any string: a token of the wrong shape is an unknown link (404), like any other. */
export const GuestApprovalParamsSchema = z.object({ token: z.string().max(200) });
export const GuestMediaParamsSchema = z.object({
  token: z.string().max(200),
  mediaId: z.string().max(64),
});

/** One file as the account will publish it, served through the link. */
const GuestMediaSchema = z.object({
  id: z.string(),
  kind: z.enum(MEDIA_KINDS),
  /** `/api/guest/approvals/{token}/media/{id}`: works while the link is open. */
  url: z.string(),
  thumbnailUrl: z.string().nullable(),
  fileName: z.string(),
  altText: z.string().nullable(),
});

/** One account's post as it will go out. */
const GuestAccountPostSchema = z.object({
  /** The network's name ("X"). */
  network: z.string(),
  accountName: z.string(),
  username: z.string().nullable(),
  pictureUrl: WebUrlSchema.nullable(),
  /** Its text, links carrying the post's tracking parameters as this network gets them. */
  text: z.string(),
  media: z.array(GuestMediaSchema),
  /** The thread's further parts (part 2 onward), in order. */
  parts: z.array(z.string()),
  firstComment: z.string().nullable(),
  /** A Mastodon post's content warning: the text shows behind it there, and so in the preview. */
  contentWarning: z.string().nullable().optional(),
});
export type GuestAccountPost = z.infer<typeof GuestAccountPostSchema>;

/**
 * waiting: the client may decide; approved, changes_requested: the client decided; unavailable:
 * the post is no longer waiting for this decision (`unavailableReason` says why).
 */
export const GUEST_POST_STATES = [
  'waiting',
  'approved',
  'changes_requested',
  'unavailable',
] as const;
export type GuestPostState = (typeof GUEST_POST_STATES)[number];

const GuestPostSchema = z.object({
  id: z.string(),
  label: z.string(),
  state: z.enum(GUEST_POST_STATES),
  unavailableReason: z.string().nullable(),
  /** The client's comment and when they decided; null while waiting. */
  comment: z.string().nullable(),
  decidedAt: z.string().nullable(),
  /** When it goes out; null when it has no time (it goes out once approved). */
  scheduledAt: z.string().nullable(),
  /** Each account's post; empty unless the post is waiting. */
  accounts: z.array(GuestAccountPostSchema),
});
export type GuestPost = z.infer<typeof GuestPostSchema>;

export const GuestApprovalSchema = z.object({
  /**
   * The organization's name, and its logo and colour (docs/reports.md#branding): the logo through
   * the link (`/api/guest/approvals/{token}/logo`), like the posts' files.
   */
  organization: z.object({ name: z.string(), branding: OrganizationBrandingSchema }),
  approverName: z.string().nullable(),
  message: z.string().nullable(),
  /** The sender's name, for "Sent by …". */
  sentBy: z.string().nullable(),
  expiresAt: z.string(),
  posts: z.array(GuestPostSchema),
});
export type GuestApproval = z.infer<typeof GuestApprovalSchema>;
export const GuestApprovalResponseSchema = successEnvelope(GuestApprovalSchema);

/** `POST /guest/approvals/{token}/decisions`. */
export const GuestDecisionRequestSchema = z
  .object({
    postId: z.uuid('postId must be the id of a post of this link.'),
    decision: z.enum(GUEST_DECISIONS, { error: 'Choose approve or request_changes.' }),
    comment: optionalText(
      GUEST_COMMENT_MAX,
      `Keep the comment under ${GUEST_COMMENT_MAX} characters.`,
    ),
    /** A post whose time has passed is published now only when this is true (else 409, timePassed). */
    publishNow: z.boolean().optional(),
  })
  .refine((body) => body.decision !== 'request_changes' || Boolean(body.comment), {
    message: 'Say what should change, so the team knows what to do.',
    path: ['comment'],
  });
export type GuestDecisionRequest = z.input<typeof GuestDecisionRequestSchema>;

/** The link as it is after the decision. */
export const GuestDecisionResponseSchema = successEnvelope(z.object({ post: GuestPostSchema }));

/** The 410 answer's `details`: why the link no longer works. */
export const GuestLinkGoneDetailsSchema = z.object({ state: z.enum(['revoked', 'expired']) });
