import { requestJson } from '../oauth.js';
import { type AdapterSettings, type MetricsAdapter, pickNumbers, sumPresent } from '../types.js';
import { describeLinkedInError } from './errors.js';
import type { LinkedInUrls } from './urls.js';

interface ShareStatistics {
  elements?: Array<{ totalShareStatistics?: Record<string, unknown> }>;
}

/**
 * LinkedIn analytics (docs/analytics.md#linkedin). Organization pages only: share statistics
 * and follower counts need `rw_organization_admin`. Members' posts and followers need scopes
 * Herald does not ask for (`r_member_postAnalytics`, `r_member_profileAnalytics`), so a
 * member account answers null: nothing to collect.
 */
export function createLinkedInMetrics(settings: AdapterSettings<LinkedInUrls>): MetricsAdapter {
  const { urls } = settings;
  const enc = encodeURIComponent;
  const get = <T>(token: string, path: string) =>
    requestJson<T>(
      settings.http,
      'LinkedIn',
      `${urls.apiBase}${path}`,
      {
        headers: {
          authorization: `Bearer ${token}`,
          'linkedin-version': urls.linkedinVersion,
          'x-restli-protocol-version': '2.0.0',
        },
      },
      describeLinkedInError,
    );
  const organizationOf = (extra: Record<string, unknown>) =>
    extra.kind === 'organization' && typeof extra.organizationUrn === 'string'
      ? extra.organizationUrn
      : null;

  return {
    billedReads: false,
    async postMetrics(account, post) {
      const org = organizationOf(account.extra);
      if (!org) return null;
      const list = post.externalId.startsWith('urn:li:ugcPost:') ? 'ugcPosts' : 'shares';
      const answer = await get<ShareStatistics>(
        account.tokens.accessToken,
        `/rest/organizationalEntityShareStatistics?q=organizationalEntity&organizationalEntity=${enc(org)}&${list}=List(${enc(post.externalId)})`,
      );
      const stats = pickNumbers(answer.elements?.[0]?.totalShareStatistics ?? {});
      const { likeCount, commentCount, shareCount, clickCount } = stats;
      return {
        views: stats.impressionCount,
        reach: stats.uniqueImpressionsCount,
        likes: likeCount,
        comments: commentCount,
        shares: shareCount,
        clicks: clickCount,
        // LinkedIn's own `engagement` is already a rate; Herald sums the counts.
        interactions: sumPresent(likeCount, commentCount, shareCount, clickCount),
        raw: stats as Record<string, number>,
      };
    },
    async accountMetrics(account) {
      const org = organizationOf(account.extra);
      if (!org) return null;
      const answer = await get<{ firstDegreeSize?: unknown }>(
        account.tokens.accessToken,
        `/rest/networkSizes/${enc(org)}?edgeType=COMPANY_FOLLOWED_BY_MEMBER`,
      );
      const raw = pickNumbers({ firstDegreeSize: answer.firstDegreeSize }) as Record<
        string,
        number
      >;
      return { followers: raw.firstDegreeSize, raw };
    },
  };
}
