import { z } from 'zod';
import { successEnvelope } from './envelope.js';
import { NETWORK_TRAITS, networkTraitsOf } from './network-traits.js';
import { PLATFORM_NAMES, type PlatformName } from './platforms.js';

/**
 * Alt text (docs/product.md#alt-text): the most characters each network takes for an image's
 * description (NETWORK_TRAITS' `altTextMax`). A network not listed takes no alt text (its files
 * are sent without one).
 */
export const ALT_TEXT_LIMITS: Readonly<Partial<Record<PlatformName, number>>> = Object.fromEntries(
  PLATFORM_NAMES.flatMap((name) => {
    const max = NETWORK_TRAITS[name].altTextMax;
    return max === null ? [] : [[name, max]];
  }),
);
/** The longest alt text any network takes: longer is refused before the networks are asked. */
export const ALT_TEXT_MAX = Math.max(
  ...PLATFORM_NAMES.map((name) => NETWORK_TRAITS[name].altTextMax ?? 0),
);

/** The alt text limit a file going to these networks must respect (the strictest of them). */
export function altTextLimitFor(networkNames: readonly string[]): number {
  const limits = networkNames
    .map((name) => networkTraitsOf(name)?.altTextMax)
    .filter((n): n is number => typeof n === 'number');
  return limits.length ? Math.min(...limits) : ALT_TEXT_MAX;
}

/**
 * `altTexts` of the create and edit payloads: a new file's index among the uploaded files, or a
 * kept file's id → its alt text. On edit, when sent, it says every file's alt text (a kept file
 * not listed has none); when absent, kept files keep theirs.
 */
export const AltTextsSchema = z.record(
  z.string(),
  z
    .string()
    .max(ALT_TEXT_MAX, `Alt text can be at most ${ALT_TEXT_MAX} characters.`)
    .transform((text) => text.trim()),
);

/** How many images of a post have no alt text (the composer's reminder; never blocking). */
export function imagesWithoutAltText(
  media: ReadonlyArray<{ kind: string; altText?: string | null }>,
): number {
  return media.filter((m) => m.kind === 'image' && !m.altText?.trim()).length;
}

/* ---------------------------------------------------------------------------------------------
 * Link tracking (docs/product.md#link-tracking): UTM parameters added to a post's links when it
 * is published, per network. The stored text never holds them, so editing never adds them twice.
 * ------------------------------------------------------------------------------------------- */

const utmValue = (label: string, max = 100) =>
  z
    .string()
    .trim()
    .max(max, `${label} can be at most ${max} characters.`)
    .refine((value) => !/[\s#&?=]/.test(value) || value.length === 0, {
      message: `${label} may not contain spaces or the characters # & ? =.`,
    });

/** The UTM parameters of a post. `source` null: each network's own name (x, facebook…). */
export const LinkTrackingSchema = z.object({
  source: utmValue('The source').nullable().default(null),
  medium: utmValue('The medium').default('social'),
  campaign: utmValue('The campaign'),
  term: utmValue('The term').nullable().default(null),
  content: utmValue('The content').nullable().default(null),
});
export type LinkTracking = z.infer<typeof LinkTrackingSchema>;

/** An organization's default: whether new posts track links, and with which parameters. */
export const LinkTrackingSettingsSchema = z.object({
  enabledByDefault: z.boolean({ error: 'Say whether new posts track their links.' }),
  tracking: LinkTrackingSchema,
  /**
   * docs/analytics.md#short-links: whether posts that do not say otherwise (`shortLinks` null)
   * go out with their links replaced by Herald's short links, which count clicks.
   */
  shortLinks: z.boolean({ error: 'Say whether posts use short links.' }).default(false),
});
export type LinkTrackingSettings = z.infer<typeof LinkTrackingSettingsSchema>;
export const LinkTrackingSettingsResponseSchema = successEnvelope(
  z.object({ settings: LinkTrackingSettingsSchema }),
);
export const DEFAULT_LINK_TRACKING: LinkTracking = {
  source: null,
  medium: 'social',
  campaign: '',
  term: null,
  content: null,
};

/** The `utm_source` a network gets when none is chosen: its name in lowercase, without spaces. */
export const utmSourceFor = (networkName: string) =>
  networkName.toLowerCase().replace(/[^a-z0-9]+/g, '');

