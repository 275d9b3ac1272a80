import type { FastifyInstance } from 'fastify';
import type { EmuKit } from '../kit/emu-kit.js';
import { followersOn, grownCount } from '../kit/growth.js';
import { linkedInErrors } from './errors.js';
import type { LinkedInPosts } from './posts-state.js';
import { linkedInRoute } from './rest.js';
import type { LinkedInState } from './state.js';

const ORG = /^urn:li:organization:(\d+)$/;
/** `List(urn1,urn2)` → the urns, decoded. */
const listOf = (value: unknown) =>
  /^List\((.*)\)$/
    .exec(String(value ?? ''))?.[1]
    ?.split(',')
    .map((u) => decodeURIComponent(u))
    .filter(Boolean) ?? [];

/**
 * Organization analytics (docs/analytics.md#linkedin): `organizationalEntityShareStatistics` for
 * an organization's posts and `networkSizes` for its followers, with `rw_organization_admin`,
 * numbers growing with the emulator's clock. Members have no statistics here.
 */
export function registerLinkedInStatisticsRoutes(
  scope: FastifyInstance,
  deps: { kit: EmuKit; state: LinkedInState; posts: LinkedInPosts },
) {
  const { kit, state, posts } = deps;

  async function adminOf(authorization: string | undefined, orgUrn: string) {
    const caller = await state.authenticate(authorization);
    const org = ORG.exec(orgUrn)?.[1];
    if (
      !org ||
      !caller.member.orgIds.includes(org) ||
      !caller.grant.scopes.includes('rw_organization_admin')
    )
      throw linkedInErrors.denied(`organizationalEntityShareStatistics/${orgUrn}`);
    return caller;
  }

  scope.get(
    '/rest/organizationalEntityShareStatistics',
    linkedInRoute(true, async (request) => {
      const q = request.query as Record<string, unknown>;
      if (q.q !== 'organizationalEntity')
        throw linkedInErrors.badRequest('q=organizationalEntity is required.');
      const orgUrn = decodeURIComponent(String(q.organizationalEntity ?? ''));
      await adminOf(request.headers.authorization, orgUrn);
      const now = await kit.now();
      const urns = [...listOf(q.shares), ...listOf(q.ugcPosts)];
      const elements = [];
      for (const urn of urns) {
        const post = await posts.getPost(urn);
        if (!post || post.author !== orgUrn) continue;
        const age = now - post.createdAt;
        const count = (name: string, scale: number) => grownCount(urn, name, age, scale);
        const impressionCount = count('impressionCount', 1200);
        const likeCount = count('likeCount', 40);
        const commentCount = count('commentCount', 6);
        const shareCount = count('shareCount', 4);
        const clickCount = count('clickCount', 30);
        elements.push({
          organizationalEntity: orgUrn,
          [urn.startsWith('urn:li:ugcPost:') ? 'ugcPost' : 'share']: urn,
          totalShareStatistics: {
            impressionCount,
            uniqueImpressionsCount: Math.floor(impressionCount * 0.7),
            clickCount,
            likeCount,
            commentCount,
            shareCount,
            engagement: impressionCount
              ? (likeCount + commentCount + shareCount + clickCount) / impressionCount
              : 0,
          },
        });
      }
      return { paging: { start: 0, count: 10, links: [] }, elements };
    }),
  );

  scope.get(
    '/rest/networkSizes/:urn',
    linkedInRoute(true, async (request) => {
      const orgUrn = decodeURIComponent((request.params as { urn: string }).urn);
      const edge = (request.query as Record<string, unknown>).edgeType;
      if (edge !== 'COMPANY_FOLLOWED_BY_MEMBER')
        throw linkedInErrors.badRequest('edgeType=COMPANY_FOLLOWED_BY_MEMBER is required.');
      await adminOf(request.headers.authorization, orgUrn);
      return { firstDegreeSize: followersOn(orgUrn, await kit.now()) };
    }),
  );
}
