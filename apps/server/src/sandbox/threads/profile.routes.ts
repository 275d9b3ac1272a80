import type { FastifyInstance } from 'fastify';
import { avatarDataUrl } from '../kit/consent.js';
import type { SandboxOAuth } from '../kit/oauth-state.js';
import { graphAccess } from './graph.js';
import { graphError } from './responses.js';

/** `GET /v1.0/me?fields=…` (docs/networks.md#threads-oauth, #threads-sandbox): the id always, other fields when asked for. */
export function registerThreadsProfileRoutes(scope: FastifyInstance, oauth: SandboxOAuth) {
  scope.get('/v1.0/me', async (request, reply) => {
    const access = await graphAccess(request, reply, oauth);
    if (!access) return reply;
    const { account } = access;
    const available: Record<string, unknown> = {
      id: account.id,
      username: account.username,
      name: account.name,
      threads_profile_picture_url: avatarDataUrl(account.name, 0),
      threads_biography: '',
    };
    const fields = String((request.query as Record<string, unknown>).fields ?? 'id')
      .split(',')
      .map((f) => f.trim())
      .filter(Boolean);
    const unknown = fields.find((f) => !(f in available));
    if (unknown)
      return graphError(reply, 400, {
        message: `(#100) Tried accessing nonexisting field (${unknown}) on node type (ThreadsUser)`,
        code: 100,
      });
    return Object.fromEntries(['id', ...fields].map((f) => [f, available[f]]));
  });
}
