import { z } from 'zod';
import { successEnvelope } from './envelope.js';
import { countText } from './media-rules.js';

/**
 * docs/feeds.md: RSS 2.0, Atom 1.0 and JSON Feed feeds whose new items become posts. Where a new
 * item's post goes: a draft, the accounts' posting queue (next free slot), or approval.
 */
export const FEED_DESTINATIONS = ['draft', 'queue', 'approval'] as const;
export type FeedDestination = (typeof FEED_DESTINATIONS)[number];

/** What became of one item of a feed. */
export const FEED_ITEM_OUTCOMES = ['posted', 'seen', 'failed'] as const;
/** The most checks that try to make one item a post; a failed item is then left as it is. */
export const FEED_ITEM_MAX_ATTEMPTS = 3;
export type FeedItemOutcome = (typeof FEED_ITEM_OUTCOMES)[number];

/** The placeholders a template may use, each replaced by the item's own text. */
export const FEED_TEMPLATE_PLACEHOLDERS = ['title', 'link', 'summary', 'author', 'feed'] as const;
export const DEFAULT_FEED_TEMPLATE = '{title}\n\n{link}';
/** At most this many items are taken at the first check, however many the feed lists. */
export const FEED_IMPORT_LATEST_MAX = 20;

const TemplateSchema = z
  .string('The template is text with placeholders such as {title} and {link}.')
  .max(5000, 'Keep the template under 5,000 characters.')
  .superRefine((template, ctx) => {
    const unknown = [...template.matchAll(/\{([a-z_]+)\}/gi)]
      .map((m) => m[1]!)
      .filter((name) => !(FEED_TEMPLATE_PLACEHOLDERS as readonly string[]).includes(name));
    if (unknown.length > 0)
      ctx.addIssue({
        code: 'custom',
        message: `The template uses ${unknown.map((n) => `{${n}}`).join(', ')}, which Herald does not know; the placeholders are ${FEED_TEMPLATE_PLACEHOLDERS.map((n) => `{${n}}`).join(', ')}.`,
      });
    if (!template.trim()) ctx.addIssue({ code: 'custom', message: 'The template is empty.' });
  });

const UrlSchema = z
  .string('Give the address of the feed.')
  .trim()
  .min(1, 'Give the address of the feed.')
  .max(2000, 'The feed address is too long.');

const IntegrationIdsSchema = z
  .array(
    z.uuid('Each account is the id of a connected account.'),
    'Choose the accounts to post to.',
  )
  .min(1, 'Choose at least one account to post to.')
  .max(10, 'A post can go to at most 10 accounts.')
  .refine((ids) => new Set(ids).size === ids.length, 'Choose each account once.');

const DestinationSchema = z.enum(FEED_DESTINATIONS, {
  error: 'The destination is draft, queue or approval.',
});

const ImportLatestSchema = z
  .number('importLatest is a number of items.')
  .int('importLatest is a whole number of items.')
  .min(0, 'importLatest is 0 or more.')
  .max(FEED_IMPORT_LATEST_MAX, `Take at most ${FEED_IMPORT_LATEST_MAX} existing items.`);

export const CreateFeedRequestSchema = z.object({
  url: UrlSchema,
  integrationIds: IntegrationIdsSchema,
  destination: DestinationSchema.default('draft'),
  importLatest: ImportLatestSchema.default(0),
  template: TemplateSchema.nullable().optional(),
});
export type CreateFeedRequest = z.input<typeof CreateFeedRequestSchema>;

export const UpdateFeedRequestSchema = z
  .object({
    url: UrlSchema.optional(),
    integrationIds: IntegrationIdsSchema.optional(),
    destination: DestinationSchema.optional(),
    template: TemplateSchema.nullable().optional(),
    /** true pauses the feed (no checks), false resumes it. */
    paused: z.boolean('paused is true or false.').optional(),
  })
  .refine((v) => Object.values(v).some((x) => x !== undefined), {
    message: 'Say what to change: url, integrationIds, destination, template or paused.',
  });
export type UpdateFeedRequest = z.input<typeof UpdateFeedRequestSchema>;

export const FeedParamsSchema = z.object({
  orgId: z.uuid('The organization id is not valid.'),
  feedId: z.uuid('The feed id is not valid.'),
});

export const FeedSchema = z.object({
  id: z.string(),
  url: z.string(),
  /** The feed's own title once read; null before the first successful check. */
  title: z.string().nullable(),
  integrationIds: z.array(z.string()),
  destination: z.enum(FEED_DESTINATIONS),
  template: z.string().nullable(),
  importLatest: z.number().int(),
  paused: z.boolean(),
  lastCheckedAt: z.string().nullable(),
  lastSuccessAt: z.string().nullable(),
  nextCheckAt: z.string().nullable(),
  /** Why the last check failed, in plain words; null when it worked. */
  lastError: z.string().nullable(),
  /** Checks failed in a row (the wait before the next grows with it). */
  errorCount: z.number().int(),
  createdAt: z.string(),
});
export type Feed = z.infer<typeof FeedSchema>;

export const FeedItemSchema = z.object({
  id: z.string(),
  title: z.string().nullable(),
  link: z.string().nullable(),
  publishedAt: z.string().nullable(),
  outcome: z.enum(FEED_ITEM_OUTCOMES),
  /** The post it became, when it became one. */
  postId: z.string().nullable(),
  /** Why it did not become a post (failed), in plain words: the latest try's reason. */
  error: z.string().nullable(),
  /**
   * How many checks tried to make it a post. A failed item is tried again at the next checks
   * until `FEED_ITEM_MAX_ATTEMPTS` (docs/feeds.md#one-post-per-item-exactly-once).
   */
  attempts: z.number().int(),
  createdAt: z.string(),
});
export type FeedItem = z.infer<typeof FeedItemSchema>;

