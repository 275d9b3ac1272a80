import type { FastifyInstance } from 'fastify';
import { avatarDataUrl, bearerToken } from '../kit/consent.js';
import type { SandboxOAuth } from '../kit/oauth-state.js';
import { xProblem, xRateLimited, xUnauthorized } from './x-responses.js';

/** `GET /2/users/me` (§1.1): `{data:{id, name, username, …requested user.fields}}`. */
export function registerXUserRoutes(scope: FastifyInstance, oauth: SandboxOAuth) {
  scope.get('/2/users/me', async (request, reply) => {
    const check = await oauth.verifyAccess(bearerToken(request));
    if (!check.ok) return xUnauthorized(reply);
    const { account, scopes } = check;
    if (await oauth.takeOnce(account.id, 'rate_limit_once')) return xRateLimited(reply);
    if (await oauth.takeOnce(account.id, 'http_500_once'))
      return xProblem(reply, 503, 'Service Unavailable', 'Service Unavailable');
    if (!scopes.includes('users.read') || !scopes.includes('tweet.read'))
      return xProblem(
        reply,
        403,
        'Forbidden',
        'You are not permitted to perform this action.',
        'https://api.x.com/2/problems/client-forbidden',
      );
    const available: Record<string, unknown> = {
      profile_image_url: avatarDataUrl(account.name, 203),
      verified: false,
      verified_type: 'none',
      public_metrics: { followers_count: 0, following_count: 0, tweet_count: 0, listed_count: 0 },
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
  });
}
