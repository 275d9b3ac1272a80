import type { FastifyInstance, FastifyRequest } from 'fastify';
import { dailyFigure, followersOn, grownCount } from '../kit/growth.js';
import type { SandboxOAuth } from '../kit/oauth-state.js';
import { graphAccess, missingObject, sameUser } from './graph.js';
import type { ThreadsMediaState } from './media-state.js';
import { graphError } from './responses.js';

type IdRequest = FastifyRequest<{ Params: { id: string } }>;

/** Media metrics Threads documents, with the scale of each after a week (docs/analytics.md#sandbox). */
const MEDIA_METRICS: Record<string, number> = {
  views: 900,
  likes: 60,
  replies: 9,
  reposts: 5,
  quotes: 2,
  shares: 4,
};
const ACCOUNT_METRICS = new Set([
  'views',
  'likes',
  'replies',
  'reposts',
  'quotes',
  'clicks',
  'followers_count',
]);

/** The metric list, or the name Threads would refuse first. */
function metricsOf(request: FastifyRequest, known: (m: string) => boolean) {
  const metrics = String((request.query as Record<string, unknown>).metric ?? '')
    .split(',')
    .map((m) => m.trim())
    .filter(Boolean);
  return { metrics, invalid: metrics.length ? metrics.find((m) => !known(m)) : '(none)' };
}

/**
 * `GET /{media}/insights` and `GET /{user}/threads_insights` (`threads_manage_insights`): Threads'
 * names and shapes, with numbers that grow with the emulator's clock. An unknown metric fails
 * the whole call with code 100, as on Threads.
 */
export function registerThreadsInsightsRoutes(
  scope: FastifyInstance,
  oauth: SandboxOAuth,
  state: ThreadsMediaState,
) {
  scope.get('/v1.0/:id/insights', async (request: IdRequest, reply) => {
    const access = await graphAccess(request, reply, oauth, 'threads_manage_insights');
    if (!access) return reply;
    const media = await state.getMedia(request.params.id);
    if (!media || media.deleted || media.accountId !== access.account.id)
      return missingObject(reply, request.params.id);
    const { metrics, invalid } = metricsOf(request, (m) => m in MEDIA_METRICS);
    if (invalid)
      return graphError(reply, 400, {
        message: `(#100) metric[0] must be one of the following values: ${Object.keys(MEDIA_METRICS).join(', ')}`,
        code: 100,
      });
    const age = access.now - media.createdAt;
    return {
      data: metrics.map((name) => ({
        name,
        period: 'lifetime',
        values: [{ value: grownCount(media.id, name, age, MEDIA_METRICS[name]!) }],
        id: `${media.id}/insights/${name}/lifetime`,
      })),
    };
  });

  scope.get('/v1.0/:id/threads_insights', async (request: IdRequest, reply) => {
    const access = await graphAccess(request, reply, oauth, 'threads_manage_insights');
    if (!access) return reply;
    if (!sameUser(reply, access, request.params.id)) return reply;
    const { metrics, invalid } = metricsOf(request, (m) => ACCOUNT_METRICS.has(m));
    if (invalid)
      return graphError(reply, 400, {
        message: `(#100) metric[0] must be one of the following values: ${[...ACCOUNT_METRICS].join(', ')}`,
        code: 100,
      });
    const id = access.account.id;
    const data = metrics.map((name) => {
      if (name === 'views')
        // Profile views: a daily series.
        return {
          name,
          period: 'day',
          values: [
            {
              value: dailyFigure(id, name, access.now, 120),
              end_time: new Date(access.now).toISOString(),
            },
          ],
          id: `${id}/insights/${name}/day`,
        };
      const value =
        name === 'followers_count'
          ? followersOn(id, access.now, access.account.createdAt)
          : dailyFigure(id, name, access.now, 40);
      return { name, period: 'day', total_value: { value }, id: `${id}/insights/${name}/day` };
    });
    return { data };
  });
}