/** What one check did: items read, posts made, and the feed as it stands after. */
export const FeedCheckSchema = z.object({
  /** false: the server said nothing changed (304) or the check was refused. */
  changed: z.boolean(),
  itemCount: z.number().int(),
  posted: z.number().int(),
  failed: z.number().int(),
});
export type FeedCheck = z.infer<typeof FeedCheckSchema>;

export const FeedResponseSchema = successEnvelope(z.object({ feed: FeedSchema }));
export const FeedDetailResponseSchema = successEnvelope(
  z.object({ feed: FeedSchema, items: z.array(FeedItemSchema) }),
);
export const FeedListResponseSchema = successEnvelope(z.object({ feeds: z.array(FeedSchema) }));
export const FeedCheckResponseSchema = successEnvelope(
  z.object({ feed: FeedSchema, check: FeedCheckSchema }),
);

/** Reads a feed without adding it: its title and its newest item as the template makes it. */
export const PreviewFeedRequestSchema = z.object({
  url: UrlSchema,
  template: TemplateSchema.nullable().optional(),
});
export type PreviewFeedRequest = z.input<typeof PreviewFeedRequestSchema>;
export const FeedPreviewSchema = z.object({
  title: z.string().nullable(),
  itemCount: z.number().int(),
  /** The newest item's post text (before any network's cut); null for a feed with no items. */
  firstItem: z
    .object({ title: z.string(), link: z.string().nullable(), text: z.string() })
    .nullable(),
});
export type FeedPreview = z.infer<typeof FeedPreviewSchema>;
export const FeedPreviewResponseSchema = successEnvelope(z.object({ preview: FeedPreviewSchema }));

/** Where a post came from when it was not written by hand (shown on the post). */
export const PostSourceSchema = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('feed'),
    feedId: z.string().nullable(),
    /** The feed's title (or its address) when the post was made. */
    name: z.string(),
    /** The item's link, when it had one. */
    itemUrl: z.string().nullable(),
  }),
  /** docs/evergreen.md: a copy an evergreen collection put in an empty queue slot. */
  z.object({
    kind: z.literal('evergreen'),
    collectionId: z.string().nullable(),
    /** The collection's name when the copy was made. */
    name: z.string(),
    /** The collection's post it copies. */
    postId: z.string().nullable(),
  }),
  /** docs/evergreen.md: the next occurrence of a post that repeats. */
  z.object({
    kind: z.literal('repeat'),
    repeatId: z.string().nullable(),
    /** The occurrence it was made from. */
    postId: z.string().nullable(),
  }),
]);
export type PostSource = z.infer<typeof PostSourceSchema>;

/** An item's parts a template can use. */
export interface FeedTemplateValues {
  title: string;
  link: string;
  summary: string;
  author: string;
  feed: string;
}

/** The template with each placeholder replaced; blank lines left by empty parts collapse. */
export function renderFeedTemplate(template: string | null, values: FeedTemplateValues): string {
  const text = (template ?? DEFAULT_FEED_TEMPLATE).replace(/\{([a-z_]+)\}/gi, (whole, name) =>
    name in values ? values[name as keyof FeedTemplateValues] : whole,
  );
  return text
    .split('\n')
    .map((line) => line.replace(/[ \t]+$/, ''))
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

type Counting = Parameters<typeof countText>[1];
const LINK = /https?:\/\/[^\s<>"]+/gi;

/**
 * The text cut to `max` counted the network's way, never inside a link: the words after the last
 * that fit are dropped (links are kept whole wherever they are) and an ellipsis marks the cut.
 * When the links alone are too long the text is answered as it is, for the post's checks to
 * refuse with the network's own sentence.
 */
export function fitFeedText(text: string, max: number, counting?: Counting): string {
  if (countText(text, counting) <= max) return text;
  // Tokens: links (kept) and runs of prose split into words with their following space.
  const tokens: Array<{ text: string; link: boolean }> = [];
  let last = 0;
  for (const match of text.matchAll(LINK)) {
    for (const word of text.slice(last, match.index).match(/\S+\s*|\s+/g) ?? [])
      tokens.push({ text: word, link: false });
    tokens.push({ text: match[0], link: true });
    last = match.index + match[0].length;
  }
  for (const word of text.slice(last).match(/\S+\s*|\s+/g) ?? [])
    tokens.push({ text: word, link: false });
  const prose = tokens.filter((t) => !t.link).length;
  // Keeping the first k prose words is monotone in k: the largest k that fits, by bisection.
  const build = (keep: number) => {
    let seen = 0;
    let out = '';
    let cut = false;
    // A line break among the dropped words is kept before the next link (a link on its own line).
    let brokeLine = false;
    for (const token of tokens) {
      if (token.link) {
        if (cut && out) out = out.replace(/\s+$/, '') + (brokeLine ? '\n\n' : ' ');
        brokeLine = false;
        out += token.text;
        continue;
      }
      seen++;
      if (seen <= keep) out += token.text;
      else {
        if (!cut) {
          cut = true;
          const kept = out.replace(/[\s.,;:!?-]+$/, '');
          out = kept ? `${kept}…` : out;
        }
        if (token.text.includes('\n')) brokeLine = true;
      }
    }
    return out.trim();
  };
  let low = 0;
  let high = prose;
  if (countText(build(0), counting) > max) return text;
  while (low < high) {
    const mid = Math.ceil((low + high) / 2);
    if (countText(build(mid), counting) <= max) low = mid;
    else high = mid - 1;
  }
  return build(low);
}
