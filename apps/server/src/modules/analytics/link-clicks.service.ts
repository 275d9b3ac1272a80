import type { LinkClicks, LinkClicksQuery } from '@herald/contract';
import type { Db } from '../../db/client.js';
import { checkQuery, rangeIn } from './analytics-overview.service.js';
import { listLinkClicks } from './link-clicks.repository.js';

/** The most targets the table lists: the range's latest publications with short links. */
const MAX_TARGETS = 200;

/**
 * The analytics screen's short-link table (docs/analytics.md#short-links): per post and account
 * published in the range, each link's clicks and their sum.
 */
export async function getLinkClicks(
  db: Db,
  organizationId: string,
  q: LinkClicksQuery,
  zone: string,
  shortLinkBase: string,
): Promise<LinkClicks> {
  const { filter } = await checkQuery(db, organizationId, q);
  const { start, end } = rangeIn(q.from, q.to, zone);
  const rows = await listLinkClicks(db, filter, start, end, MAX_TARGETS);
  const targets = new Map<string, LinkClicks['targets'][number]>();
  for (const r of rows) {
    let target = targets.get(r.targetId);
    if (!target) {
      target = {
        postId: r.postId,
        targetId: r.targetId,
        title: r.title,
        text: r.text,
        platform: r.platform,
        accountName: r.accountName,
        publishedAt: r.publishedAt,
        links: [],
        clicks: 0,
      };
      targets.set(r.targetId, target);
    }
    target.links.push({ shortUrl: `${shortLinkBase}${r.code}`, url: r.url, clicks: r.clicks });
    target.clicks += r.clicks;
  }
  return { targets: [...targets.values()] };
}
