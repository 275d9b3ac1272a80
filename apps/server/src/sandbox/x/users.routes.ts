import type { FastifyInstance } from 'fastify';
import { avatarDataUrl } from '../kit/consent.js';
import { followersOn } from '../kit/growth.js';
import type { XAccess } from './access.js';
import { xRoute } from './responses.js';

/** `GET /2/users/me` (docs/networks.md#x-oauth): `{data:{id, name, username, …requested user.fields}}`. */
export function registerXUserRoutes(
  scope: FastifyInstance,
  access: XAccess,
  now: () => Promise<number> = async () => Date.now(),
) {
  scope.get(
    '/2/users/me',
    xRoute(async (request) => {
      const { account, scenario } = await access(request, ['users.read', 'tweet.read']);
      // The `premium` knob: an X Premium subscriber, with the blue check mark that comes with it.
      const premium = scenario.isOn('premium');
      const available: Record<string, unknown> = {
        profile_image_url: avatarDataUrl(account.name, 203),
        verified: premium,
        verified_type: premium ? 'blue' : 'none',
        subscription_type: premium ? 'Premium' : 'None',
        public_metrics: {
          // Followers change with each day on the emulator's clock (docs/analytics.md#sandbox).
          followers_count: followersOn(account.id, await now(), account.createdAt),
          following_count: 0,
          tweet_count: 0,
          listed_count: 0,
        },
        created_at: new Date(account.createdAt).toISOString(),
        description: '',
      };
      const requested = String((request.query as Record<string, unknown>)['user.fields'] ?? '')
        .split(',')
        .filter((f) => f in available);
      return {
        data: {
          id: account.id,
          name: account.name,
          username: account.username,
          ...Object.fromEntries(requested.map((f) => [f, available[f]])),
        },
      };
    }),
  );
}