const URL_PATTERN = /\bhttps?:\/\/[^\s<>"'`]+/gi;
/** Punctuation that ends a sentence rather than the link. */
const TRAILING = /[.,;:!?'")\]}]+$/;

/**
 * The text with each link (as the link tracking reads them: http(s) up to a space, without the
 * punctuation that ends a sentence) replaced by `replace(link, index)`; index counts from 0.
 */
export function replaceLinks(text: string, replace: (url: string, index: number) => string) {
  let index = 0;
  return text.replace(URL_PATTERN, (match) => {
    const tail = TRAILING.exec(match)?.[0] ?? '';
    const url = tail ? match.slice(0, -tail.length) : match;
    return replace(url, index++) + tail;
  });
}

function trackedUrl(url: string, params: Array<[string, string]>): string {
  const hashAt = url.indexOf('#');
  const beforeHash = hashAt === -1 ? url : url.slice(0, hashAt);
  const hash = hashAt === -1 ? '' : url.slice(hashAt);
  const queryAt = beforeHash.indexOf('?');
  const query = queryAt === -1 ? '' : beforeHash.slice(queryAt + 1);
  const present = new Set(
    query
      .split('&')
      .filter(Boolean)
      .map((pair) => decodeURIComponentSafe(pair.split('=')[0] ?? '').toLowerCase()),
  );
  const added = params
    .filter(([key]) => !present.has(key))
    .map(([key, value]) => `${key}=${encodeURIComponent(value)}`);
  if (added.length === 0) return url;
  const joiner = queryAt === -1 ? '?' : query === '' || beforeHash.endsWith('&') ? '' : '&';
  return `${beforeHash}${joiner}${added.join('&')}${hash}`;
}

function decodeURIComponentSafe(text: string) {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/**
 * The text with the UTM parameters added to each link, as `networkName` will publish it. Links
 * keep their query strings and fragments; a parameter a link already has is left as it is, so
 * applying twice changes nothing. Without tracking (null) or a campaign, the text is unchanged.
 */
export function applyLinkTracking(
  text: string,
  tracking: LinkTracking | null | undefined,
  networkName: string,
): string {
  if (!tracking || !tracking.campaign.trim()) return text;
  const params: Array<[string, string]> = [
    ['utm_source', tracking.source?.trim() || utmSourceFor(networkName)],
    ['utm_medium', tracking.medium.trim() || 'social'],
    ['utm_campaign', tracking.campaign.trim()],
  ];
  if (tracking.term?.trim()) params.push(['utm_term', tracking.term.trim()]);
  if (tracking.content?.trim()) params.push(['utm_content', tracking.content.trim()]);
  return text.replace(URL_PATTERN, (match) => {
    const tail = TRAILING.exec(match)?.[0] ?? '';
    const url = tail ? match.slice(0, -tail.length) : match;
    return trackedUrl(url, params) + tail;
  });
}

/* ---------------------------------------------------------------------------------------------
 * Duplicate (docs/product.md#duplicate): `POST /organizations/{orgId}/posts/{postId}/duplicate`
 * answers the new draft with PostResponseSchema.
 * ------------------------------------------------------------------------------------------- */

/* ---------------------------------------------------------------------------------------------
 * Internal comments (docs/product.md#internal-comments): the team's discussion of a post.
 * ------------------------------------------------------------------------------------------- */

export const INTERNAL_COMMENT_MAX = 2000;

const PersonSchema = z.object({ id: z.string(), displayName: z.string().nullable() });

export const InternalCommentSchema = z.object({
  id: z.string(),
  postId: z.string(),
  body: z.string(),
  /** Who wrote it; null once their account was deleted. */
  author: PersonSchema.nullable(),
  mentions: z.array(PersonSchema),
  createdAt: z.string(),
  /** The caller wrote it: Delete is offered. */
  isOwn: z.boolean(),
});
export type InternalComment = z.infer<typeof InternalCommentSchema>;

export const CreateInternalCommentRequestSchema = z.object({
  body: z
    .string({ error: 'Write a comment.' })
    .trim()
    .min(1, 'Write a comment.')
    .max(INTERNAL_COMMENT_MAX, `A comment can be at most ${INTERNAL_COMMENT_MAX} characters.`),
  /** The teammates (user ids) @mentioned in it: each is notified. */
  mentionedUserIds: z
    .array(z.uuid('Each mentioned person must be a member (a user id).'))
    .max(20, 'Mention at most 20 people in one comment.')
    .default([]),
});
export type CreateInternalCommentRequest = z.input<typeof CreateInternalCommentRequestSchema>;

export const InternalCommentParamsSchema = z.object({
  orgId: z.uuid('The organization id is not valid.'),
  postId: z.uuid('The post id is not valid.'),
  commentId: z.uuid('The comment id is not valid.'),
});
export const InternalCommentsResponseSchema = successEnvelope(
  z.object({ comments: z.array(InternalCommentSchema) }),
);
export const InternalCommentResponseSchema = successEnvelope(
  z.object({ comment: InternalCommentSchema }),
);
export const DeletedInternalCommentResponseSchema = successEnvelope(
  z.object({ deleted: z.literal(true) }),
);
