import { z } from 'zod';
import { WebUrlSchema } from './web-url.js';
import { textLimitOf } from './media-rules.js';
import {
  NETWORK_TRAITS,
  networkTraitsOf,
  networksWhere,
  type FirstCommentRule,
} from './network-traits.js';
import type { MediaConstraints, PlatformName } from './platforms.js';
import { hasNul } from './text.js';

/*
 * Threads (multi-part posts) and first comments (docs/product.md#threads-and-first-comments):
 * what follows a post on the same account once it is out. Part 1 of a thread is the post's own
 * text; the further parts each reply to the one before; the first comment is published on the
 * post right after it (and after the thread's parts).
 */

/** Networks whose posts can be a thread: each further part replies to the previous one. */
export const THREAD_NETWORKS: readonly PlatformName[] = networksWhere((n) => n.threads);
/** Networks Herald can publish a first comment on (on X it is a reply by the account itself). */
export const FIRST_COMMENT_NETWORKS: readonly PlatformName[] = networksWhere(
  (n) => n.firstComment !== null,
);
/**
 * How long a first comment may be on each network that takes one, counted its way
 * (NETWORK_TRAITS' `firstComment`, docs/product.md#threads-and-first-comments).
 */
export const FIRST_COMMENT_LIMITS: Readonly<Partial<Record<PlatformName, FirstCommentRule>>> =
  Object.fromEntries(
    FIRST_COMMENT_NETWORKS.map((name) => [name, NETWORK_TRAITS[name].firstComment]),
  );

/** The first comment's limit on a network, given the account's post rules; null: none known. */
export function firstCommentLimitOf(networkName: string, constraints: MediaConstraints | null) {
  const rule = networkTraitsOf(networkName)?.firstComment;
  if (!rule) return null;
  return rule === 'post' ? textLimitOf(constraints) : rule;
}

/** Whether the network publishes the first comment as a post of the account's own (X's reply). */
export const firstCommentIsPost = (network: string) =>
  networkTraitsOf(network)?.firstComment === 'post';

/** The most parts a thread may have, the post's own text included. */
export const MAX_THREAD_PARTS = 25;
/**
 * The longest first comment any network takes as a comment (Facebook's 8,000); each network's
 * own rule applies too.
 */
const MAX_FOLLOW_UP_CHARS = Math.max(
  ...Object.values(FIRST_COMMENT_LIMITS).map((rule) => (rule === 'post' ? 0 : rule.max)),
);

export const supportsThread = (network: string) => networkTraitsOf(network)?.threads ?? false;
export const supportsFirstComment = (network: string) =>
  Boolean(networkTraitsOf(network)?.firstComment);

const followUpText = z
  .string()
  .max(
    MAX_FOLLOW_UP_CHARS,
    `A part or first comment can hold at most ${MAX_FOLLOW_UP_CHARS} characters.`,
  )
  .refine((v) => !hasNul(v), 'Text may not contain the NUL character (\\u0000).');

/** What follows the post on one account: the thread's further parts (part 2 onward) and a first comment. */
export const FollowUpsInputSchema = z.object({
  parts: z
    .array(followUpText)
    .max(MAX_THREAD_PARTS - 1, `A thread can have at most ${MAX_THREAD_PARTS} parts.`)
    .optional(),
  firstComment: followUpText.optional(),
});
export type FollowUpsInput = z.infer<typeof FollowUpsInputSchema>;

/** Account (integration) id → its thread parts and first comment, in create and edit payloads. */
export const FollowUpsByAccountSchema = z.record(
  z.uuid('followUps is keyed by the ids of the accounts the post goes to.'),
  FollowUpsInputSchema,
);
export type FollowUpsByAccount = z.infer<typeof FollowUpsByAccountSchema>;

export const FOLLOW_UP_STATUSES = [
  'QUEUED',
  'PUBLISHING',
  'PUBLISHED',
  'FAILED',
  'UNCERTAIN',
] as const;
export type FollowUpStatus = (typeof FOLLOW_UP_STATUSES)[number];
export const FOLLOW_UP_KINDS = ['part', 'first_comment'] as const;
export type FollowUpKind = (typeof FOLLOW_UP_KINDS)[number];

/** One part or first comment of a publication, as the post's details show it. */
export const FollowUpSchema = z.object({
  id: z.string(),
  kind: z.enum(FOLLOW_UP_KINDS),
  /** Part number (2, 3…) for parts; for the first comment, the place after the last part. */
  position: z.number().int(),
  text: z.string(),
  status: z.enum(FOLLOW_UP_STATUSES),
  externalId: z.string().nullable(),
  permalink: WebUrlSchema.nullable(),
  error: z.string().nullable(),
  publishedAt: z.string().nullable(),
});
export type FollowUp = z.infer<typeof FollowUpSchema>;

export const FollowUpParamsSchema = z.object({
  orgId: z.uuid('The organization id is not valid.'),
  postId: z.uuid('The post id is not valid.'),
  targetId: z.uuid('The publication id is not valid.'),
  followUpId: z.uuid('The part id is not valid.'),
});
/** After an UNCERTAIN part or first comment: the user checked the network and says what happened. */
export const ResolveFollowUpRequestSchema = z.object({
  outcome: z.enum(['published', 'retry']),
});
export type ResolveFollowUpRequest = z.infer<typeof ResolveFollowUpRequestSchema>;

/** How the parts and first comment of a publication are named in sentences. */
export function followUpLabel(f: { kind: FollowUpKind; position: number }, partCount: number) {
  return f.kind === 'first_comment' ? 'The first comment' : `Part ${f.position} of ${partCount}`;
}
