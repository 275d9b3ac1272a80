import { z } from 'zod';
import { AnalyticsOverviewQuerySchema } from './analytics.js';
import { replaceLinks } from './composer-extras.js';
import { successEnvelope } from './envelope.js';

/*
 * Short links (docs/analytics.md#short-links): a post's links go out as `PUBLIC_URL/l/<code>`,
 * which answers a 302 to the link (with its UTM parameters) and counts the click.
 */

/** Characters of a code: letters and digits (62 ** 10 ≈ 8·10^17 codes, not guessable). */
export const SHORT_LINK_CODE_LENGTH = 10;
export const SHORT_LINK_CODE_PATTERN = /^[A-Za-z0-9]{10}$/;
/** The path a code is served on, under Herald's public URL (outside the API's prefix). */
export const SHORT_LINK_PATH = '/l/';

/** `PUBLIC_URL/l/`: what every short link starts with. */
export const shortLinkBase = (publicUrl: string) =>
  `${publicUrl.replace(/\/+$/, '')}${SHORT_LINK_PATH}`;

/**
 * The text as it is counted when its links will be short links: every link replaced by one of
 * the same length as the short link it becomes, so length rules count what goes out (X counts
 * every link as 23 characters, whatever it is).
 */
export function withShortLinkLengths(text: string, base: string) {
  return replaceLinks(text, () => `${base}${'x'.repeat(SHORT_LINK_CODE_LENGTH)}`);
}

/** Whether a post uses short links: its own choice, else the organization's setting. */
export const usesShortLinks = (post: boolean | null | undefined, organization: boolean) =>
  post ?? organization;

/** `GET …/analytics/link-clicks`: the analytics screen's range and filters. */
export const LinkClicksQuerySchema = AnalyticsOverviewQuerySchema.omit({ sort: true });
export type LinkClicksQuery = z.infer<typeof LinkClicksQuerySchema>;

/** Per published target (a post on one account) with short links: its links and their clicks. */
export const LinkClicksSchema = z.object({
  targets: z.array(
    z.object({
      postId: z.uuid(),
      targetId: z.uuid(),
      title: z.string().nullable(),
      text: z.string(),
      platform: z.string(),
      accountName: z.string().nullable(),
      publishedAt: z.string().nullable(),
      /** Each short link of the post on this account, in the order of the text. */
      links: z.array(z.object({ shortUrl: z.string(), url: z.string(), clicks: z.number().int() })),
      /** The clicks of all its links. */
      clicks: z.number().int(),
    }),
  ),
});
export type LinkClicks = z.infer<typeof LinkClicksSchema>;
export const LinkClicksResponseSchema = successEnvelope(LinkClicksSchema);
